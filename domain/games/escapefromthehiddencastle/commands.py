"""What a player may say at the table: one Struct per move of the rules page."""

from __future__ import annotations

import msgspec

from domain.games.escapefromthehiddencastle.castle import RoomId
from domain.games.escapefromthehiddencastle.figures import GuestId


class _Move(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, frozen=True):
    """Shared config: tagged on "type", strict, comparable by value."""


class PlaceGuest(_Move, tag="escapefromthehiddencastle.place_guest", frozen=True):
    """Put your next guest on a free gallery space."""

    space: int


class RollDie(_Move, tag="escapefromthehiddencastle.roll_die", frozen=True):
    """Roll the die: a number moves one of your guests, Hugo's face moves Hugo."""


class MoveGuest(_Move, tag="escapefromthehiddencastle.move_guest", frozen=True):
    """Move a guest the number rolled: along the gallery (`room` None) or into a room."""

    guest: GuestId
    room: RoomId | None = None


class StayPut(_Move, tag="escapefromthehiddencastle.stay_put", frozen=True):
    """Midnight Party: with a single guest left on the gallery, leave it where it is."""


Command = PlaceGuest | RollDie | MoveGuest | StayPut
