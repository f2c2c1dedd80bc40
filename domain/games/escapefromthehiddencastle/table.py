"""Reading the table: who stands where, which steps are free, who plays next."""

from __future__ import annotations

from domain.games.escapefromthehiddencastle.castle import RoomId
from domain.games.escapefromthehiddencastle.events import Event
from domain.games.escapefromthehiddencastle.figures import OWNER, GuestId
from domain.games.escapefromthehiddencastle.state import Spot, State
from domain.kernel import Recorder, Seat
from domain.table import next_seat

Turn = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""


def guests_at(state: State, spot: Spot) -> list[GuestId]:
    """The guests on one place, in id order."""
    return sorted(g for g, where in state.guests.items() if where == spot)


def guests_on_gallery(state: State, seat: Seat | None = None) -> list[GuestId]:
    """Guests on the gallery (of one player, if given), in id order."""
    return sorted(
        g
        for g, where in state.guests.items()
        if where.area == "gallery" and (seat is None or OWNER[g] == seat)
    )


def room_guest(state: State, room: RoomId) -> GuestId | None:
    """The one guest in a room, if any."""
    return next((g for g, w in state.guests.items() if w.room == room), None)


def hugo_on_gallery(state: State) -> bool:
    """Rooms open once Hugo has come up the cellar steps onto the gallery."""
    return state.hugo.area == "gallery"


def first_free_step(state: State) -> int:
    """The free step with the highest number; with every step taken, the first ("+10")."""
    taken = {w.at for w in state.guests.values() if w.area == "step"}
    return next((i for i in range(len(state.castle.steps)) if i not in taken), 0)


def cellar_head(state: State, seat: Seat) -> GuestId | None:
    """The player's guest on the highest-numbered step: the only one that may come up."""
    mine = [(w.at, g) for g, w in state.guests.items() if w.area == "step" and OWNER[g] == seat]
    return min(mine)[1] if mine else None


def active(state: State) -> list[Seat]:
    return [s for s in range(state.seats) if s not in state.conceded]


def next_active(state: State, seat: Seat, *, inclusive: bool = False) -> Seat:
    """Clockwise from `seat` (the seat itself first when `inclusive`), skipping who left."""
    return next_seat(seat, state.seats, lambda s: s not in state.conceded, inclusive=inclusive)
