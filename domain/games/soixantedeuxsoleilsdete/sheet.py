"""The player sheet of 62 Soleils d'été, as data: the slots of the five zones with their
pearls, crabs and sun hats, the zones' banners, and the sun row with its bonuses.

HOUSE-MADE (ASSUMPTION): no public sheet exists (rules-batch2.md section 9). This one is
designed to play: 30 slots on a grid of 6 rows and 5 columns, more than 20 rounds can
fill, so a sheet is a race of choices. Every value below may be replaced by a real sheet
without touching a rule.

Grid (row 0 on top; each cell: slot, pearl, C a crab at its bottom, H a sun hat on top):

    cabin1-top 1     cabin2-top 3     cabin3-top 5     cabin4-top 2 H   bottle1 2 H
    cabin1-bottom 4  cabin2-bottom 6 C cabin3-bottom 2 cabin4-bottom 5  bottle2 4
    koi1-1 2 H       koi1-2 3         koi1-3 5         koi1-4 6 C       bottle3 6
    koi2-1 5 C       koi2-2 4         koi2-3 2 H       koi2-4 1         gull1 1
    boat1-1 3        boat1-2 6 C      boat1-3 2        boat1-4 5 H      gull2 3 C
    boat2-1 4        boat2-2 1        boat2-3 6 C      boat2-4 3        gull3 5
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

SlotId = str
ZoneName = Literal["cabins", "koi", "boats", "bottles", "gulls"]
Bonus = Literal["shellfish", "starfish", "number"]


class Slot(msgspec.Struct, frozen=True):
    name: SlotId
    zone: ZoneName
    group: str
    """The cabin, koi or boat line the slot belongs to (the zone's name for the others)."""
    position: int
    """Its place in its koi or boat line, from the left (0 elsewhere)."""
    pearl: int
    row: int
    column: int
    crab: bool = False
    hat: bool = False


def _slot(name: str, zone: ZoneName, pearl: int, row: int, column: int, marks: str = "") -> Slot:
    group, _, place = name.partition("-")
    position = int(place) - 1 if place.isdigit() else 0
    return Slot(
        name=name,
        zone=zone,
        group=group if zone in ("cabins", "koi", "boats") else zone,
        position=position,
        pearl=pearl,
        row=row,
        column=column,
        crab="C" in marks,
        hat="H" in marks,
    )


SLOTS: Final[tuple[Slot, ...]] = (
    _slot("cabin1-top", "cabins", 1, 0, 0),
    _slot("cabin2-top", "cabins", 3, 0, 1),
    _slot("cabin3-top", "cabins", 5, 0, 2),
    _slot("cabin4-top", "cabins", 2, 0, 3, "H"),
    _slot("bottle1", "bottles", 2, 0, 4, "H"),
    _slot("cabin1-bottom", "cabins", 4, 1, 0),
    _slot("cabin2-bottom", "cabins", 6, 1, 1, "C"),
    _slot("cabin3-bottom", "cabins", 2, 1, 2),
    _slot("cabin4-bottom", "cabins", 5, 1, 3),
    _slot("bottle2", "bottles", 4, 1, 4),
    _slot("koi1-1", "koi", 2, 2, 0, "H"),
    _slot("koi1-2", "koi", 3, 2, 1),
    _slot("koi1-3", "koi", 5, 2, 2),
    _slot("koi1-4", "koi", 6, 2, 3, "C"),
    _slot("bottle3", "bottles", 6, 2, 4),
    _slot("koi2-1", "koi", 5, 3, 0, "C"),
    _slot("koi2-2", "koi", 4, 3, 1),
    _slot("koi2-3", "koi", 2, 3, 2, "H"),
    _slot("koi2-4", "koi", 1, 3, 3),
    _slot("gull1", "gulls", 1, 3, 4),
    _slot("boat1-1", "boats", 3, 4, 0),
    _slot("boat1-2", "boats", 6, 4, 1, "C"),
    _slot("boat1-3", "boats", 2, 4, 2),
    _slot("boat1-4", "boats", 5, 4, 3, "H"),
    _slot("gull2", "gulls", 3, 4, 4, "C"),
    _slot("boat2-1", "boats", 4, 5, 0),
    _slot("boat2-2", "boats", 1, 5, 1),
    _slot("boat2-3", "boats", 6, 5, 2, "C"),
    _slot("boat2-4", "boats", 3, 5, 3),
    _slot("gull3", "gulls", 5, 5, 4),
)

SLOT: Final[dict[SlotId, Slot]] = {s.name: s for s in SLOTS}

KOI_ORDER: Final[dict[str, Literal["ascending", "descending"]]] = {
    "koi1": "ascending",
    "koi2": "descending",
}
"""The order printed on each koi (its < or > signs)."""

BANNERS: Final[dict[ZoneName, tuple[int, int]]] = {
    "cabins": (5, 0),
    "koi": (6, 0),
    "boats": (2, 1),
    "bottles": (3, 0),
    "gulls": (2, 1),
}
"""What completing a zone wins at once: (starfish, shellfish)."""

ZONES: Final[tuple[ZoneName, ...]] = ("cabins", "koi", "boats", "bottles", "gulls")

SUNS: Final = 20
"""The sun row: one sun a round, so 20 rounds."""
SUN_GOAL: Final = 62
"""Rule: the game also ends once someone's sun total reaches 62 or more."""

SUN_BONUSES: Final[dict[int, tuple[Bonus, int]]] = {
    12: ("shellfish", 1),
    22: ("number", 1),
    32: ("starfish", 2),
    42: ("shellfish", 1),
    52: ("number", 1),
    62: ("starfish", 3),
}
"""The bonus printed at each exact sun total (ASSUMPTION, house-made)."""

PEARL_STARFISH: Final = 1
SHELLFISH_MAJORITY: Final = 5
DIE_FACES: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6)
DICE: Final = 3


def neighbours(slot: SlotId) -> tuple[SlotId, ...]:
    """The slots above, below, left and right of `slot` on the grid, any zone."""
    here = SLOT[slot]
    return tuple(s.name for s in SLOTS if abs(s.row - here.row) + abs(s.column - here.column) == 1)
