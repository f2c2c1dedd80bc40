"""What each seat sees: its own hand, the top of the discard pile, counts of the rest.

Hidden: the other hands (except cards they took from the discard pile, which everyone
saw) and the draw pile. When a round is scored the hands still in play are laid open.
"""

from __future__ import annotations

import msgspec

from domain.kernel import ComponentId, Seat

from .cards import RANK_PLURALS, CardId, wild_rank_of
from .events import (
    CardDrawn,
    Event,
    RoundDealt,
    ScoredHand,
    StockReshuffled,
)
from .state import Phase, State
from .table import dealer


class PlayerView(msgspec.Struct, frozen=True):
    seat: Seat
    hand_size: int
    known: tuple[CardId, ...]
    """Cards in that hand that were taken from the discard pile."""
    total: int
    conceded: bool


class TableView(msgspec.Struct, frozen=True):
    round: int
    wild: str
    """The round's wild rank, e.g. "3s"; jokers are always wild too."""
    phase: Phase
    turn: Seat | None
    dealer: Seat | None
    hand: tuple[CardId, ...] | None
    """The reader's own hand (None for a spectator)."""
    players: tuple[PlayerView, ...]
    discard_top: CardId | None
    discard_size: int
    stock_size: int
    went_out: Seat | None
    laid_down: tuple[tuple[CardId, ...], ...]
    result: tuple[ScoredHand, ...]
    """The last scored round, hands laid open."""
    round_points: tuple[tuple[int | None, ...], ...]


def view(state: State, seat: Seat | None) -> TableView:
    playing = state.phase in ("draw", "discard")
    return TableView(
        round=state.round,
        wild=RANK_PLURALS[wild_rank_of(state.round) - 1] if state.round else "",
        phase=state.phase,
        turn=state.turn if playing else None,
        dealer=dealer(state) if state.phase == "round_over" else None,
        hand=tuple(state.hands[seat]) if seat is not None else None,
        players=tuple(
            PlayerView(
                seat=s,
                hand_size=len(state.hands[s]),
                known=tuple(state.known[s]),
                total=state.totals[s],
                conceded=s in state.conceded,
            )
            for s in range(state.seats)
        ),
        discard_top=state.discard[-1] if state.discard else None,
        discard_size=len(state.discard),
        stock_size=len(state.stock),
        went_out=state.went_out,
        laid_down=tuple(tuple(m) for m in state.laid_down),
        result=tuple(state.result),
        round_points=tuple(tuple(p) for p in state.round_points),
    )


def redact(event: Event, seat: Seat | None) -> Event:
    match event:
        case RoundDealt(hands=hands):
            own = tuple(h if s == seat else None for s, h in enumerate(hands))
            return msgspec.structs.replace(event, hands=own, stock=None)
        case CardDrawn(seat=drawer) if drawer != seat:
            return msgspec.structs.replace(event, card=None)
        case StockReshuffled():
            return msgspec.structs.replace(event, cards=None)
        case _:
            return event


def hidden(state: State, seat: Seat | None) -> frozenset[ComponentId]:
    secret = set(state.stock)
    laid_open = state.phase in ("round_over", "game_over")
    for other, hand in enumerate(state.hands):
        if other == seat or (laid_open and other not in state.conceded):
            continue
        secret.update(c for c in hand if c not in state.known[other])
    return frozenset(secret)
