"""The dial: twelve places around a circle, one per value, 12 followed by 1.

The tiles on the dial always form one unbroken arc. A run grows from one end of the
arc: clockwise means rising values (5, 6, 7 ... 12, 1), counterclockwise falling ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from domain.games.epizodiak.tiles import VALUES, TileId, Value

Direction = Literal["clockwise", "counterclockwise"]
DIRECTIONS: tuple[Direction, ...] = ("clockwise", "counterclockwise")

Dial = Sequence[TileId | None]
"""Place v-1 holds the tile of value v, or None while it is empty."""


def step(value: Value, direction: Direction) -> Value:
    """The next place around the dial."""
    return value % 12 + 1 if direction == "clockwise" else (value - 2) % 12 + 1


def opposite(direction: Direction) -> Direction:
    return "counterclockwise" if direction == "clockwise" else "clockwise"


def end_value(dial: Dial, direction: Direction) -> Value | None:
    """The empty place where a run going `direction` starts (None when the dial is full)."""
    back = opposite(direction)
    for value in VALUES:
        if dial[value - 1] is None and dial[step(value, back) - 1] is not None:
            return value
    return None


def ends(dial: Dial) -> tuple[Value, ...]:
    """The values immediately playable: the empty places at both ends of the arc."""
    found = {end_value(dial, d) for d in DIRECTIONS}
    return tuple(sorted(v for v in found if v is not None))


def open_places(dial: Dial) -> int:
    return sum(1 for tile in dial if tile is None)


def is_full(dial: Dial) -> bool:
    return open_places(dial) == 0
