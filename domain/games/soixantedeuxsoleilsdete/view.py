"""What a seat sees at the 62 Soleils d'été table: everything (the sheets are open)."""

from __future__ import annotations

import msgspec

from domain.games.soixantedeuxsoleilsdete.rules import stage
from domain.games.soixantedeuxsoleilsdete.sheet import SLOTS, SUN_BONUSES, SUNS, ZoneName
from domain.games.soixantedeuxsoleilsdete.state import SoleilsOptions, Stage, Table
from domain.kernel import Seat

Cell = str | int | None


class SheetView(msgspec.Struct):
    grid: list[list[Cell]]
    """The sheet, row by row (as `layout` names the slots): the value written, or for an
    empty slot its pearl, "(3)", with "c" for a crab and "h" for a sun hat."""
    suns: list[int]
    sun_total: int
    starfish: int
    shellfish: int
    zones_completed: list[ZoneName]
    stage: Stage
    left: bool


class SoleilsView(msgspec.Struct):
    options: SoleilsOptions
    round: int
    rounds: int
    dice: list[int]
    layout: list[list[str | None]]
    """The slots' names on the sheet's grid, the same for every player."""
    sun_bonuses: dict[int, str]
    players: list[SheetView]
    scores: list[int]


ROWS = 1 + max(s.row for s in SLOTS)
COLUMNS = 1 + max(s.column for s in SLOTS)
EMPTY = {s.name: f"({s.pearl})" + ("c" if s.crab else "") + ("h" if s.hat else "") for s in SLOTS}
"""How an empty slot reads: its pearl in brackets, "c" for a crab, "h" for a sun hat."""
LAYOUT: list[list[str | None]] = [[None] * COLUMNS for _ in range(ROWS)]
for _s in SLOTS:
    LAYOUT[_s.row][_s.column] = _s.name


def grid(values: dict[str, int]) -> list[list[Cell]]:
    out: list[list[Cell]] = [[None] * COLUMNS for _ in range(ROWS)]
    for s in SLOTS:
        out[s.row][s.column] = values.get(s.name, EMPTY[s.name])
    return out


def view(state: Table, seat: Seat | None) -> SoleilsView:
    return SoleilsView(
        options=state.options,
        round=state.round,
        rounds=SUNS,
        dice=list(state.dice),
        layout=LAYOUT,
        sun_bonuses={t: f"{n} {kind}" for t, (kind, n) in SUN_BONUSES.items()},
        players=[
            SheetView(
                grid=grid(sheet.values),
                suns=list(sheet.suns),
                sun_total=sheet.total,
                starfish=sheet.starfish,
                shellfish=sheet.shellfish,
                zones_completed=list(sheet.completed),
                stage=stage(state, s),
                left=sheet.left,
            )
            for s, sheet in enumerate(state.sheets)
        ],
        scores=list(state.scores) if state.over else [sh.starfish for sh in state.sheets],
    )
