"""The Panda Panda table: public piles and scores, with the secrets grouped apart."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.kernel import Rejected, Seat, between
from domain.table import next_seat

Phase = Literal["dealing", "turn", "passing", "round_over", "over"]


MAX_ROUNDS_TO_WIN = 5


class Options(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    rounds_to_win: Annotated[int, between(1, MAX_ROUNDS_TO_WIN)] = 2
    """Round wins that take the game (the page: the first to win 2 rounds)."""


def check_options(options: Options, seats: int) -> None:
    if not 1 <= options.rounds_to_win <= MAX_ROUNDS_TO_WIN:
        raise Rejected("bad_options", f"Play to between 1 and {MAX_ROUNDS_TO_WIN} round wins.")


class Secrets(msgspec.Struct):
    """What not everyone may see: hands, the deck, the cards chosen for a pass."""

    hands: list[list[str]]
    deck: list[str]  # top card last
    chosen: list[str | None]  # the card each seat chose to pass, until the reveal


class State(msgspec.Struct):
    seats: int
    rounds_to_win: int
    phase: Phase
    round: int
    starter: Seat  # who began this round
    turn: Seat  # whose turn it is (during a pass: who discarded the A)
    wins: list[int]
    out: list[bool]  # conceded seats
    discards: list[list[str]]  # each seat's face-up pile, top card last
    passing: list[Seat]  # seats that still owe a card to their left
    known: list[list[str]]
    """Per reader (each seat, then the spectator): cards in other hands it can name
    (taken from a discard pile, passed by the reader, or shown to win a round)."""
    secret: Secrets


def initial(options: Options, seats: int) -> State:
    return State(
        seats=seats,
        rounds_to_win=options.rounds_to_win,
        phase="dealing",
        round=0,
        starter=0,
        turn=0,
        wins=[0] * seats,
        out=[False] * seats,
        discards=[[] for _ in range(seats)],
        passing=[],
        known=[[] for _ in range(seats + 1)],
        secret=Secrets(hands=[[] for _ in range(seats)], deck=[], chosen=[None] * seats),
    )


def reader_index(state: State, reader: Seat | None) -> int:
    """Where a reader's knowledge is kept in `known` (the spectator comes last)."""
    return state.seats if reader is None else reader


def in_play(state: State) -> list[Seat]:
    return [seat for seat in range(state.seats) if not state.out[seat]]


def left_of(state: State, seat: Seat) -> Seat:
    """The next seat still in, clockwise: the player on the left, who plays next."""
    return next_seat(seat, state.seats, lambda other: not state.out[other])
