"""What a seat sees of a Kokeshi table: everything but what the bags hold.

Every event is public (the kernel's default `redact`): a tile is named only once drawn.
"""

from __future__ import annotations

import msgspec

from domain.games.kokeshi.state import (
    KokeshiOptions,
    Phase,
    ScoreSheet,
    Table,
    Task,
    ToPlace,
    Workshop,
)
from domain.kernel import BySeat, ComponentId, Seat


class KokeshiView(msgspec.Struct):
    options: KokeshiOptions
    phase: Phase
    player: Seat
    round: int
    workshops: BySeat[Workshop]
    bag: int
    """How many normal tiles are left to draw (which ones is secret)."""
    quality_bag: int
    awaiting: Task | None
    """The choice the cascade waits for, if any."""
    to_place: list[ToPlace]
    triggered: list[str]
    conceded: list[Seat]
    sheets: list[ScoreSheet]


def view(state: Table, seat: Seat | None) -> KokeshiView:
    return KokeshiView(
        options=state.options,
        phase=state.phase,
        player=state.player,
        round=state.round,
        workshops=state.workshops,
        bag=len(state.bag),
        quality_bag=len(state.quality_bag),
        awaiting=state.agenda[-1] if state.agenda else None,
        to_place=state.to_place,
        triggered=state.triggered,
        conceded=state.conceded,
        sheets=state.sheets,
    )


def hidden(state: Table, seat: Seat | None) -> frozenset[ComponentId]:
    """The tiles still in the bags: nobody knows which will come out."""
    return frozenset(state.bag) | frozenset(state.quality_bag)
