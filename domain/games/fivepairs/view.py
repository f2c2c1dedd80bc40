"""What each seat sees: its own hand, the common area, every pair made, counts of the rest.

Hidden: the other hands and the deck.
"""

from __future__ import annotations

import msgspec

from domain.kernel import ComponentId, Seat

from .cards import TOKEN_HIGH, TOKEN_LOW, CardId
from .events import CardsDrawn, Event, RoundDealt
from .state import Phase, State
from .table import dealer


class PlayerView(msgspec.Struct, frozen=True):
    seat: Seat
    hand_size: int
    pairs: tuple[tuple[CardId, CardId], ...]
    round_points: int
    total: int
    conceded: bool


class TableView(msgspec.Struct, frozen=True):
    round: int
    phase: Phase
    turn: Seat | None
    dealer: Seat | None
    hand: tuple[CardId, ...] | None
    """The reader's own hand (None for a spectator)."""
    drawn: tuple[CardId, ...]
    """The two cards the reader just drew, while they choose a discard."""
    common: tuple[CardId, ...]
    deck_size: int
    players: tuple[PlayerView, ...]
    token_holder: Seat | None
    token_value: int
    history: tuple[tuple[int, ...], ...]


def view(state: State, seat: Seat | None) -> TableView:
    playing = state.phase in ("play", "discard")
    token = 0
    if state.token_holder is not None:
        token = TOKEN_HIGH if state.token_flipped else TOKEN_LOW
    return TableView(
        round=state.round,
        phase=state.phase,
        turn=state.turn if playing else None,
        dealer=dealer(state) if state.phase == "round_over" else None,
        hand=tuple(state.hands[seat]) if seat is not None else None,
        drawn=tuple(state.drawn) if seat == state.turn else (),
        common=tuple(state.common),
        deck_size=len(state.deck),
        players=tuple(
            PlayerView(
                seat=s,
                hand_size=len(state.hands[s]),
                pairs=tuple(state.pairs[s]),
                round_points=state.round_points[s],
                total=state.totals[s],
                conceded=s in state.conceded,
            )
            for s in range(state.seats)
        ),
        token_holder=state.token_holder,
        token_value=token,
        history=tuple(tuple(row) for row in state.history),
    )


def redact(event: Event, seat: Seat | None) -> Event:
    match event:
        case RoundDealt(hands=hands):
            own = tuple(h if s == seat else None for s, h in enumerate(hands))
            return msgspec.structs.replace(event, hands=own, deck=None)
        case CardsDrawn(seat=drawer) if drawer != seat:
            return msgspec.structs.replace(event, cards=None)
        case _:
            return event


def hidden(state: State, seat: Seat | None) -> frozenset[ComponentId]:
    secret = set(state.deck)
    for other, hand in enumerate(state.hands):
        if other != seat:
            secret.update(hand)
    return frozenset(secret)
