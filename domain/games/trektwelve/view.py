"""What a trekker sees: every sheet is open on the table (nothing is hidden).

Every event is public, so the kernel's defaults stand for `redact` and `hidden`.
"""

from __future__ import annotations

import msgspec

from domain.games.trektwelve.board import trek_map
from domain.games.trektwelve.scoring import score
from domain.games.trektwelve.sheet import BOXES_PER_OPTION, OPTIONS
from domain.games.trektwelve.state import State
from domain.kernel import Seat


class SheetView(msgspec.Struct, frozen=True):
    numbers: list[int | None]
    frowns: list[bool]
    ropes: list[tuple[int, int]]
    boxes_left: dict[str, int]
    written_this_roll: bool
    left: bool
    score: int
    """The sheet's total if the trek ended now."""


class TableView(msgspec.Struct, frozen=True):
    map: str
    links: list[tuple[int, int]]
    thick: list[int]
    roll: int
    dice: tuple[int, int] | None
    sheets: list[SheetView]
    over: bool


def view(state: State, seat: Seat | None) -> TableView:
    trek = trek_map(state.options.map)
    sheets = []
    for s, sheet in enumerate(state.sheets):
        ropes = [(c, u) for c, u in enumerate(sheet.up) if u is not None]
        sheets.append(
            SheetView(
                numbers=list(sheet.numbers),
                frowns=list(sheet.frowns),
                ropes=ropes,
                boxes_left={o: BOXES_PER_OPTION - sheet.ticks.get(o, 0) for o in OPTIONS},
                written_this_roll=state.written[s],
                left=state.left[s],
                score=score(sheet, trek).total,
            )
        )
    return TableView(
        map=trek.name,
        links=list(trek.links),
        thick=list(trek.thick),
        roll=state.roll,
        dice=state.dice,
        sheets=sheets,
        over=state.over,
    )
