"""Matches: three or more of a colour in a row or column leave the planet with the
same-coloured Bubblees touching them; what lies above slides down; chains follow."""

from __future__ import annotations

from domain.games.bubbleepop.board import COLUMNS, PLANET_ROWS, sky_column
from domain.games.bubbleepop.bubblees import LINE, UNMATCHABLE, Colour, colour_of
from domain.games.bubbleepop.events import BubbleeLanded, Event, LinesScored
from domain.games.bubbleepop.planet import Cell, Columns, at, has_room, opponent, orthogonal
from domain.games.bubbleepop.state import State
from domain.kernel import Recorder


def lines(columns: Columns) -> list[tuple[Cell, ...]]:
    """Every maximal run of three or more same-coloured (not black) Bubblees, row or column."""
    found: list[tuple[Cell, ...]] = []
    for row in range(PLANET_ROWS):
        found += _runs([(column, row) for column in range(COLUMNS)], columns)
    for column in range(COLUMNS):
        found += _runs([(column, row) for row in range(PLANET_ROWS)], columns)
    return found


def _runs(cells: list[Cell], columns: Columns) -> list[tuple[Cell, ...]]:
    out: list[tuple[Cell, ...]] = []
    run: list[Cell] = []
    run_colour: Colour | None = None
    for cell in [*cells, None]:
        here = at(columns, cell) if cell is not None else None
        colour = colour_of(here) if here is not None else None
        if colour is not None and colour == run_colour and cell is not None:
            run.append(cell)
            continue
        if run_colour is not None and run_colour not in UNMATCHABLE and len(run) >= LINE:
            out.append(tuple(run))
        run, run_colour = ([cell], colour) if cell is not None else ([], None)
    return out


def removed_with(line: tuple[Cell, ...], columns: Columns) -> set[Cell]:
    """Rule: the line, plus the same-coloured Bubblees directly touching it."""
    first = at(columns, line[0])
    assert first is not None
    colour = colour_of(first)
    out = set(line)
    for cell in line:
        for near in orthogonal(cell):
            there = at(columns, near)
            if there is not None and colour_of(there) == colour:
                out.add(near)
    return out


def score_lines(state: State, planet: int) -> LinesScored | None:
    """The lines now on `planet`, scored all at once for its owner. Only the player
    whose turn it is gains powers, and only from lines on their own planet."""
    columns = state.planets[planet]
    found = lines(columns)
    if not found:
        return None
    cells: set[Cell] = set()
    for line in found:
        cells |= removed_with(line, columns)
    ids = [at(columns, line[0]) for line in found]
    powers = tuple(colour_of(i) for i in ids if i is not None) if planet == state.player else ()
    return LinesScored(
        planet=planet,
        lines=tuple(tuple(str(at(columns, c)) for c in line) for line in found),
        bubblees=tuple(sorted(str(at(columns, c)) for c in cells)),
        powers=powers,
    )


def settle(turn: Recorder[State, Event]) -> None:
    """Resolve until the table is still: stuck Bubblees land where a column has room
    again, then lines on both planets are scored; repeat (chains)."""
    while True:
        before = len(turn.events)
        for bubblee in list(turn.state.stuck):
            state = turn.state
            column = sky_column(state.sky.index(bubblee))
            if has_room(state.planets[state.player], column):
                turn.record(BubbleeLanded(planet=state.player, column=column, bubblee=bubblee))
        for planet in (turn.state.player, opponent(turn.state.player)):
            scored = score_lines(turn.state, planet)
            if scored is not None:
                turn.record(scored)
        if len(turn.events) == before:
            return
