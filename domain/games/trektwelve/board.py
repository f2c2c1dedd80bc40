"""Reading a map: neighbours of each circle and the largest number it takes."""

from __future__ import annotations

from functools import cache

from domain.games.trektwelve.maps import MAPS, NORMAL_MAX, THICK_MAX, TrekMap


def trek_map(name: str) -> TrekMap:
    return MAPS[name]


@cache
def neighbours(name: str) -> tuple[tuple[int, ...], ...]:
    """For each circle of the map, its neighbours in increasing order."""
    trek = MAPS[name]
    found: list[set[int]] = [set() for _ in range(trek.circles)]
    for a, b in trek.links:
        found[a].add(b)
        found[b].add(a)
    return tuple(tuple(sorted(n)) for n in found)


def largest(trek: TrekMap, circle: int) -> int:
    """The largest number the circle takes: 6 in a thick circle, else 12."""
    return THICK_MAX if circle in trek.thick else NORMAL_MAX
