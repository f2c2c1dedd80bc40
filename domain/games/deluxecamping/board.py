"""The camping ground, as data: its squares, the pool, the marked squares of the mystery
tokens, the pieces of each player, and the points of the scoring.

HOUSE-MADE (ASSUMPTION): no public source gives the board. This one is a square ground
of 8 x 8 squares named like a chessboard ("a1" bottom left, "h8" top right), with a
2 x 2 pool in its centre and three marked squares for the mystery tokens. Every value
below may be replaced by the real one without touching a rule.
"""

from __future__ import annotations

from typing import Final

Square = str
"""A square of the ground: column letter then row number, "c3"."""
Edge = str
"""The side between two orthogonal neighbours, "c3-c4" or "c3-d3" (the lower square
first: column, then row): where a fence stands."""
PieceId = str

COLUMNS: Final = "abcdefgh"
ROWS: Final = 8

POOL: Final[tuple[Square, ...]] = ("d4", "d5", "e4", "e5")
"""The pool: no piece stands on it and no fence is needed round it (it is a wall)."""

MYSTERY_SQUARES: Final[tuple[Square, ...]] = ("b2", "g3", "c7")
"""Where the three mystery tokens lie face down until the setup is over."""

TOKENS: Final[tuple[PieceId, ...]] = ("dc-icecream1", "dc-icecream2", "dc-guy")
"""Two ice-cream stands and the pain-in-the-neck guy."""
GUY: Final = "dc-guy"
ICE_CREAMS: Final[tuple[PieceId, ...]] = ("dc-icecream1", "dc-icecream2")

TRAILERS: Final = 6
"""Each player has one bungalow and six trailers."""
MOVEMENTS: Final = 2
"""Movement points a turn, shared between your trailers and the guy."""

ICE_CREAM_POINTS: Final = 5
GUY_POINTS: Final = -10
POOL_FACTOR: Final = 2
"""The area beside the pool counts its squares twice."""


def bungalow(seat: int) -> PieceId:
    return f"dc-p{seat + 1}-bungalow"


def trailer(seat: int, n: int) -> PieceId:
    return f"dc-p{seat + 1}-trailer{n}"


# Derived from the above (geometry only, no rule).

SQUARES: Final[tuple[Square, ...]] = tuple(
    f"{c}{r}" for r in range(1, ROWS + 1) for c in COLUMNS if f"{c}{r}" not in POOL
)
"""Every square a piece may stand on, row by row from a1."""


def _neighbours(square: Square) -> tuple[Square, ...]:
    col, row = COLUMNS.index(square[0]), int(square[1:])
    out = []
    for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
        c, r = col + dc, row + dr
        if 0 <= c < len(COLUMNS) and 1 <= r <= ROWS:
            out.append(f"{COLUMNS[c]}{r}")
    return tuple(out)


def _side_name(a: Square, b: Square) -> Edge:
    key = {s: (COLUMNS.index(s[0]), int(s[1:])) for s in (a, b)}
    first, second = sorted((a, b), key=lambda s: key[s])
    return f"{first}-{second}"


_SIDES: Final[dict[tuple[Square, Square], Edge]] = {
    (a, b): _side_name(a, b)
    for a in (f"{c}{r}" for r in range(1, ROWS + 1) for c in COLUMNS)
    for b in _neighbours(a)
}


def edge(a: Square, b: Square) -> Edge:
    """The name of the side between two neighbours, lower square first."""
    return _SIDES[(a, b)]


NEIGHBOURS: Final[dict[Square, tuple[Square, ...]]] = {
    s: tuple(n for n in _neighbours(s) if n not in POOL) for s in SQUARES
}
"""The orthogonal neighbours of each square, the pool left out."""

BY_THE_POOL: Final[frozenset[Square]] = frozenset(
    s for s in SQUARES if any(n in POOL for n in _neighbours(s))
)
"""The squares that touch the pool."""

EDGES: Final[tuple[Edge, ...]] = tuple(sorted({edge(s, n) for s in SQUARES for n in NEIGHBOURS[s]}))
"""Every side where a fence may stand (the ground's rim and the pool are walls already)."""

ENDS: Final[dict[Edge, tuple[Square, Square]]] = {
    e: (e.split("-")[0], e.split("-")[1]) for e in EDGES
}


MAX_PLAYERS: Final = 4

_OWNER: Final[dict[PieceId, int]] = {
    piece: seat
    for seat in range(MAX_PLAYERS)
    for piece in (bungalow(seat), *(trailer(seat, n) for n in range(1, TRAILERS + 1)))
}


def owner_of(piece: PieceId) -> int:
    """The seat a bungalow or trailer belongs to ("dc-p2-trailer3" -> seat 1)."""
    return _OWNER[piece]
