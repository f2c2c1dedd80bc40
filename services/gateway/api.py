"""The request and response bodies of the gateway's HTTP API (msgspec Structs, so
Litestar validates them and the OpenAPI document describes them)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from domain.clock import TimeControl
from services.gateway.tables import CommandChoice, Line
from services.gateway.tokens import DisplayName, PlayerId

GameName = Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9_]{1,40}$")]
MatchId = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,40}$")]
CommandId = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_.-]{1,64}$")]
SeatCount = Annotated[int, msgspec.Meta(ge=1, le=8)]
SeatIndex = Annotated[int, msgspec.Meta(ge=0, le=7)]
Options = Annotated[dict[str, Any], msgspec.Meta(max_length=16)]


class Body(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    # A body may name its player; it must then be the signed-in one (anything else is
    # refused, never silently replaced).
    player: PlayerId | None = None


class PlatformSignIn(msgspec.Struct, forbid_unknown_fields=True):
    player_id: PlayerId
    name: DisplayName


class DevSignIn(msgspec.Struct, forbid_unknown_fields=True):
    name: DisplayName


class SignedOut(msgspec.Struct):
    player_id: str
    ended_at: int
    """When the sign-in, or all the player's sign-ins, were ended (ms since the epoch):
    from then on the token, or every token issued before then, is refused."""


class SignedIn(msgspec.Struct):
    token: str
    player_id: str
    name: str
    expires_in: int


class Me(msgspec.Struct):
    player_id: str
    name: str


class GameInfo(msgspec.Struct):
    name: str
    title: str
    min_players: int
    max_players: int
    options_schema: dict[str, Any]
    clock_expiries: list[str] = []
    """What a clock may do when a seat's time runs out in this game (docs/tables.md)."""


class CreateBody(Body):
    game: GameName
    seats: SeatCount
    options: Options = {}
    join: bool = True  # sit down at the new table straight away
    clock: TimeControl | None = None  # the match's time control (docs/tables.md)
    unlisted: bool = False
    """Kept out of the lobby: only those given the table's link (its id) find it."""


class JoinBody(Body):
    seat: SeatIndex | None = None


class BotBody(msgspec.Struct, forbid_unknown_fields=True):
    seat: SeatIndex | None = None


class QuickPlayBody(Body):
    game: GameName
    seats: SeatCount
    options: Options = {}


class MoveBody(Body):
    command_id: CommandId
    move: Annotated[dict[str, Any], msgspec.Meta(max_length=16)]


class Created(msgspec.Struct):
    match_id: str


class Seated(msgspec.Struct):
    match_id: str
    seat: int


class ReplyBody(msgspec.Struct, omit_defaults=True):
    """The command service's answer: accepted (new version, the caller's events) or
    rejected (code, message); a re-sent command id answers `duplicate`."""

    command_id: str
    status: Literal["accepted", "rejected", "duplicate"]
    version: int = 0
    events: list[Line] = []
    code: str = ""
    message: str = ""
    original_status: str = ""


class MatchRow(msgspec.Struct):
    match_id: str
    game: str
    title: str
    seats: int
    options: dict[str, Any]
    players: list[str | None]
    names: list[str]
    status: str
    version: int
    free_seats: int
    updated_at: int
    rematch: str = ""  # this match's rematch, once every player accepted
    rematch_of: str = ""  # the match this one is the rematch of
    unlisted: bool = False  # in no lobby: found by its link


class TableBody(msgspec.Struct):
    """The match as the caller sees it now, and what the caller may do."""

    match_id: str
    seat: int | None
    view: dict[str, Any]
    commands: list[CommandChoice]


class History(msgspec.Struct):
    match_id: str
    seat: int | None
    version: int
    lines: list[Line]


class ReplayBody(msgspec.Struct):
    match_id: str
    seat: int | None
    version: int
    last_version: int
    view: dict[str, Any]
    line: Line | None


class Problem(msgspec.Struct, omit_defaults=True):
    """A refusal (every status of 400 and above): its status again, a sentence saying
    why, and for a body that failed validation, which field and how."""

    status_code: int
    detail: str
    extra: list[dict[str, Any]] | dict[str, Any] | None = None


class Health(msgspec.Struct):
    status: str
    redis: str
    process: int = 0  # the gateway process that answered (several may share the port)
