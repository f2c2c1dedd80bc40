"""What a seat sees of a Jewel Box table: all but the face-down beetles.

Every event is public (the kernel's default `redact`): events name only face-up beetles,
a face-down one being revealed as it is taken.
"""

from __future__ import annotations

import msgspec

from domain.games.jewelbox.beetles import BeetleId, Tool
from domain.games.jewelbox.events import ScoreSheet
from domain.games.jewelbox.state import JewelBoxOptions, Phase, Table
from domain.kernel import BySeat, ComponentId, Seat


class JewelBoxView(msgspec.Struct):
    options: JewelBoxOptions
    side: int
    phase: Phase
    player: Seat
    log: list[BeetleId | None]
    face_down: int
    """How many face-down beetles are left (which ones is secret)."""
    boxes: BySeat[list[list[BeetleId | None]]]
    """Each box as rows of `side` spaces, the top row first: what PlaceBeetle's row and
    col name (the state keeps a box flat, cell `row * side + col`)."""
    tools: BySeat[list[Tool]]
    tool_used: bool
    rolled: int | None
    holding: BeetleId | None
    conceded: list[Seat]
    sheets: list[ScoreSheet]


def view(state: Table, seat: Seat | None) -> JewelBoxView:
    return JewelBoxView(
        options=state.options,
        side=state.side,
        phase=state.phase,
        player=state.player,
        log=state.log,
        face_down=len(state.supply),
        boxes=[rows(box, state.side) for box in state.boxes],
        tools=state.tools,
        tool_used=state.tool_used,
        rolled=state.rolled,
        holding=state.holding,
        conceded=state.conceded,
        sheets=state.sheets,
    )


def rows(box: list[BeetleId | None], side: int) -> list[list[BeetleId | None]]:
    return [box[row * side : (row + 1) * side] for row in range(side)]


def hidden(state: Table, seat: Seat | None) -> frozenset[ComponentId]:
    """The face-down beetles: nobody knows which they are."""
    return frozenset(state.supply)
