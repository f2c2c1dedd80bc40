"""What each seat sees: the whole table, since Chicken! keeps nothing secret.

Every event is public (rolls and draws happen in plain sight) and nothing is hidden, so
the kernel's defaults stand for `redact` and `hidden`.

The Seed Bag is shown by its contents (every coloured die not in the Coop or in play,
which anyone can work out); its draws are chance, recorded in events as they happen.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.chicken.dice import COLOUR, GOAL, SET_ASIDE_LEFT, SET_ASIDE_RIGHT, Colour, DieId
from domain.games.chicken.rules import barks, foxes
from domain.games.chicken.state import InPlay, Phase, State
from domain.kernel import Seat

Area = Literal["right", "left", "middle"]


class ShownDie(msgspec.Struct, frozen=True):
    die: DieId
    colour: Colour
    face: str
    """The face showing, or "unrolled" for a die passed on or hatched (counts as blank)."""


class TableView(msgspec.Struct, frozen=True):
    eggspansion: bool
    goal: int
    phase: Phase
    holder: Seat
    scores: tuple[int, ...]
    right: tuple[ShownDie, ...]
    """Chickens set aside."""
    left: tuple[ShownDie, ...]
    """Foxes (and Blue's Bark!) set aside."""
    middle: tuple[ShownDie, ...]
    """Eggs, blanks, Happy Dog, Chick and unrolled dice: what a reroll would roll."""
    foxes: int
    """Foxes showing, less one per Bark!: 3 is a bust."""
    rerolled: bool
    eggs_to_hatch: int
    coop: tuple[DieId, ...]
    seed_bag: tuple[DieId, ...]
    conceded: tuple[Seat, ...]
    winner: Seat | None


def area(die: InPlay) -> Area:
    if die.face in SET_ASIDE_RIGHT:
        return "right"
    if die.face in SET_ASIDE_LEFT:
        return "left"
    return "middle"


def view(state: State, seat: Seat | None) -> TableView:
    def shown(where: Area) -> tuple[ShownDie, ...]:
        return tuple(
            ShownDie(die=d.die, colour=COLOUR[d.die], face=d.face or "unrolled")
            for d in state.dice
            if area(d) == where
        )

    return TableView(
        eggspansion=state.options.eggspansion,
        goal=GOAL,
        phase=state.phase,
        holder=state.holder,
        scores=tuple(state.scores),
        right=shown("right"),
        left=shown("left"),
        middle=shown("middle"),
        foxes=max(0, foxes(state) - barks(state)),
        rerolled=state.rerolled,
        eggs_to_hatch=state.eggs_to_hatch,
        coop=tuple(state.coop),
        seed_bag=tuple(state.seed_bag),
        conceded=tuple(state.conceded),
        winner=state.winner,
    )
