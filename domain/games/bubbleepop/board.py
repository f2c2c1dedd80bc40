"""The board as data: two planets of 5 columns x 4 rows facing a sky of 5 columns x 2 rows.

Sky slots are numbered row by row: slots 0-4 are the row next to the first player's
(seat 0) planet, slots 5-9 the row next to seat 1's planet. Sky column c lies over
column c of both planets. A planet column is a stack: Bubblees fall to its bottom row
(the row farthest from the sky) and pile up towards the sky.
"""

from __future__ import annotations

COLUMNS = 5
PLANET_ROWS = 4
SKY_ROWS = 2

SKY_SLOTS: tuple[tuple[int, int], ...] = tuple(
    (row, column) for row in range(SKY_ROWS) for column in range(COLUMNS)
)
"""(row, column) of each sky slot, by slot number."""

NEAR_ROW: tuple[int, int] = (0, 1)
"""The sky row on each seat's side (the row its planet faces)."""

SKY_LINKS: tuple[tuple[int, int], ...] = (
    (0, 1), (1, 2), (2, 3), (3, 4),
    (5, 6), (6, 7), (7, 8), (8, 9),
    (0, 5), (1, 6), (2, 7), (3, 8), (4, 9),
)  # fmt: skip
"""Orthogonally adjacent sky slots."""


def sky_row(slot: int) -> int:
    return SKY_SLOTS[slot][0]


def sky_column(slot: int) -> int:
    return SKY_SLOTS[slot][1]


def sky_touching(a: int, b: int) -> bool:
    """Slots touching by a side or a corner (the setup spacing rule)."""
    (ra, ca), (rb, cb) = SKY_SLOTS[a], SKY_SLOTS[b]
    return a != b and abs(ra - rb) <= 1 and abs(ca - cb) <= 1
