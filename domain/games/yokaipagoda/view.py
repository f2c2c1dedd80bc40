"""What a seat sees at the Yokai Pagoda table, and what it may not identify."""

from __future__ import annotations

import msgspec

from domain.games.yokaipagoda.cards import CardId, Pile
from domain.games.yokaipagoda.events import CardGiven, CardTaken, Event, HandDealt
from domain.games.yokaipagoda.rules import offering_value, rounds, scores
from domain.games.yokaipagoda.state import Phase, Table, YokaiPagodaOptions
from domain.kernel import ComponentId, Seat


class PlayerView(msgspec.Struct):
    """One player as the reader sees them: full cards only where the reader may look."""

    hand_count: int
    hand: list[CardId] | None
    """The whole hand, for its owner (and everyone once the game is over)."""
    hand_known: list[CardId]
    """Cards of this hand the reader can identify (taken from a pile, or given by them)."""
    failed_count: int
    failed: list[CardId] | None
    failed_known: list[CardId]
    hand_value: int | None
    """The hand's worth (lowest card of each Yokai), for its owner."""


class YokaiPagodaView(msgspec.Struct):
    options: YokaiPagodaOptions
    phase: Phase
    round: int
    rounds: int
    player: Seat
    played_on: Pile | None
    piles: dict[str, list[CardId]]
    deck_count: int
    players: list[PlayerView]
    conceded: list[Seat]
    scores: tuple[int, ...] | None


def _can_see(state: Table, reader: Seat | None, owner: Seat) -> bool:
    return state.phase == "over" or reader == owner


def _identified(state: Table, reader: Seat | None) -> set[CardId]:
    known = set(state.public)
    if reader is not None:
        known |= set(state.known[reader])
    return known


def view(state: Table, seat: Seat | None) -> YokaiPagodaView:
    known = _identified(state, seat)
    players = []
    for owner in range(state.seats):
        hand, failed = state.hands[owner], state.failed[owner]
        open_ = _can_see(state, seat, owner)
        players.append(
            PlayerView(
                hand_count=len(hand),
                hand=list(hand) if open_ else None,
                hand_known=[c for c in hand if c in known] if not open_ else [],
                failed_count=len(failed),
                failed=list(failed) if open_ else None,
                failed_known=[c for c in failed if c in known] if not open_ else [],
                hand_value=offering_value(hand) if seat == owner else None,
            )
        )
    return YokaiPagodaView(
        options=state.options,
        phase=state.phase,
        round=state.round,
        rounds=rounds(state),
        player=state.player,
        played_on=state.played_on,
        piles=state.piles,
        deck_count=len(state.deck),
        players=players,
        conceded=state.conceded,
        scores=scores(state) if state.phase == "over" else None,
    )


def redact(event: Event, seat: Seat | None) -> Event:
    match event:
        case HandDealt(seat=owner) if seat != owner:
            return msgspec.structs.replace(event, cards=None)
        case CardGiven(giver=giver, receiver=receiver) if seat not in (giver, receiver):
            return msgspec.structs.replace(event, card=None)
        case CardTaken(seat=taker, source="deck") if seat != taker:
            return msgspec.structs.replace(event, card=None)
        case _:
            return event


def hidden(state: Table, seat: Seat | None) -> frozenset[ComponentId]:
    """The deck, and others' hands and failed offerings, but for the cards identified."""
    if state.phase == "over":
        return frozenset()
    secret = set(state.deck)
    for owner in range(state.seats):
        if owner != seat:
            secret.update(state.hands[owner], state.failed[owner])
    return frozenset(secret - _identified(state, seat))
