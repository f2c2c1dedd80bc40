"""What each seat sees: the whole table, since nothing in the castle is secret.

Every event is public (the die is rolled in plain sight) and nothing is hidden, so the
kernel's defaults stand for `redact` and `hidden`.
"""

from __future__ import annotations

import msgspec

from domain.games.escapefromthehiddencastle.castle import CLOCK, Crest, RoomId, Side
from domain.games.escapefromthehiddencastle.figures import OWNER, Face, GuestId
from domain.games.escapefromthehiddencastle.hugo import speed
from domain.games.escapefromthehiddencastle.state import Ending, Phase, Spot, State
from domain.games.escapefromthehiddencastle.table import guests_at, room_guest
from domain.kernel import Seat


class GuestView(msgspec.Struct, frozen=True):
    guest: GuestId
    owner: Seat
    where: Spot


class RoomView(msgspec.Struct, frozen=True):
    room: RoomId
    name: str
    door: int
    crest: Crest
    exact_entry: bool
    guest: GuestId | None


class StepView(msgspec.Struct, frozen=True):
    label: str
    points: int
    guests: tuple[GuestId, ...]


class TableView(msgspec.Struct, frozen=True):
    side: Side
    gallery: int
    """Gallery spaces, numbered clockwise from the arrow space (0)."""
    rooms: tuple[RoomView, ...]
    steps: tuple[StepView, ...]
    guests: tuple[GuestView, ...]
    hugo: Spot
    hugo_speed: int
    clock: str | None
    """Hugo side: the hour on the turn track; None at the Midnight Party."""
    fright: tuple[int, ...]
    round: int
    round_scores: tuple[tuple[int, ...], ...]
    phase: Phase
    turn: Seat
    roll: Face | None
    next_to_place: GuestId | None
    conceded: tuple[Seat, ...]
    ending: Ending | None


def view(state: State, seat: Seat | None) -> TableView:
    castle = state.castle
    rooms = tuple(
        RoomView(
            room=r.id,
            name=r.name,
            door=r.door,
            crest=r.crest,
            exact_entry=r.exact_entry,
            guest=room_guest(state, r.id),
        )
        for r in castle.rooms
    )
    steps = tuple(
        StepView(
            label=s.label, points=s.points, guests=tuple(guests_at(state, Spot(area="step", at=i)))
        )
        for i, s in enumerate(castle.steps)
    )
    guests = tuple(
        GuestView(guest=g, owner=OWNER[g], where=w) for g, w in sorted(state.guests.items())
    )
    return TableView(
        side=castle.side,
        gallery=castle.gallery,
        rooms=rooms,
        steps=steps,
        guests=guests,
        hugo=state.hugo,
        hugo_speed=speed(state),
        clock=None if state.options.midnight_party else CLOCK[state.clock].label,
        fright=tuple(state.fright),
        round=state.round,
        round_scores=tuple(tuple(r) for r in state.round_scores),
        phase=state.phase,
        turn=state.turn,
        roll=state.roll,
        next_to_place=state.to_place[0] if state.to_place else None,
        conceded=tuple(state.conceded),
        ending=state.ending,
    )
