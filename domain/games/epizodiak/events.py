"""What happened at the table. Ids of tiles a reader may not see are None in its copy.

`swept` marks tiles that left the table again within the same move (the dial was
refilled or a new round dealt): their ids are then hidden from everyone and only
their values stay public.
"""

from __future__ import annotations

import msgspec

from domain.games.epizodiak.dial import Direction
from domain.games.epizodiak.tiles import TileId, Value
from domain.kernel import Seat


class RoundDealt(msgspec.Struct, tag="epizodiak.round_dealt", tag_field="type", frozen=True):
    round: int
    first: Seat
    hands: tuple[tuple[TileId, ...] | None, ...]
    pile: tuple[TileId, ...] | None  # top first, after the flip
    pile_size: int
    flipped: TileId  # the pile's first tile, turned onto the dial


class TileDrawn(msgspec.Struct, tag="epizodiak.tile_drawn", tag_field="type", frozen=True):
    seat: Seat
    tile: TileId | None


class TilePickedUp(msgspec.Struct, tag="epizodiak.tile_picked_up", tag_field="type", frozen=True):
    seat: Seat
    value: Value
    tile: TileId | None
    swept: bool = False


class TilesPlaced(msgspec.Struct, tag="epizodiak.tiles_placed", tag_field="type", frozen=True):
    seat: Seat
    direction: Direction
    values: tuple[Value, ...]
    tiles: tuple[TileId, ...] | None
    swept: bool = False


class SetDiscarded(msgspec.Struct, tag="epizodiak.set_discarded", tag_field="type", frozen=True):
    seat: Seat
    value: Value
    tiles: tuple[TileId, ...] | None
    swept: bool = False


class TurnPassed(msgspec.Struct, tag="epizodiak.turn_passed", tag_field="type", frozen=True):
    seat: Seat
    automatic: bool = False  # nothing was playable: the turn passed by itself


class ValueContested(
    msgspec.Struct, tag="epizodiak.value_contested", tag_field="type", frozen=True
):
    seat: Seat
    value: Value
    taken: tuple[int, ...]  # how many tiles of the value left each seat's hand
    discarded: tuple[TileId, ...]  # three of them, the set scored by the contester
    kept: TileId | None  # the fourth, now the contester's single tile
    swept: bool = False


class DialRefilled(msgspec.Struct, tag="epizodiak.dial_refilled", tag_field="type", frozen=True):
    pile: tuple[TileId, ...] | None  # the new pile, top first, after the flip
    pile_size: int
    flipped: TileId


class RoundEnded(msgspec.Struct, tag="epizodiak.round_ended", tag_field="type", frozen=True):
    emptier: Seat
    points: tuple[int, ...]
    totals: tuple[int, ...]
    game_over: bool


Event = (
    RoundDealt
    | TileDrawn
    | TilePickedUp
    | TilesPlaced
    | SetDiscarded
    | TurnPassed
    | ValueContested
    | DialRefilled
    | RoundEnded
)
