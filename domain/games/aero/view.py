"""What a seat sees of an Aero table: everything, since every die is rolled in the open.

Every event is public and nothing is hidden, so the kernel's defaults stand for `redact`
and `hidden`.
"""

from __future__ import annotations

import msgspec

from domain.games.aero.rules import free_dice, totals
from domain.games.aero.state import Dealt, Phase, Table
from domain.kernel import BySeat, Seat


class AeroView(msgspec.Struct):
    phase: Phase
    player: Seat
    turn: int
    faces: dict[str, str]
    free: list[str]
    kept: list[str]
    dealt: BySeat[list[Dealt]]
    scores: tuple[int, ...]
    conceded: list[Seat]


def view(state: Table, seat: Seat | None) -> AeroView:
    return AeroView(
        phase=state.phase,
        player=state.player,
        turn=state.turn,
        faces=dict(state.faces),
        free=free_dice(state),
        kept=list(state.kept),
        dealt=state.dealt,
        scores=totals(state),
        conceded=state.conceded,
    )
