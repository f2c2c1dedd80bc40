"""What each seat may see: its own hand, the cards it has been shown, the open table."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.loveletter.cards import CardId
from domain.games.loveletter.events import (
    CardDealt,
    CardDrawn,
    CardSetAside,
    Event,
    HandsCompared,
    HandSeen,
    HandsSwapped,
    RoundStarted,
)
from domain.games.loveletter.state import JesterBet, Phase, State
from domain.kernel import ComponentId, Seat


class PlayerView(msgspec.Struct, frozen=True):
    seat: Seat
    tokens: int
    in_round: bool
    protected: bool
    left_table: bool
    discards: list[CardId]
    hand_size: int
    hand: list[CardId | None]  # None for a card this reader cannot identify


class TableView(msgspec.Struct, frozen=True):
    you: Seat | None
    deck_kind: Literal["classic", "premium"]
    tokens_to_win: int
    round: int
    phase: Phase
    turn: Seat | None
    deck_size: int
    card_set_aside: bool
    face_up: list[CardId]
    players: list[PlayerView]
    sycophant_choice: Seat | None
    jester: JesterBet | None
    bishop_answer_from: Seat | None
    next_round_starter: Seat | None
    winners: list[Seat]


def _sees(state: State, reader: Seat | None, holder: Seat, card: CardId) -> bool:
    if state.showdown or reader == holder:
        return True
    return reader is not None and card in state.known[reader]


def view(state: State, seat: Seat | None) -> TableView:
    players = [
        PlayerView(
            seat=p,
            tokens=state.tokens[p],
            in_round=not state.out[p],
            protected=state.protected[p],
            left_table=state.gone[p],
            discards=list(state.discards[p]),
            hand_size=len(state.hands[p]),
            hand=[c if _sees(state, seat, p, c) else None for c in state.hands[p]],
        )
        for p in range(state.seats)
    ]
    return TableView(
        you=seat,
        deck_kind="premium" if state.premium else "classic",
        tokens_to_win=state.tokens_to_win,
        round=state.round,
        phase=state.phase,
        turn=state.turn,
        deck_size=len(state.deck),
        card_set_aside=state.set_aside is not None,
        face_up=list(state.face_up),
        players=players,
        sycophant_choice=state.marked,
        jester=state.jester,
        bishop_answer_from=state.chooser,
        next_round_starter=state.starter,
        winners=list(state.winners),
    )


def redact(event: Event, seat: Seat | None) -> Event:
    """Hide the shuffled order, the set-aside card, others' draws and private looks."""
    match event:
        case RoundStarted():
            return msgspec.structs.replace(event, deck=None)
        case CardSetAside():
            return msgspec.structs.replace(event, card=None)
        case CardDealt(seat=holder) | CardDrawn(seat=holder) if seat != holder:
            return msgspec.structs.replace(event, card=None)
        case HandSeen(viewer=viewer, seat=holder) if seat not in (viewer, holder):
            return msgspec.structs.replace(event, card=None)
        case HandsCompared(seat=a, other=b) | HandsSwapped(seat=a, other=b) if seat not in (a, b):
            return msgspec.structs.replace(event, card=None, other_card=None)
        case _:
            return event


def hidden(state: State, seat: Seat | None) -> frozenset[ComponentId]:
    """The deck, the set-aside card and other players' hands, but for the cards this
    seat has been shown (Priest, Baron, King ...) and every hand at a showdown."""
    secret = set(state.deck)
    if state.set_aside is not None:
        secret.add(state.set_aside)
    if not state.showdown:
        for p in range(state.seats):
            if p != seat:
                secret.update(state.hands[p])
    if seat is not None:
        secret.difference_update(state.known[seat])
        secret.difference_update(state.hands[seat])
    return frozenset(secret)
