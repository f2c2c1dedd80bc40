"""The Hypnosia board, as data: circles, bridges, the centre, start lanes and seating.

ASSUMPTION (the whole geometry): no public source gives the real board, so this one is
designed to be playable and fair; every number below may be replaced by the real one
without touching a rule. The rules read only this module (through `track.py`).

Conventions the data follows:
- A circle space is named "<circle>-<nn>" (`outer-05`); a circle's spaces are numbered
  counter-clockwise, so a pawn steps from `nn` to `nn + 1` (wrapping round).
- A bridge leads from a double-coloured space to a space of the next inner circle; taking
  it is one step of a move. The bridges of the innermost circle lead to the centre: they
  are the six special spaces, and from them only an exact 1 reaches the centre.
- A start lane lists a colour's four start squares nearest the circle first; the pawn on
  the k-th square needs k steps to reach the lane's entry space on the outer circle.
"""

from __future__ import annotations

import msgspec

SpaceId = str
"""A place a pawn can stand: "outer-05", "red-start-2", "centre"."""

Colour = str
"""A pawn colour; a seat plays one colour."""


class Circle(msgspec.Struct, frozen=True):
    name: str
    spaces: int


class Bridge(msgspec.Struct, frozen=True):
    """A double-coloured space and where its bridge lands (one step inward)."""

    space: SpaceId
    leads_to: SpaceId


class StartLane(msgspec.Struct, frozen=True):
    colour: Colour
    squares: tuple[SpaceId, ...]
    """Nearest the circle first: the pawn on squares[k - 1] needs k steps to `entry`."""
    entry: SpaceId


class Board(msgspec.Struct, frozen=True):
    circles: tuple[Circle, ...]
    """Outermost first."""
    bridges: tuple[Bridge, ...]
    centre: SpaceId
    centre_points: tuple[int, ...]
    """Points of the 1st, 2nd ... pawn to arrive; the centre holds this many pawns."""
    lanes: tuple[StartLane, ...]
    seating: dict[int, tuple[Colour, ...]]
    """The colours in play for each table size, in seat order."""


def _lane(colour: Colour, entry: SpaceId) -> StartLane:
    squares = tuple(f"{colour}-start-{k}" for k in range(1, 5))
    return StartLane(colour=colour, squares=squares, entry=entry)


BOARD = Board(
    circles=(
        Circle(name="outer", spaces=48),
        Circle(name="middle", spaces=36),
        Circle(name="inner", spaces=24),
    ),
    bridges=(
        # Outer circle to middle circle: 5 steps after each entry space.
        Bridge(space="outer-05", leads_to="middle-04"),
        Bridge(space="outer-13", leads_to="middle-10"),
        Bridge(space="outer-21", leads_to="middle-16"),
        Bridge(space="outer-29", leads_to="middle-22"),
        Bridge(space="outer-37", leads_to="middle-28"),
        Bridge(space="outer-45", leads_to="middle-34"),
        # Middle circle to inner circle: 3 steps after each landing from the outer circle.
        Bridge(space="middle-01", leads_to="inner-01"),
        Bridge(space="middle-07", leads_to="inner-05"),
        Bridge(space="middle-13", leads_to="inner-09"),
        Bridge(space="middle-19", leads_to="inner-13"),
        Bridge(space="middle-25", leads_to="inner-17"),
        Bridge(space="middle-31", leads_to="inner-21"),
        # The six special spaces around the centre: 2 steps after each landing.
        Bridge(space="inner-03", leads_to="centre"),
        Bridge(space="inner-07", leads_to="centre"),
        Bridge(space="inner-11", leads_to="centre"),
        Bridge(space="inner-15", leads_to="centre"),
        Bridge(space="inner-19", leads_to="centre"),
        Bridge(space="inner-23", leads_to="centre"),
    ),
    centre="centre",
    centre_points=(5, 4, 3, 2, 1),
    lanes=(
        _lane("red", "outer-00"),
        _lane("blue", "outer-08"),
        _lane("green", "outer-16"),
        _lane("yellow", "outer-24"),
        _lane("purple", "outer-32"),
        _lane("orange", "outer-40"),
    ),
    seating={
        2: ("red", "yellow"),
        3: ("red", "green", "purple"),
        4: ("red", "blue", "yellow", "purple"),
        5: ("red", "blue", "green", "yellow", "purple"),
        6: ("red", "blue", "green", "yellow", "purple", "orange"),
    },
)
