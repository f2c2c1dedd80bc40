"""The three locations' rules (seed 002, "Location Rules"): where a token may go, and what
rallies a character there."""

from __future__ import annotations

from domain.games.gatsby.board import (
    AHEAD_STEPS,
    BEHIND_STEPS,
    CABARET_COLS,
    CABARET_ROWS,
    FINANCE_HEIGHTS,
    FINANCE_TOP,
    RACE_LINES,
    SECTION_ROWS,
    SPACES,
    Space,
)
from domain.games.gatsby.state import State
from domain.games.gatsby.tiles import CABARET_TILES
from domain.kernel import Seat

Cell = int


def cell_of(row: int, col: int) -> Cell:
    return row * CABARET_COLS + col


def neighbours(cell: Cell) -> list[Cell]:
    row, col = divmod(cell, CABARET_COLS)
    around = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
    return [cell_of(r, c) for r, c in around if 0 <= r < CABARET_ROWS and 0 <= c < CABARET_COLS]


# --- Cabaret ---------------------------------------------------------------------------------


def cabaret_cells(state: State) -> list[Cell]:
    """Rule: tokens are always placed orthogonally adjacent to another token (any colour);
    the very first token goes anywhere."""
    taken = [cell for cell, seat in enumerate(state.cabaret) if seat is not None]
    empty = [cell for cell, seat in enumerate(state.cabaret) if seat is None]
    if not taken:
        return empty
    return [cell for cell in empty if any(state.cabaret[n] is not None for n in neighbours(cell))]


def section_cells(section: int) -> list[Cell]:
    rows = range(section * SECTION_ROWS, (section + 1) * SECTION_ROWS)
    return [cell_of(r, c) for r in rows for c in range(CABARET_COLS)]


def circle_cells(state: State, section: int) -> list[Cell]:
    """The 4 circle spaces the Cabaret tile on that section shows."""
    tile = state.cabaret_tiles[section]
    top = section * SECTION_ROWS
    return [cell_of(top + r, c) for r, c in CABARET_TILES[tile]]


def has_path(owned: set[Cell], section: int) -> bool:
    """A chain of `owned` cells, orthogonally joined inside the section, from its left edge
    to its right edge."""
    inside = set(section_cells(section))
    frontier = [c for c in inside & owned if c % CABARET_COLS == 0]
    seen = set(frontier)
    while frontier:
        here = frontier.pop()
        if here % CABARET_COLS == CABARET_COLS - 1:
            return True
        for n in neighbours(here):
            if n in inside and n in owned and n not in seen:
                seen.add(n)
                frontier.append(n)
    return False


def rallies_cabaret(state: State, seat: Seat, section: int) -> bool:
    """Rule: a continuous orthogonal path edge to edge, or all 4 matching circle spaces."""
    owned = {cell for cell, s in enumerate(state.cabaret) if s == seat}
    return has_path(owned, section) or set(circle_cells(state, section)) <= owned


def cabaret_still_open(state: State, section: int) -> bool:
    """Someone may still rally this section: a path or the circles over own or empty spaces."""
    for seat in range(len(state.players)):
        free = {cell for cell, s in enumerate(state.cabaret) if s in (seat, None)}
        if has_path(free, section) or set(circle_cells(state, section)) <= free:
            return True
    return False


# --- Finance Center --------------------------------------------------------------------------


def ascension_steps(state: State, seat: Seat) -> int:
    """Rule: behind your opponent, move 2 spaces; tied or ahead, 1."""
    mine = state.players[seat].height
    behind = any(p.height > mine for s, p in enumerate(state.players) if s != seat)
    return BEHIND_STEPS if behind else AHEAD_STEPS


def next_height(state: State, seat: Seat) -> int:
    return min(FINANCE_TOP, state.players[seat].height + ascension_steps(state, seat))


def finance_rallies(state: State, seat: Seat) -> list[Space]:
    """Rule: reaching or passing a character rallies it."""
    height = state.players[seat].height
    return [
        space
        for space, at in zip(SPACES["finance"], FINANCE_HEIGHTS, strict=True)
        if state.characters[space] is not None and at <= height
    ]


# --- Racetrack -------------------------------------------------------------------------------


def open_lines(state: State) -> list[int]:
    """Rule: tokens go left to right on the lines not yet closed."""
    return [
        line
        for line, length in enumerate(RACE_LINES)
        if not state.race_closed[line] and len(state.race[line]) < length
    ]


def majority(tokens: list[Seat], seats: int) -> Seat:
    counts = [tokens.count(s) for s in range(seats)]
    return max(range(seats), key=lambda s: (counts[s], -s))
