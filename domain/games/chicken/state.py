"""The table: score track, the dice in front of the farmer whose turn it is, Coop, Seed Bag.

Nothing is secret in Chicken!: the Seed Bag's contents are every coloured die that is
neither in the Coop nor in play, so they are known by elimination (only the draws are
chance, and each draw is recorded in an event).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.chicken.dice import BASE_COOP, EGGSPANSION_BAG, DieId, Face
from domain.kernel import Seat

Phase = Literal["setup", "choosing", "hatching", "deciding", "turn_over", "over"]
"""setup: before the first player is chosen; choosing: Go For It or Chicken Out;
hatching: Eggspansion eggs waiting for the farmer to pick their dice; deciding: Reroll
or Count Your Chickens; turn_over: between a turn's end and the dice being passed (never
seen between moves); over: someone won."""


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    eggspansion: bool = False
    """Play with Blue the Dog, Mother Hen and the Seed Bag."""


class InPlay(msgspec.Struct, frozen=True):
    """A die in front of the farmer. `face` None: not rolled this turn yet (counts as blank)."""

    die: DieId
    face: Face | None = None


class State(msgspec.Struct):
    options: Options
    scores: list[int]
    phase: Phase = "setup"
    holder: Seat = 0
    """Whose turn it is: the farmer holding the dice."""
    dice: list[InPlay] = []
    """The holder's dice (white ones always among them), in table order."""
    coop: list[DieId] = []
    seed_bag: list[DieId] = []
    rerolled: bool = False
    eggs_to_hatch: int = 0
    conceded: list[Seat] = []
    winner: Seat | None = None


def initial(options: Options, seats: int) -> State:
    """Tokens on the starting space; the coloured dice in the Coop, or in the Seed Bag."""
    if options.eggspansion:
        return State(options=options, scores=[0] * seats, seed_bag=list(EGGSPANSION_BAG))
    return State(options=options, scores=[0] * seats, coop=list(BASE_COOP))
