"""The jewel box grids (4x4, and 5x5 for one or two players) as data the rules read.

A cell is an index `row * side + col`. Each grid lists, for every cell, its
orthogonal neighbours and whether it lies on the edge, and the straight lines
(rows and columns) along which weevils score under the `weevil_groups="lines"` option.
"""

from __future__ import annotations

from typing import Final

import msgspec

Cell = int


class Grid(msgspec.Struct, frozen=True):
    side: int
    neighbours: tuple[tuple[Cell, ...], ...]
    on_edge: tuple[bool, ...]
    lines: tuple[tuple[Cell, ...], ...]

    @property
    def cells(self) -> range:
        return range(self.side * self.side)


def _grid(side: int) -> Grid:
    def index(row: int, col: int) -> Cell:
        return row * side + col

    neighbours = []
    on_edge = []
    for row in range(side):
        for col in range(side):
            around = [(row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col)]
            neighbours.append(
                tuple(index(r, c) for r, c in around if 0 <= r < side and 0 <= c < side)
            )
            on_edge.append(row in (0, side - 1) or col in (0, side - 1))
    rows = tuple(tuple(index(r, c) for c in range(side)) for r in range(side))
    cols = tuple(tuple(index(r, c) for r in range(side)) for c in range(side))
    return Grid(side=side, neighbours=tuple(neighbours), on_edge=tuple(on_edge), lines=rows + cols)


GRIDS: Final[dict[int, Grid]] = {4: _grid(4), 5: _grid(5)}

BOX_SIDE: Final[dict[int, int]] = {1: 5, 2: 5, 3: 4, 4: 4}
"""Rule (seed 002): a 4x4 box; the two-player game (and solo) uses 5x5."""
