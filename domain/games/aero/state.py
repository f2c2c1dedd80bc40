"""The Aero table: whose turn, what the dice show, and each player's six criminals."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.aero.dice import Criminal, DieId, Face, NumberDice
from domain.kernel import Seat

Phase = Literal["setup", "roll", "set_aside", "arrest", "over"]


class AeroOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Six turns with the eight dice; which faces the four number dice carry."""

    number_dice: NumberDice = "seed"
    """"seed": each runs 1 (snake eye) to 6, as the seed page says; "bga": the newer BGA
    page's blue (eye, eye, 2-5) and black (eye, 2-5, 5) dice."""


class Dealt(msgspec.Struct):
    """One criminal a player has dealt with: arrested for points, or flipped for 0."""

    criminal: Criminal
    arrested: bool
    points: int


class Table(msgspec.Struct):
    seats: int
    options: AeroOptions = AeroOptions()
    phase: Phase = "setup"
    player: Seat = 0
    turn: int = 0
    faces: dict[DieId, Face] = {}
    """What each die rolled this turn shows (set-aside dice keep their face)."""
    kept: list[DieId] = []
    """The dice split off this turn, in the order they were set aside."""
    dealt: list[list[Dealt]] = []
    """Per seat, the criminals dealt with so far, in turn order."""
    conceded: list[Seat] = []


def initial(options: AeroOptions, seats: int) -> Table:
    """The empty table: nobody has dealt with a criminal yet."""
    return Table(seats=seats, options=options, dealt=[[] for _ in range(seats)])
