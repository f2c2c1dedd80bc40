"""What each reader may see of a Panda Panda table, and of each event."""

from __future__ import annotations

import msgspec

from domain.games.pandapanda.events import (
    CardsPassed,
    DeckReshuffled,
    DrewFromDeck,
    Event,
    PassChosen,
    RoundDealt,
    SeatLeft,
)
from domain.games.pandapanda.rules import to_act
from domain.games.pandapanda.state import Phase, State, reader_index
from domain.kernel import ComponentId, Seat


class SeatView(msgspec.Struct, frozen=True):
    hand_size: int
    known: list[str]  # the cards of this hand the reader can name (all, for the reader's own)
    top: str | None  # the face-up card on top of this seat's discard pile
    pile_size: int
    wins: int
    out: bool
    owes_a_card: bool


class TableView(msgspec.Struct, frozen=True):
    reader: Seat | None
    phase: Phase
    round: int
    starter: Seat
    turn: Seat
    to_act: list[Seat]
    rounds_to_win: int
    deck_size: int
    hand: list[str]
    passing: str | None  # the card the reader chose to pass, until the reveal
    seats: list[SeatView]


def view(state: State, reader: Seat | None) -> TableView:
    known = set(state.known[reader_index(state, reader)])
    hands = state.secret.hands
    seats = [
        SeatView(
            hand_size=len(hands[seat]),
            known=sorted(hands[seat]) if seat == reader else sorted(set(hands[seat]) & known),
            top=state.discards[seat][-1] if state.discards[seat] else None,
            pile_size=len(state.discards[seat]),
            wins=state.wins[seat],
            out=state.out[seat],
            owes_a_card=seat in state.passing,
        )
        for seat in range(state.seats)
    ]
    return TableView(
        reader=reader,
        phase=state.phase,
        round=state.round,
        starter=state.starter,
        turn=state.turn,
        to_act=sorted(to_act(state)),
        rounds_to_win=state.rounds_to_win,
        deck_size=len(state.secret.deck),
        hand=sorted(hands[reader]) if reader is not None else [],
        passing=state.secret.chosen[reader] if reader is not None else None,
        seats=seats,
    )


def hidden(state: State, reader: Seat | None) -> frozenset[ComponentId]:
    """The deck, and every card in another hand the reader has not seen go there."""
    known = set(state.known[reader_index(state, reader)])
    secret = set(state.secret.deck)
    for seat, hand in enumerate(state.secret.hands):
        if seat != reader:
            secret.update(card for card in hand if card not in known)
    return frozenset(secret)


def redact(event: Event, reader: Seat | None) -> Event:
    match event:
        case RoundDealt(hands=hands):
            mine = tuple(hand if seat == reader else None for seat, hand in enumerate(hands))
            return msgspec.structs.replace(event, hands=mine, deck=None)
        case DrewFromDeck(seat=seat) | PassChosen(seat=seat) if seat != reader:
            return msgspec.structs.replace(event, card=None)
        case CardsPassed(cards=cards, receivers=receivers):
            seen = tuple(
                card if reader is not None and reader in (giver, receivers[giver]) else None
                for giver, card in enumerate(cards)
            )
            return msgspec.structs.replace(event, cards=seen)
        case DeckReshuffled():
            return msgspec.structs.replace(event, deck=None)
        case SeatLeft():
            return msgspec.structs.replace(event, returned=None)
        case _:
            return event
