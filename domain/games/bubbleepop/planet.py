"""Reading the table: where a Bubblee is, uncovered Bubblees, room in a column, neighbours."""

from __future__ import annotations

from domain.games.bubbleepop.board import COLUMNS, PLANET_ROWS
from domain.games.bubbleepop.state import State

Columns = list[list[str]]
Cell = tuple[int, int]
"""(column, row) on a planet; row 0 is the bottom row, farthest from the sky."""


def at(columns: Columns, cell: Cell) -> str | None:
    column, row = cell
    stack = columns[column]
    return stack[row] if row < len(stack) else None


def has_room(columns: Columns, column: int) -> bool:
    return len(columns[column]) < PLANET_ROWS


def uncovered(columns: Columns) -> list[str]:
    """The top Bubblee of each column: nothing lies between it and the sky."""
    return [stack[-1] for stack in columns if stack]


def cell_of(columns: Columns, bubblee: str) -> Cell | None:
    for column, stack in enumerate(columns):
        if bubblee in stack:
            return column, stack.index(bubblee)
    return None


def orthogonal(cell: Cell) -> list[Cell]:
    column, row = cell
    around = [(column - 1, row), (column + 1, row), (column, row - 1), (column, row + 1)]
    return [(c, r) for c, r in around if 0 <= c < COLUMNS and 0 <= r < PLANET_ROWS]


def adjacent_pairs(columns: Columns) -> list[tuple[str, str]]:
    """Every two Bubblees side by side or one on the other, as sorted id pairs."""
    pairs: list[tuple[str, str]] = []
    for column, stack in enumerate(columns):
        for row, here in enumerate(stack):
            for there_cell in ((column + 1, row), (column, row + 1)):
                if there_cell[0] >= COLUMNS:
                    continue
                there = at(columns, there_cell)
                if there is not None:
                    a, b = sorted((here, there))
                    pairs.append((a, b))
    return sorted(pairs)


def sky_slot_of(state: State, bubblee: str) -> int | None:
    return state.sky.index(bubblee) if bubblee in state.sky else None


def opponent(seat: int) -> int:
    return 1 - seat
