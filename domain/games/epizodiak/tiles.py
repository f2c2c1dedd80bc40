"""The 48 EpiZodiak tiles: the values 1 to 12, four copies of each.

A tile id names its value and its copy: "ez-07c" is the third 7. Copies of one value
are interchangeable at the table; the ids only tell the instances apart.
"""

from __future__ import annotations

TileId = str
Value = int

VALUES: tuple[Value, ...] = tuple(range(1, 13))
COPIES: tuple[str, ...] = ("a", "b", "c", "d")
TILES: tuple[TileId, ...] = tuple(f"ez-{v:02d}{c}" for v in VALUES for c in COPIES)

PLAYERS = 3
HAND_SIZE = 12  # dealt to each player; the 12 left form the draw pile
SET_SIZE = 3  # a set ("brelan") is three tiles of one value


def value_of(tile: TileId) -> Value:
    """The number printed on a tile."""
    return int(tile[3:5])
