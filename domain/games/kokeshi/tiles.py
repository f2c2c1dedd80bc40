"""The tile catalogue (house-made: the page names no tile).

A tile has a colour, one effect or two halves split by a slash (the owner picks one),
printed recognition points, and whether it is a Quality tile. Effects:

- `up:<doll>`   move that named doll up 1 space
- `shift`       move one doll of your choice 1 track left or right
- `leap`        move a doll of your choice up 2 spaces, resolving only the second
- `animal:<a>`  move that animal's marker 1 step; `animal:any` one of your choice
- `tile:<dir>`  gain a normal tile, placed on the track the arrow points to (`left`,
                `right` or `same`)
- `rest`        nothing (a recognition tile: its points are its worth)
"""

from __future__ import annotations

from typing import Literal

import msgspec

Colour = Literal["red", "blue", "green", "yellow"]
COLOURS: tuple[Colour, ...] = ("red", "blue", "green", "yellow")
TileId = str


class Tile(msgspec.Struct, frozen=True):
    colour: Colour
    halves: tuple[str, ...]
    """One effect, or two split by a slash (choose one)."""
    points: int
    quality: bool


TILES: dict[TileId, Tile] = {
    "kk-red-01": Tile("red", ("up:hana",), 0, quality=False),
    "kk-red-02": Tile("red", ("up:yuki",), 0, quality=False),
    "kk-red-03": Tile("red", ("up:sora",), 0, quality=False),
    "kk-red-04": Tile("red", ("shift",), 0, quality=False),
    "kk-red-05": Tile("red", ("leap",), 0, quality=False),
    "kk-red-06": Tile("red", ("animal:crane",), 0, quality=False),
    "kk-red-07": Tile("red", ("animal:fox",), 0, quality=False),
    "kk-red-08": Tile("red", ("animal:tanuki",), 0, quality=False),
    "kk-red-09": Tile("red", ("animal:any", "up:hana"), 0, quality=False),
    "kk-red-10": Tile("red", ("tile:left", "tile:right"), 0, quality=False),
    "kk-red-11": Tile("red", ("rest",), 2, quality=False),
    "kk-red-12": Tile("red", ("rest",), 3, quality=False),
    "kk-red-q1": Tile("red", ("leap", "animal:any"), 1, quality=True),
    "kk-red-q2": Tile("red", ("shift", "tile:same"), 1, quality=True),
    "kk-red-q3": Tile("red", ("animal:any",), 2, quality=True),
    "kk-red-q4": Tile("red", ("up:yuki", "up:sora"), 2, quality=True),
    "kk-red-q5": Tile("red", ("rest",), 4, quality=True),
    "kk-blue-01": Tile("blue", ("up:yuki",), 0, quality=False),
    "kk-blue-02": Tile("blue", ("up:sora",), 0, quality=False),
    "kk-blue-03": Tile("blue", ("up:hana",), 0, quality=False),
    "kk-blue-04": Tile("blue", ("shift",), 0, quality=False),
    "kk-blue-05": Tile("blue", ("leap",), 0, quality=False),
    "kk-blue-06": Tile("blue", ("animal:fox",), 0, quality=False),
    "kk-blue-07": Tile("blue", ("animal:tanuki",), 0, quality=False),
    "kk-blue-08": Tile("blue", ("animal:crane",), 0, quality=False),
    "kk-blue-09": Tile("blue", ("animal:any", "up:yuki"), 0, quality=False),
    "kk-blue-10": Tile("blue", ("tile:left", "tile:right"), 0, quality=False),
    "kk-blue-11": Tile("blue", ("rest",), 2, quality=False),
    "kk-blue-12": Tile("blue", ("rest",), 3, quality=False),
    "kk-blue-q1": Tile("blue", ("leap", "animal:any"), 1, quality=True),
    "kk-blue-q2": Tile("blue", ("shift", "tile:same"), 1, quality=True),
    "kk-blue-q3": Tile("blue", ("animal:any",), 2, quality=True),
    "kk-blue-q4": Tile("blue", ("up:sora", "up:hana"), 2, quality=True),
    "kk-blue-q5": Tile("blue", ("rest",), 4, quality=True),
    "kk-green-01": Tile("green", ("up:sora",), 0, quality=False),
    "kk-green-02": Tile("green", ("up:hana",), 0, quality=False),
    "kk-green-03": Tile("green", ("up:yuki",), 0, quality=False),
    "kk-green-04": Tile("green", ("shift",), 0, quality=False),
    "kk-green-05": Tile("green", ("leap",), 0, quality=False),
    "kk-green-06": Tile("green", ("animal:tanuki",), 0, quality=False),
    "kk-green-07": Tile("green", ("animal:crane",), 0, quality=False),
    "kk-green-08": Tile("green", ("animal:fox",), 0, quality=False),
    "kk-green-09": Tile("green", ("animal:any", "up:sora"), 0, quality=False),
    "kk-green-10": Tile("green", ("tile:left", "tile:right"), 0, quality=False),
    "kk-green-11": Tile("green", ("rest",), 2, quality=False),
    "kk-green-12": Tile("green", ("rest",), 3, quality=False),
    "kk-green-q1": Tile("green", ("leap", "animal:any"), 1, quality=True),
    "kk-green-q2": Tile("green", ("shift", "tile:same"), 1, quality=True),
    "kk-green-q3": Tile("green", ("animal:any",), 2, quality=True),
    "kk-green-q4": Tile("green", ("up:hana", "up:yuki"), 2, quality=True),
    "kk-green-q5": Tile("green", ("rest",), 4, quality=True),
    "kk-yellow-01": Tile("yellow", ("up:hana",), 0, quality=False),
    "kk-yellow-02": Tile("yellow", ("up:yuki",), 0, quality=False),
    "kk-yellow-03": Tile("yellow", ("up:sora",), 0, quality=False),
    "kk-yellow-04": Tile("yellow", ("shift",), 0, quality=False),
    "kk-yellow-05": Tile("yellow", ("leap",), 0, quality=False),
    "kk-yellow-06": Tile("yellow", ("animal:crane",), 0, quality=False),
    "kk-yellow-07": Tile("yellow", ("animal:fox",), 0, quality=False),
    "kk-yellow-08": Tile("yellow", ("animal:tanuki",), 0, quality=False),
    "kk-yellow-09": Tile("yellow", ("animal:any", "up:hana"), 0, quality=False),
    "kk-yellow-10": Tile("yellow", ("tile:left", "tile:right"), 0, quality=False),
    "kk-yellow-11": Tile("yellow", ("rest",), 2, quality=False),
    "kk-yellow-12": Tile("yellow", ("rest",), 3, quality=False),
    "kk-yellow-q1": Tile("yellow", ("leap", "animal:any"), 1, quality=True),
    "kk-yellow-q2": Tile("yellow", ("shift", "tile:same"), 1, quality=True),
    "kk-yellow-q3": Tile("yellow", ("animal:any",), 2, quality=True),
    "kk-yellow-q4": Tile("yellow", ("up:yuki", "up:sora"), 2, quality=True),
    "kk-yellow-q5": Tile("yellow", ("rest",), 4, quality=True),
}
"""48 normal tiles (12 per colour) and 20 Quality tiles (5 per colour); each colour names
the dolls and animals in a different order."""
NORMAL_TILES: tuple[TileId, ...] = tuple(sorted(t for t, tile in TILES.items() if not tile.quality))
QUALITY_TILES: tuple[TileId, ...] = tuple(sorted(t for t, tile in TILES.items() if tile.quality))
