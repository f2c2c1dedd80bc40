"""What happened at a Jewel Box table, one Struct per event (all public)."""

from __future__ import annotations

import msgspec

from domain.games.jewelbox.beetles import BeetleId, Tool
from domain.kernel import Seat


class ScoreSheet(msgspec.Struct, frozen=True):
    """A box's points by family, plus unused tools."""

    scarab: int
    weevil: int
    ladybug: int
    longhorn: int
    jewel: int
    tools: int
    total: int


class LogFilled(msgspec.Struct, tag="jewelbox.log_filled", tag_field="type", frozen=True):
    """A face-down beetle was turned face up onto an empty log space."""

    space: int
    beetle: BeetleId


class TurnBegan(msgspec.Struct, tag="jewelbox.turn_began", tag_field="type", frozen=True):
    seat: Seat


class DieRolled(msgspec.Struct, tag="jewelbox.die_rolled", tag_field="type", frozen=True):
    seat: Seat
    die: str
    face: int


class ToolUsed(msgspec.Struct, tag="jewelbox.tool_used", tag_field="type", frozen=True):
    seat: Seat
    token: Tool
    use: Tool


class BeetleCollected(
    msgspec.Struct, tag="jewelbox.beetle_collected", tag_field="type", frozen=True
):
    """`space` is the log space it came from, or None for a face-down beetle."""

    seat: Seat
    beetle: BeetleId
    space: int | None


class BeetlePlaced(msgspec.Struct, tag="jewelbox.beetle_placed", tag_field="type", frozen=True):
    seat: Seat
    beetle: BeetleId
    row: int
    col: int


class BeetlesSwapped(msgspec.Struct, tag="jewelbox.beetles_swapped", tag_field="type", frozen=True):
    seat: Seat
    beetles: tuple[BeetleId, ...]


class PlayerConceded(msgspec.Struct, tag="jewelbox.player_conceded", tag_field="type", frozen=True):
    seat: Seat


class GameEnded(msgspec.Struct, tag="jewelbox.game_ended", tag_field="type", frozen=True):
    sheets: tuple[ScoreSheet, ...]


Event = (
    LogFilled
    | TurnBegan
    | DieRolled
    | ToolUsed
    | BeetleCollected
    | BeetlePlaced
    | BeetlesSwapped
    | PlayerConceded
    | GameEnded
)
