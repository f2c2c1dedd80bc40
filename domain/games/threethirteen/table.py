"""Who sits where: turn order, the final lap after someone goes out, dealer and starter."""

from __future__ import annotations

from domain.kernel import Seat
from domain.table import clockwise, next_seat

from .state import State


def active(state: State) -> list[Seat]:
    """The seats still playing, in turn order."""
    return [s for s in range(state.seats) if s not in state.conceded]


def next_turn(state: State, after: Seat) -> Seat | None:
    """The next player to the left still playing, or None when the round is over.

    Rule (seed 002, Going Out): once a player goes out, every other player gets one
    final turn; so the round ends when the turn would come back to whoever went out.
    """
    for seat in clockwise(after, state.seats):
        if seat == state.went_out:
            return None
        if seat not in state.conceded:
            return seat
    return None


def next_starter(state: State) -> Seat:
    """Rule (seed 002, Setup): the starting player rotates left each round."""
    return next_seat(state.starter, state.seats, lambda seat: seat not in state.conceded)


def dealer(state: State) -> Seat:
    """The next round's dealer: the player to the right of its starting player."""
    seats = active(state)
    starter = next_starter(state)
    return seats[seats.index(starter) - 1]
