"""What happened at a Kokeshi table, one Struct per event (all public: a tile is seen as
it is drawn; the bags' contents are only counted)."""

from __future__ import annotations

import msgspec

from domain.games.kokeshi.state import ScoreSheet, Task
from domain.games.kokeshi.tiles import TileId
from domain.kernel import Seat


class StartingTilesDrawn(
    msgspec.Struct, tag="kokeshi.starting_tiles_drawn", tag_field="type", frozen=True
):
    seat: Seat
    tiles: tuple[TileId, ...]


class TurnBegan(msgspec.Struct, tag="kokeshi.turn_began", tag_field="type", frozen=True):
    seat: Seat
    round: int


class KokeshiMoved(msgspec.Struct, tag="kokeshi.kokeshi_moved", tag_field="type", frozen=True):
    """A doll now stands on `track` (0-based), `row` (0 is home, 1 the bottom space)."""

    seat: Seat
    doll: str
    track: int
    row: int


class KokeshiToppedOut(
    msgspec.Struct, tag="kokeshi.kokeshi_topped_out", tag_field="type", frozen=True
):
    """The doll hit the top: `happiness` points, and back home."""

    seat: Seat
    doll: str
    happiness: int


class KokeshiWentHome(
    msgspec.Struct, tag="kokeshi.kokeshi_went_home", tag_field="type", frozen=True
):
    """The doll stepped onto an empty space and went back home."""

    seat: Seat
    doll: str


class TileGained(msgspec.Struct, tag="kokeshi.tile_gained", tag_field="type", frozen=True):
    """Drawn from a bag (the quality bag when `quality`), to be placed on `track`."""

    seat: Seat
    tile: TileId
    track: int
    quality: bool


class NoTileLeft(msgspec.Struct, tag="kokeshi.no_tile_left", tag_field="type", frozen=True):
    seat: Seat
    track: int


class TileTriggered(msgspec.Struct, tag="kokeshi.tile_triggered", tag_field="type", frozen=True):
    """A doll landed on the tile; its effect resolves now."""

    seat: Seat
    tile: TileId
    doll: str


class ChoiceAwaited(msgspec.Struct, tag="kokeshi.choice_awaited", tag_field="type", frozen=True):
    """The cascade waits for the seat; `agenda` is its remaining work, the choice last."""

    seat: Seat
    agenda: tuple[Task, ...]


class HalfChosen(msgspec.Struct, tag="kokeshi.half_chosen", tag_field="type", frozen=True):
    seat: Seat
    tile: TileId
    effect: str


class KokeshiChosen(msgspec.Struct, tag="kokeshi.kokeshi_chosen", tag_field="type", frozen=True):
    seat: Seat
    doll: str
    effect: str
    direction: str | None


class AnimalChosen(msgspec.Struct, tag="kokeshi.animal_chosen", tag_field="type", frozen=True):
    seat: Seat
    animal: str


class AnimalAdvanced(msgspec.Struct, tag="kokeshi.animal_advanced", tag_field="type", frozen=True):
    seat: Seat
    animal: str
    step: int


class TilePlaced(msgspec.Struct, tag="kokeshi.tile_placed", tag_field="type", frozen=True):
    """On `track` (0-based), `row` (1 is the bottom space)."""

    seat: Seat
    tile: TileId
    track: int
    row: int


class TileIgnored(msgspec.Struct, tag="kokeshi.tile_ignored", tag_field="type", frozen=True):
    """Its track is full: the tile leaves the game."""

    seat: Seat
    tile: TileId
    track: int


class PlayerConceded(msgspec.Struct, tag="kokeshi.player_conceded", tag_field="type", frozen=True):
    seat: Seat


class GameEnded(msgspec.Struct, tag="kokeshi.game_ended", tag_field="type", frozen=True):
    sheets: tuple[ScoreSheet, ...]


Event = (
    StartingTilesDrawn
    | TurnBegan
    | KokeshiMoved
    | KokeshiToppedOut
    | KokeshiWentHome
    | TileGained
    | NoTileLeft
    | TileTriggered
    | ChoiceAwaited
    | HalfChosen
    | KokeshiChosen
    | AnimalChosen
    | AnimalAdvanced
    | TilePlaced
    | TileIgnored
    | PlayerConceded
    | GameEnded
)
