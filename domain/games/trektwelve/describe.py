"""History sentences."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.trektwelve.events import (
    DiceRolled,
    Event,
    NumberWritten,
    TrekFinished,
    TrekkerLeft,
)
from domain.games.trektwelve.sheet import SYMBOLS
from domain.kernel import Seat


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        return "You" if seat == reader else names[seat]

    match event:
        case DiceRolled(roll=roll, zero_die=zero, one_die=one):
            return f"Roll {roll}: the dice show {zero} and {one}."
        case NumberWritten(seat=seat, option=option, number=number, circle=circle, frown=True):
            return (
                f"{who(seat)} took the {SYMBOLS[option]} ({number}), too big for circle "
                f"{circle}: a frown."
            )
        case NumberWritten(seat=seat, option=option, number=number, circle=circle):
            ropes = [r for r in (event.down, event.up) if r is not None]
            tail = f", roped to {' and '.join(map(str, ropes))}" if ropes else ""
            return f"{who(seat)} wrote {number} ({SYMBOLS[option]}) in circle {circle}{tail}."
        case TrekkerLeft(seat=seat):
            return f"{who(seat)} left the trek."
        case TrekFinished(scores=scores):
            table = ", ".join(f"{who(s)} {p}" for s, p in enumerate(scores))
            return f"The trek is over: {table}."
        case _:
            raise TypeError(f"not a Trek Twelve event: {event!r}")
