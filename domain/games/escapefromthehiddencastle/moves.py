"""Moving a guest: along the gallery, into a room, out of a room, up from the cellar.

Rule citations point at "Gamehelpescapefromthehiddencastle" (seed 004, 2021-09-01).
Counting (seed 004, "Au secours"): each gallery space and the step into a room cost one
point. ASSUMPTION: the step out of a room costs one point too (it puts the guest on the
space in front of its door, which is how an expelled guest "comes back with a 1"); coming
up from the cellar, the first point puts the guest on the arrow space.
"""

from __future__ import annotations

from msgspec import Struct

from domain.games.escapefromthehiddencastle.castle import Room
from domain.games.escapefromthehiddencastle.commands import MoveGuest
from domain.games.escapefromthehiddencastle.figures import OWNER, GuestId
from domain.games.escapefromthehiddencastle.state import Spot, State
from domain.games.escapefromthehiddencastle.table import (
    cellar_head,
    guests_on_gallery,
    hugo_on_gallery,
    room_guest,
)
from domain.kernel import Rejected, Seat


class Plan(Struct, frozen=True):
    """A move the rules allow, worked out before any event is recorded."""

    guest: GuestId
    origin: Spot
    to: Spot
    points_lost: int = 0
    room: Room | None = None
    expels: GuestId | None = None


def movable(state: State, seat: Seat) -> list[GuestId]:
    """The guests `seat` may move with a number: on the gallery, in a room, and the one on
    the highest cellar step. Midnight Party: only guests on the gallery (rooms and steps
    keep their guests until the round ends)."""
    mine = guests_on_gallery(state, seat)
    if state.options.midnight_party:
        return mine
    rooms = [g for g, w in state.guests.items() if w.area == "room" and OWNER[g] == seat]
    head = cellar_head(state, seat)
    return sorted([*mine, *rooms, *([head] if head else [])])


def guest_moves(state: State, seat: Seat) -> list[MoveGuest]:
    """Every move of the rolled number: each movable guest along the gallery or into
    each room it can reach."""
    out: list[MoveGuest] = []
    for guest in movable(state, seat):
        for room in (None, *(r.id for r in state.castle.rooms)):
            command = MoveGuest(guest=guest, room=room)
            try:
                plan(state, seat, command)
            except Rejected:
                continue
            out.append(command)
    return out


def plan(state: State, seat: Seat, command: MoveGuest) -> Plan:
    """Check a move against the rules, in the page's order, and work it out."""
    assert isinstance(state.roll, int)
    points = state.roll
    origin = _own_guest(state, seat, command.guest)
    start, used = _setting_out(state, seat, command.guest, origin)
    gallery = state.castle.gallery
    if command.room is None:
        return Plan(guest=command.guest, origin=origin, to=_on(start + points - used, gallery))
    return _into_room(state, command, origin, start, used, points)


def _own_guest(state: State, seat: Seat, guest: GuestId) -> Spot:
    where = state.guests.get(guest)
    if where is None:
        raise Rejected("unknown_guest", f"There is no guest {guest!r} at this table.")
    if OWNER[guest] != seat:
        raise Rejected("not_your_guest", f"{guest} belongs to another player.")
    return where


def _setting_out(state: State, seat: Seat, guest: GuestId, origin: Spot) -> tuple[int, int]:
    """Where the count starts and the points already used by then (1 out of a room or up
    from the cellar)."""
    party = state.options.midnight_party
    match origin.area:
        case "gallery":
            return origin.at, 0
        case "room" if not party:
            return _door(state, origin), 1
        case "step" if not party:
            if guest != cellar_head(state, seat):
                raise Rejected(
                    "not_highest_step",
                    f"{guest} must wait: your guest on the highest cellar step comes up first.",
                )
            return 0, 1
        case "room" | "step":
            raise Rejected(
                "guest_stays",
                f"At the Midnight Party {guest} stays in the {origin.area} until the round ends.",
            )
        case _:
            raise Rejected("guest_not_in_play", f"{guest} is not on the board.")


def _into_room(
    state: State, command: MoveGuest, origin: Spot, start: int, used: int, points: int
) -> Plan:
    castle = state.castle
    room = castle.room(command.room or "")
    if room is None:
        known = ", ".join(r.id for r in castle.rooms)
        raise Rejected("unknown_room", f"There is no room {command.room!r}; rooms: {known}.")
    if not hugo_on_gallery(state):
        raise Rejected("rooms_closed", "The rooms open only once Hugo is out on the gallery.")
    if origin.room == room.id:
        raise Rejected("same_room", f"{command.guest} is already in {room.name}.")
    cost = used + (room.door - start) % castle.gallery + 1
    if cost > points:
        raise Rejected(
            "room_out_of_reach", f"{room.name} is {cost} points away; you rolled {points}."
        )
    exact = cost == points
    occupant = room_guest(state, room.id)
    if occupant is not None and state.options.midnight_party:
        raise Rejected(
            "room_taken", f"{room.name} is taken, and nobody is expelled at the Midnight Party."
        )
    if occupant is not None and not exact:
        raise Rejected(
            "exact_roll_needed",
            f"{room.name} is taken: only an exact {cost} enters it and expels {occupant}.",
        )
    if room.exact_entry and not exact:
        raise Rejected(
            "exact_roll_needed", f"{room.name} has a green crest: it takes an exact {cost}."
        )
    return Plan(
        guest=command.guest,
        origin=origin,
        to=Spot(area="room", room=room.id),
        points_lost=points - cost,
        room=room,
        expels=occupant,
    )


def _on(space: int, gallery: int) -> Spot:
    return Spot(area="gallery", at=space % gallery)


def _door(state: State, origin: Spot) -> int:
    room = state.castle.room(origin.room or "")
    assert room is not None
    return room.door
