"""What a player may ask for on their turn.

Copies of a value are interchangeable, so commands name values and runs, never tile
ids: the referee takes the lowest ids from the hand. A run is named by its direction
and its length; it always starts at that end of the dial's arc.
"""

from __future__ import annotations

import msgspec

from domain.games.epizodiak.dial import Direction
from domain.games.epizodiak.tiles import Value


class Draw(
    msgspec.Struct, tag="epizodiak.draw", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """Take the top tile of the draw pile."""


class PickUp(
    msgspec.Struct,
    tag="epizodiak.pick_up",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Take back the last tile the previous player placed on the dial."""


class Place(
    msgspec.Struct, tag="epizodiak.place", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """Place `length` consecutive tiles from the `direction` end of the arc."""

    direction: Direction
    length: int


class DiscardSet(
    msgspec.Struct,
    tag="epizodiak.discard_set",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Discard three tiles of `value` (a set scores)."""

    value: Value


class Pass(
    msgspec.Struct, tag="epizodiak.pass", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """End the turn without placing or discarding."""


class Contest(
    msgspec.Struct,
    tag="epizodiak.contest",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After two passes in a row, claim the four tiles of a playable `value`."""

    value: Value


Command = Draw | PickUp | Place | DiscardSet | Pass | Contest
