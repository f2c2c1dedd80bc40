"""What a seat sees of a First Giants table: everything but the deck (only its size).
Every event is public (the kernel's default `redact`)."""

from __future__ import annotations

import msgspec

from domain.games.firstgiants.cards import CardId
from domain.games.firstgiants.state import (
    FirstGiantsOptions,
    Museum,
    Phase,
    ScoreSheet,
    Table,
)
from domain.kernel import BySeat, ComponentId, Seat


class FirstGiantsView(msgspec.Struct):
    options: FirstGiantsOptions
    phase: Phase
    player: Seat
    round: int
    order: list[Seat]
    main_left: int
    doubled: bool
    initiative: Seat | None
    deck: int
    sites: dict[str, list[CardId]]
    bag: dict[str, int]
    set_tokens: int
    milestones: list[int]
    end_triggered: bool
    museums: BySeat[Museum]
    conceded: list[Seat]
    sheets: list[ScoreSheet]


def view(state: Table, seat: Seat | None) -> FirstGiantsView:
    return FirstGiantsView(
        options=state.options,
        phase=state.phase,
        player=state.player,
        round=state.round,
        order=state.order,
        main_left=state.main_left,
        doubled=state.doubled,
        initiative=state.initiative,
        deck=len(state.deck),
        sites=state.sites,
        bag=state.bag,
        set_tokens=state.set_tokens,
        milestones=state.milestones,
        end_triggered=state.end_triggered,
        museums=state.museums,
        conceded=state.conceded,
        sheets=state.sheets,
    )


def hidden(state: Table, seat: Seat | None) -> frozenset[ComponentId]:
    """The deck's cards: drawn at random, unseen by all."""
    return frozenset(state.deck)
