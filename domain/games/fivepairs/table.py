"""Who sits where: turn order, starter and dealer."""

from __future__ import annotations

from domain.kernel import Seat
from domain.table import next_seat

from .state import State


def active(state: State) -> list[Seat]:
    """The seats still playing, in turn order."""
    return [s for s in range(state.seats) if s not in state.conceded]


def left_of(state: State, seat: Seat) -> Seat:
    """The next player to the left still playing (the seat itself if it is the only one)."""
    return next_seat(seat, state.seats, lambda s: s not in state.conceded)


def next_starter(state: State) -> Seat:
    """ASSUMPTION: the starting player rotates left each round."""
    return left_of(state, state.starter)


def dealer(state: State) -> Seat:
    """The next round's dealer: the player to the right of its starting player."""
    seats = active(state)
    return seats[seats.index(next_starter(state)) - 1]
