"""The Midnight Party ("Fête de minuit"): three frightful rounds, scored on paper.

Rule citations point at the variant section of seed 004.
"""

from __future__ import annotations

from typing import Literal

from domain.games.escapefromthehiddencastle.castle import PARTY_ROUNDS
from domain.games.escapefromthehiddencastle.events import (
    GameEnded,
    PlayBegan,
    RoundBegan,
    RoundEnded,
    RoundScored,
)
from domain.games.escapefromthehiddencastle.figures import OWNER, GuestId
from domain.games.escapefromthehiddencastle.state import State
from domain.games.escapefromthehiddencastle.table import (
    Turn,
    active,
    guests_on_gallery,
    next_active,
    room_guest,
)
from domain.kernel import Seat

RoundEnd = Literal["gallery_empty", "rooms_full"]


def round_over(state: State) -> RoundEnd | None:
    """A round ends when no guest is left on the gallery or when every room is taken."""
    if not guests_on_gallery(state):
        return "gallery_empty"
    if all(room_guest(state, r.id) is not None for r in state.castle.rooms):
        return "rooms_full"
    return None


def end_round(turn: Turn, reason: RoundEnd) -> None:
    """Stragglers go down to "-2"; the round is scored; the next one is set up."""
    state = turn.state
    stragglers = tuple(guests_on_gallery(state))
    step = state.castle.straggler_step
    label = state.castle.steps[step].label
    turn.record(
        RoundEnded(round=state.round, reason=reason, stragglers=stragglers, step=step, label=label)
    )
    points = round_points(turn.state)
    totals = tuple(f + p for f, p in zip(turn.state.fright, points, strict=True))
    turn.record(RoundScored(round=state.round, points=points, totals=totals))
    if state.round >= PARTY_ROUNDS:
        turn.record(GameEnded(reason="party_over"))
        return
    starter = most_frightened(turn.state)
    order = placing_order(turn.state, starter)
    turn.record(RoundBegan(round=state.round + 1, starter=starter, placing_order=order))
    if not order:
        turn.record(PlayBegan(seat=starter))


def round_points(state: State) -> tuple[int, ...]:
    """Each guest on a step scores its number; Hugo Junior's rooms 1, the Ballroom and the
    Banquet Hall -2 (two luck points)."""
    castle = state.castle
    in_rooms = {r.id: r.party_points for r in castle.rooms}
    points = [0] * state.seats
    for guest, where in state.guests.items():
        if where.area == "step":
            points[OWNER[guest]] += castle.steps[where.at].points
        elif where.room is not None:
            points[OWNER[guest]] += in_rooms[where.room]
    return tuple(points)


def most_frightened(state: State) -> Seat:
    """Who starts the next round: the most fright points. ASSUMPTION: among equals, the
    first clockwise from the last round's starting player."""
    seats = active(state)
    top = max(state.fright[s] for s in seats)
    seat = next_active(state, state.starter, inclusive=True)
    while state.fright[seat] != top:
        seat = next_active(state, seat)
    return seat


def placing_order(state: State, starter: Seat) -> tuple[GuestId, ...]:
    """Cellar guests come back up from "-10" down to "-2"; on a shared step the player with
    the most fright points first (ASSUMPTION: equals clockwise from the new starter)."""

    def key(guest: GuestId) -> tuple[int, int, int, GuestId]:
        owner = OWNER[guest]
        return (
            state.guests[guest].at,
            -state.fright[owner],
            (owner - starter) % state.seats,
            guest,
        )

    on_steps = [g for g, w in state.guests.items() if w.area == "step"]
    return tuple(sorted(on_steps, key=key))
