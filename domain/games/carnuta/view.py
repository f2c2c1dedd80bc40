"""What a seat sees of a Carnuta table: everything but the order and contents of the two
decks (only their sizes). Every event is public (the kernel's default `redact`)."""

from __future__ import annotations

import msgspec

from domain.games.carnuta.cards import CardId
from domain.games.carnuta.state import CarnutaOptions, Phase, Player, ScoreSheet, Table
from domain.kernel import ComponentId, Seat


class CarnutaView(msgspec.Struct):
    options: CarnutaOptions
    phase: Phase
    player: Seat
    round: int
    actions_left: int
    final_round: int | None
    decks: dict[str, int]
    rows: dict[str, list[CardId]]
    reserve: dict[str, int]
    tokens: list[str]
    players: list[Player]
    conceded: list[Seat]
    sheets: list[ScoreSheet]


def view(state: Table, seat: Seat | None) -> CarnutaView:
    return CarnutaView(
        options=state.options,
        phase=state.phase,
        player=state.player,
        round=state.round,
        actions_left=state.actions_left,
        final_round=state.final_round,
        decks={deck: len(cards) for deck, cards in state.decks.items()},
        rows=state.rows,
        reserve=state.reserve,
        tokens=state.tokens,
        players=state.players,
        conceded=state.conceded,
        sheets=state.sheets,
    )


def hidden(state: Table, seat: Seat | None) -> frozenset[ComponentId]:
    """The cards still in the decks: dealt at random, unseen by all."""
    return frozenset(c for cards in state.decks.values() for c in cards)
