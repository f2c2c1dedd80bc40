"""End-of-trek scoring: rope paths, zones, the two size bonuses and lonely circles."""

from __future__ import annotations

from functools import lru_cache

import msgspec

from domain.games.trektwelve.board import neighbours, trek_map
from domain.games.trektwelve.maps import TrekMap
from domain.games.trektwelve.sheet import LONELY_PENALTY, SIZE_BONUS, SIZE_BONUS_BEYOND
from domain.games.trektwelve.state import Sheet


class Group(msgspec.Struct, frozen=True):
    """A scored path or zone: its circles (sorted) and its points."""

    circles: tuple[int, ...]
    points: int


class Score(msgspec.Struct, frozen=True):
    paths: tuple[Group, ...]
    zones: tuple[Group, ...]
    longest_path_bonus: int
    biggest_zone_bonus: int
    lonely: tuple[int, ...]
    total: int


def size_bonus(size: int) -> int:
    """The bonus table: 3 circles 1, 4 -> 3, 5 -> 6 ... 9 -> 25, then +5 per circle."""
    if size > max(SIZE_BONUS):
        return SIZE_BONUS[max(SIZE_BONUS)] + SIZE_BONUS_BEYOND * (size - max(SIZE_BONUS))
    return SIZE_BONUS.get(size, 0)


def paths(sheet: Sheet) -> list[tuple[int, ...]]:
    """Rope paths: circles joined by ropes, two circles or more, lowest number first."""
    out: list[tuple[int, ...]] = []
    for start, number in enumerate(sheet.numbers):
        if number is None or sheet.down[start] is not None or sheet.up[start] is None:
            continue
        chain = [start]
        nxt = sheet.up[start]
        while nxt is not None:
            chain.append(nxt)
            nxt = sheet.up[nxt]
        out.append(tuple(chain))
    return out


def zones(sheet: Sheet, trek: TrekMap) -> list[tuple[int, ...]]:
    """Zones: two or more neighbouring circles holding the same number."""
    seen: set[int] = set()
    out: list[tuple[int, ...]] = []
    for start, number in enumerate(sheet.numbers):
        if number is None or start in seen:
            continue
        group = {start}
        todo = [start]
        while todo:
            here = todo.pop()
            for there in neighbours(trek.name)[here]:
                if there not in group and sheet.numbers[there] == number:
                    group.add(there)
                    todo.append(there)
        seen |= group
        if len(group) >= 2:
            out.append(tuple(sorted(group)))
    return out


def score(sheet: Sheet, trek: TrekMap) -> Score:
    """The sheet's score now (remembered for recently seen sheets: views ask often)."""
    return _score(trek.name, tuple(sheet.numbers), tuple(sheet.frowns), tuple(sheet.up))


@lru_cache(maxsize=4096)
def _score(
    name: str, numbers: tuple[int | None, ...], frowns: tuple[bool, ...], up: tuple[int | None, ...]
) -> Score:
    down: list[int | None] = [None] * len(up)
    for lower, upper in enumerate(up):
        if upper is not None:
            down[upper] = lower
    sheet = Sheet(numbers=list(numbers), frowns=list(frowns), down=down, up=list(up), ticks={})
    trek = trek_map(name)

    def number(circle: int) -> int:
        value = sheet.numbers[circle]
        assert value is not None
        return value

    path_groups = tuple(
        Group(circles=tuple(sorted(p)), points=max(number(c) for c in p) + len(p) - 1)
        for p in paths(sheet)
    )
    zone_groups = tuple(
        Group(circles=z, points=number(z[0]) + len(z) - 1) for z in zones(sheet, trek)
    )
    longest = max((len(p.circles) for p in path_groups), default=0)
    biggest = max((len(z.circles) for z in zone_groups), default=0)
    grouped = {c for g in (*path_groups, *zone_groups) for c in g.circles}
    lonely = tuple(c for c in range(trek.circles) if sheet.filled(c) and c not in grouped)
    total = (
        sum(g.points for g in path_groups)
        + sum(g.points for g in zone_groups)
        + size_bonus(longest)
        + size_bonus(biggest)
        - LONELY_PENALTY * len(lonely)
    )
    return Score(
        paths=path_groups,
        zones=zone_groups,
        longest_path_bonus=size_bonus(longest),
        biggest_zone_bonus=size_bonus(biggest),
        lonely=lonely,
        total=total,
    )
