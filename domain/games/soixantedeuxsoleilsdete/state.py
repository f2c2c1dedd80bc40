"""The 62 Soleils d'été table: the shared roll and one open sheet per player."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.soixantedeuxsoleilsdete.sheet import SlotId, ZoneName
from domain.kernel import Seat

Stage = Literal["write", "crab", "hat", "bonus", "done"]
"""Where a player is in this round: share the dice out, use a crab's copy, choose the sun
value a hat gives, write a bonus number, or done (waiting for the others)."""


class SoleilsOptions(msgspec.Struct, forbid_unknown_fields=True):
    koi_free_direction: bool = False
    """False: each koi follows the order printed on it (the facts file's "< / >
    symbols"); True: the page's "no priority between Koi": a koi may run up or down, as
    long as its values are in strict order one way."""


class Sheet(msgspec.Struct):
    values: dict[str, int] = {}
    """Slot -> the value written in it."""
    suns: list[int] = []
    """The values added to the sun row, one a round, left to right."""
    total: int = 0
    starfish: int = 0
    shellfish: int = 0
    completed: list[ZoneName] = []
    # This round:
    allotted: bool = False
    """The dice are shared out (or the sun-only die chosen)."""
    sun_die: int | None = None
    hat: bool = False
    """A slot with a sun hat was filled before the sun step."""
    crab_from: SlotId | None = None
    """The slot whose crab may copy its value on, while that choice is open."""
    bonus_due: bool = False
    left: bool = False


class Table(msgspec.Struct):
    seats: int
    options: SoleilsOptions
    round: int = 0
    dice: tuple[int, ...] = ()
    sheets: list[Sheet] = []
    over: bool = False
    majority: tuple[Seat, ...] = ()
    scores: tuple[int, ...] = ()
