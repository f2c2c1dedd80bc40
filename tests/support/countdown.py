"""Countdown: a tiny test game for the services and the kit, not a real game.

A counter starts at `start`; in turn each player takes 1, 2 or 3; who takes the last
wins. A private die roll at setup ("secret") is hidden from every seat but the first,
so the leak checks have something to find.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from domain.kernel import GameSpec, Outcome, Rejected, Rng, Seat, register


class Options(msgspec.Struct, frozen=True):
    start: int = 10


class Take(
    msgspec.Struct, tag="countdown.take", tag_field="type", frozen=True, forbid_unknown_fields=True
):
    count: int


class Dealt(msgspec.Struct, tag="countdown.dealt", tag_field="type", frozen=True):
    first: Seat
    secret: str | None


class Taken(msgspec.Struct, tag="countdown.taken", tag_field="type", frozen=True):
    seat: Seat
    count: int


class State(msgspec.Struct):
    seats: int
    left: int
    turn: Seat = 0
    secret: str | None = None
    winner: Seat | None = None
    conceded: list[Seat] = []


def initial(options: Options, seats: int) -> State:
    return State(seats=seats, left=options.start)


def start(state: State, rng: Rng) -> list[Any]:
    return [Dealt(first=rng.below(state.seats), secret=f"cd-secret-{rng.roll(6)}")]


def evolve(state: State, event: Any) -> State:
    match event:
        case Dealt(first=first, secret=secret):
            return msgspec.structs.replace(state, turn=first, secret=secret)
        case Taken(seat=seat, count=count):
            left = state.left - count
            return msgspec.structs.replace(
                state,
                left=left,
                turn=_next(state, seat),
                winner=seat if left == 0 else None,
            )
        case _:
            raise TypeError(event)


def _next(state: State, seat: Seat) -> Seat:
    nxt = (seat + 1) % state.seats
    while nxt in state.conceded:
        nxt = (nxt + 1) % state.seats
    return nxt


def decide(state: State, seat: Seat, command: Any, rng: Rng) -> list[Any]:
    if state.winner is not None:
        raise Rejected("game_over", "The counter is already at zero.")
    if seat != state.turn:
        raise Rejected("not_your_turn", f"It is seat {state.turn + 1}'s turn.")
    if not isinstance(command, Take) or not 1 <= command.count <= min(3, state.left):
        raise Rejected("bad_count", f"Take 1 to {min(3, state.left)}, no more, no less.")
    return [Taken(seat=seat, count=command.count)]


def legal(state: State, seat: Seat) -> Iterable[Any]:
    if state.winner is not None or seat != state.turn:
        return []
    return [Take(count=c) for c in range(1, min(3, state.left) + 1)]


def to_act(state: State) -> frozenset[Seat]:
    return frozenset() if state.winner is not None else frozenset({state.turn})


def view(state: State, seat: Seat | None) -> msgspec.Struct:
    return msgspec.structs.replace(state, secret=state.secret if seat == 0 else None)


def redact(event: Any, seat: Seat | None) -> Any:
    if isinstance(event, Dealt) and seat != 0:
        return Dealt(first=event.first, secret=None)
    return event


def hidden(state: State, seat: Seat | None) -> frozenset[str]:
    return frozenset() if seat == 0 or state.secret is None else frozenset({state.secret})


def outcome(state: State) -> Outcome | None:
    if state.winner is None:
        return None
    return Outcome(
        scores=tuple(int(s == state.winner) for s in range(state.seats)),
        ranks=tuple(1 if s == state.winner else 2 for s in range(state.seats)),
    )


def concede(state: State, seat: Seat, rng: Rng) -> list[Any] | None:
    return None


def describe(event: Any, reader: Seat | None, names: Sequence[str]) -> str:
    match event:
        case Dealt(first=first):
            return f"{names[first]} goes first."
        case Taken(seat=seat, count=count):
            return f"{'You' if reader == seat else names[seat]} took {count}."
    return type(event).__name__


GAME = register(
    GameSpec[State, Take, Dealt | Taken, Options](
        name="countdown",
        title="Countdown",
        min_players=2,
        max_players=4,
        rules_version="1",
        rules_status="complete",
        assumptions=(),
        options_type=Options,
        command_type=Take,
        event_type=Dealt | Taken,
        state_type=State,
        initial=initial,
        start=start,
        decide=decide,
        evolve=evolve,
        legal=legal,
        to_act=to_act,
        view=view,
        redact=redact,
        hidden=hidden,
        outcome=outcome,
        describe=describe,
    )
)
