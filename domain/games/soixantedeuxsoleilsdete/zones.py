"""The writing rule of each zone, the crab's reach, and a zone's completion.

Rules (seed 002 line 702): cabins, top and bottom the same value; koi, strict ascending
or descending order; boats, neighbours on a line differ; bottles, all the same; seagulls,
all different.
"""

from __future__ import annotations

from domain.games.soixantedeuxsoleilsdete.sheet import (
    KOI_ORDER,
    SLOT,
    SLOTS,
    SlotId,
    ZoneName,
    neighbours,
)
from domain.games.soixantedeuxsoleilsdete.state import Sheet


def written_with(sheet: Sheet, slot: SlotId) -> list[tuple[int, int]]:
    """(position, value) of the written slots of `slot`'s cabin, koi, line or zone."""
    here = SLOT[slot]
    return [
        (s.position, sheet.values[s.name])
        for s in SLOTS
        if s.group == here.group and s.name != slot and s.name in sheet.values
    ]


def zone_problem(sheet: Sheet, slot: SlotId, value: int, koi_free: bool = False) -> str | None:
    """Why `value` may not be written in `slot` (a rejection code), or None."""
    here = SLOT[slot]
    others = written_with(sheet, slot)
    match here.zone:
        case "cabins":
            if any(v != value for _, v in others):
                return "cabin_must_match"
        case "koi":
            if not koi_in_order(here.position, value, others, KOI_ORDER[here.group], koi_free):
                return "koi_out_of_order"
        case "boats":
            if any(abs(p - here.position) == 1 and v == value for p, v in others):
                return "boats_differ"
        case "bottles":
            if any(v != value for _, v in others):
                return "bottles_alike"
        case "gulls":
            if any(v == value for _, v in others):
                return "gulls_differ"
    return None


def koi_in_order(
    position: int, value: int, others: list[tuple[int, int]], printed: str, free: bool
) -> bool:
    """Strict order along the koi: the printed one, or (free) either, kept all along."""
    line = sorted([*others, (position, value)])
    values = [v for _, v in line]
    up = all(a < b for a, b in zip(values, values[1:], strict=False))
    down = all(a > b for a, b in zip(values, values[1:], strict=False))
    if free:
        return up or down
    return up if printed == "ascending" else down


def may_write(sheet: Sheet, slot: SlotId, value: int, koi_free: bool = False) -> bool:
    return slot not in sheet.values and zone_problem(sheet, slot, value, koi_free) is None


def crab_targets(sheet: Sheet, slot: SlotId, value: int, koi_free: bool = False) -> list[SlotId]:
    """Rule: a crab copies the value to an empty neighbour above, below, left or right,
    any zone, where that value may be written."""
    return [n for n in neighbours(slot) if may_write(sheet, n, value, koi_free)]


def completes(sheet: Sheet, zone: ZoneName) -> bool:
    """Every slot of the zone holds a value."""
    return all(s.name in sheet.values for s in SLOTS if s.zone == zone)
