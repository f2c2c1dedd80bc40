"""What each reader may see of an Easy Peasy table, and of each event."""

from __future__ import annotations

import msgspec

from domain.games.easypeasy.cards import Arrow
from domain.games.easypeasy.events import CardsDrawn, DeckReshuffled, Event, RoundDealt, StackDealt
from domain.games.easypeasy.rules import to_act
from domain.games.easypeasy.state import Phase, State
from domain.kernel import ComponentId, Seat


class StackView(msgspec.Struct, frozen=True):
    cover: str | None
    under: str | None  # shown once revealed
    face_down: bool  # a face-down card nobody has seen lies here


class SeatView(msgspec.Struct, frozen=True):
    hand_size: int
    hand: list[str]  # the reader's own, or everyone's once the round is scored
    row: list[StackView]
    points: int  # scored in the last round
    total: int
    out: bool


class TableView(msgspec.Struct, frozen=True):
    reader: Seat | None
    phase: Phase
    round: int
    rounds: int
    starter: Seat
    turn: Seat
    to_act: list[Seat]
    arrow: Arrow
    left: list[str]  # the left discard pile, top card last
    right: list[str]
    bonus_pile: str | None
    deck_size: int
    seats: list[SeatView]


def hands_shown(state: State) -> bool:
    """Once a round is scored every hand and row lies open on the table."""
    return state.phase in ("round_over", "over")


def view(state: State, reader: Seat | None) -> TableView:
    shown = hands_shown(state)
    seats = [
        SeatView(
            hand_size=len(hand),
            hand=sorted(hand) if shown or seat == reader else [],
            row=[
                StackView(
                    cover=s.cover,
                    under=s.under if s.revealed else None,
                    face_down=s.under is not None and not s.revealed,
                )
                for s in state.rows[seat]
            ],
            points=state.points[seat],
            total=state.totals[seat],
            out=state.out[seat],
        )
        for seat, hand in enumerate(state.secret.hands)
    ]
    return TableView(
        reader=reader,
        phase=state.phase,
        round=state.round,
        rounds=state.rounds,
        starter=state.starter,
        turn=state.turn,
        to_act=sorted(to_act(state)),
        arrow=state.arrow,
        left=list(state.piles[0]),
        right=list(state.piles[1]),
        bonus_pile=state.bonus_pile,
        deck_size=len(state.secret.deck),
        seats=seats,
    )


def hidden(state: State, reader: Seat | None) -> frozenset[ComponentId]:
    """The deck, set-aside cards, other hands, and face-down row cards (hidden from all)."""
    secret = set(state.secret.deck) | set(state.secret.set_aside)
    for row in state.rows:
        secret.update(s.under for s in row if s.under is not None and not s.revealed)
    if not hands_shown(state):
        for seat, hand in enumerate(state.secret.hands):
            if seat != reader:
                secret.update(hand)
    return frozenset(secret)


def redact(event: Event, reader: Seat | None) -> Event:
    match event:
        case RoundDealt(hands=hands, rows=rows):
            return msgspec.structs.replace(
                event,
                hands=tuple(hand if seat == reader else None for seat, hand in enumerate(hands)),
                rows=tuple(
                    tuple(StackDealt(cover=s.cover, under=None) for s in row) for row in rows
                ),
                deck=None,
            )
        case CardsDrawn(seat=seat) if seat != reader:
            return msgspec.structs.replace(event, cards=None)
        case DeckReshuffled():
            return msgspec.structs.replace(event, deck=None)
        case _:
            return event
