"""The Coop and the Seed Bag: which die an egg hatches, how the Coop is refilled."""

from __future__ import annotations

from collections.abc import Iterable

from domain.games.chicken.dice import COLOUR, COOP_SIZE, ORDER, DieId
from domain.kernel import Rng


def in_table_order(dice: Iterable[DieId]) -> list[DieId]:
    """Dice sorted as the table lists them (whites, yellows, oranges, Blue, Mother Hen)."""
    return sorted(dice, key=ORDER.__getitem__)


def next_in_coop(coop: Iterable[DieId]) -> DieId | None:
    """Base game: an egg takes a yellow die; an orange one only when no yellow is left."""
    waiting = list(coop)
    for colour in ("yellow", "orange"):
        for die in waiting:
            if COLOUR[die] == colour:
                return die
    return None


def draw_from_bag(seed_bag: list[DieId], rng: Rng) -> DieId:
    """One die drawn blind from the Seed Bag."""
    return rng.choice(seed_bag)


def refill_draws(coop: list[DieId], seed_bag: list[DieId], rng: Rng) -> tuple[DieId, ...]:
    """The dice drawn one by one from the bag until the Coop holds 5 (or the bag is empty)."""
    bag = list(seed_bag)
    drawn: list[DieId] = []
    while len(coop) + len(drawn) < COOP_SIZE and bag:
        die = draw_from_bag(bag, rng)
        bag.remove(die)
        drawn.append(die)
    return tuple(drawn)
