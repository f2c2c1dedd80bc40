"""A match as one caller may read it: view, legal commands with their schemas, history,
replay. Everything passes `domain.match.view`/`redact` for the caller's seat; the
gateway only adds the players' display names."""

from __future__ import annotations

import re
import time
import typing
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any, cast

import msgspec
from redis.asyncio import Redis

from domain import match as m
from domain.clock import TimeRanOut
from domain.kernel import Seat, get_game
from events.envelope import Envelope
from events.keys import GATEWAY
from events.matches import Recorded, read_back
from events.store import EventStore

MAX_CHOICES = 200  # legal commands listed one by one; beyond that the form is the way


class CommandChoice(msgspec.Struct):
    """One kind of command the caller may send now: its fields' schema and examples."""

    type: str
    title: str
    schema: dict[str, Any]
    legal: list[dict[str, Any]]
    count: int


class Line(msgspec.Struct):
    version: int
    type: str
    event: dict[str, Any]
    text: str


class NameBook:
    """Display names (`GATEWAY.names`), kept in this process for a while: every reply
    and push names its players, and names change only when someone signs in again."""

    def __init__(self, redis: Redis, keep_seconds: float = 30.0, size: int = 50_000) -> None:
        self.redis = redis
        self.keep_seconds = keep_seconds
        self.size = size
        self._known: dict[str, tuple[str, float]] = {}

    def learn(self, player_id: str, name: str) -> None:
        if len(self._known) >= self.size:
            self._known.pop(next(iter(self._known)))
        self._known[player_id] = (name, time.monotonic() + self.keep_seconds)

    async def of(self, players: Sequence[str | None]) -> list[str]:
        """The seats' names (an empty seat, or an unknown id, by its number from 1)."""
        await self._look_up(players)
        names = [self._known[p][0] if p else f"seat {i + 1}" for i, p in enumerate(players)]
        return distinct(names)

    async def named(self, players: Sequence[str]) -> list[str]:
        """Players' names, out of any table (an unknown id as itself)."""
        await self._look_up(players)
        return [self._known[p][0] for p in players]

    async def of_lines(
        self, players: Sequence[str | None], names: Sequence[str], events: Sequence[Any]
    ) -> dict[str, str]:
        """Who the events' sentences name, by id: the seated as the table names them
        (`names`), and anyone else they mention (a player who has left) by their own."""
        by_id = {p: n for p, n in zip(players, names, strict=False) if p}
        gone = [p for p in mentioned(events) if p not in by_id]
        if gone:
            by_id.update(zip(gone, await self.named(gone), strict=True))
        return by_id

    async def _look_up(self, players: Sequence[str | None]) -> None:
        now = time.monotonic()
        missing = [p for p in players if p and (p not in self._known or self._known[p][1] < now)]
        if missing:
            found = cast(list[Any], await self.redis.hmget(GATEWAY.names, missing))
            for p, n in zip(missing, found, strict=True):
                self.learn(p, n.decode() if n else p)


def distinct(names: list[str]) -> list[str]:
    """Names a table can tell apart: two players named alike (two "Ann"s, or a person
    who took a bot's name) each get their seat ("Ann (seat 2)"), in every sentence, view
    and list that names them."""
    seen = Counter(names)
    if len(seen) == len(names):
        return names
    return [f"{n} (seat {i + 1})" if seen[n] > 1 else n for i, n in enumerate(names)]


def seat_of(state: m.MatchState, player: str) -> Seat | None:
    return state.players.index(player) if player in state.players else None


def view_for(state: m.MatchState, seat: Seat | None, names: Sequence[str]) -> dict[str, Any]:
    out = m.view(state, seat)
    out["names"] = list(names)
    out["you"] = seat
    out["title"] = get_game(state.game).title
    out["options"] = state.options  # public, as in the lobby: shown on the table page
    out["seat_keys"] = seat_keys(state.game)
    out["seat_lists"] = seat_lists(state.game)
    if "clock" in out:
        # The server's time now, so a page counts the clocks down from its numbers
        # whatever its own clock says.
        out["clock"]["server_now"] = int(time.time() * 1000)
    return out


_SEAT = re.compile(r"\bSeat\b")
_BY_SEAT = re.compile(r"\bBySeat\b")


@cache
def seat_keys(game_name: str) -> list[str]:
    """The fields of the game's view and commands that hold seats (annotated `Seat`):
    the web table shows them as names, never as the 0-based numbers of the JSON."""
    return _fields_written_as(game_name, _SEAT)


@cache
def seat_lists(game_name: str) -> list[str]:
    """The fields of the game's view that hold one entry per seat (annotated `BySeat`):
    the web table shows each entry in its seat's panel, under the player's name."""
    return _fields_written_as(game_name, _BY_SEAT)


def _fields_written_as(game_name: str, written_as: re.Pattern[str]) -> list[str]:
    game = get_game(game_name)
    todo = _structs_in(typing.get_type_hints(game.view).get("return"))
    todo += _structs_in(game.command_type)
    seen: set[type] = set()
    found: set[str] = set()
    while todo:
        struct = todo.pop()
        if struct in seen:
            continue
        seen.add(struct)
        # The annotations as written (`from __future__ import annotations` keeps them):
        # `Seat` is an alias of int, lost once resolved.
        written: dict[str, Any] = {}
        for klass in reversed(struct.__mro__):
            written.update(getattr(klass, "__annotations__", {}))
        hints = typing.get_type_hints(struct)
        for name in struct.__struct_fields__:
            if isinstance(written.get(name), str) and written_as.search(written[name]):
                found.add(name)
            todo += _structs_in(hints[name])
    return sorted(found)


def _structs_in(annotation: Any) -> list[type[msgspec.Struct]]:
    if isinstance(annotation, type) and issubclass(annotation, msgspec.Struct):
        return [annotation]
    return [s for arg in typing.get_args(annotation) for s in _structs_in(arg)]


@cache
def _command_types(game_name: str) -> dict[str, type[msgspec.Struct]]:
    union = get_game(game_name).command_type
    members = typing.get_args(union) or (union,)
    return {str(t.__struct_config__.tag): t for t in members}


@cache
def command_schema(game_name: str, tag: str) -> dict[str, Any]:
    """The JSON Schema of one command's fields (the type tag is added by the gateway)."""
    schema = msgspec.json.schema(_command_types(game_name)[tag])
    defs = schema.get("$defs", {})
    ref = schema.get("$ref", "")
    body: dict[str, Any] = dict(defs.get(ref.rsplit("/", 1)[-1], schema))
    props = {k: v for k, v in body.get("properties", {}).items() if k != "type"}
    body["properties"] = props
    body["required"] = [r for r in body.get("required", []) if r != "type"]
    if len(defs) > 1:
        body["$defs"] = defs
    return body


def commands_for(state: m.MatchState, seat: Seat | None) -> list[CommandChoice]:
    """The commands the seat may send now, grouped by kind, each with its schema."""
    if seat is None or state.status != "playing" or seat in state.conceded:
        return []
    game = get_game(state.game)
    if seat not in game.to_act(state.game_state):
        return []
    grouped: dict[str, list[dict[str, Any]]] = {}
    for command in game.legal(state.game_state, seat):
        tag = str(type(command).__struct_config__.tag)
        grouped.setdefault(tag, []).append(cast(dict[str, Any], msgspec.to_builtins(command)))
    return [
        CommandChoice(
            type=tag,
            title=_command_types(state.game)[tag].__name__,
            schema=command_schema(state.game, tag),
            legal=found[:MAX_CHOICES],
            count=len(found),
        )
        for tag, found in grouped.items()
    ]


# The events that carry player ids: every other event (a game's own) passes `named`
# as it is, without trying each pattern below.
_NAMING = frozenset(
    {
        m.PlayerJoined,
        m.PlayerLeft,
        m.SeatConceded,
        TimeRanOut,
        m.MoveUndone,
        m.RematchOffered,
        m.RematchAccepted,
        m.RematchDeclined,
        m.MatchStarted,
        m.MatchFinished,
        m.RematchAgreed,
    }
)


def mentioned(events: Sequence[Any]) -> list[str]:
    """The player ids the events carry, each once, in order."""
    out: dict[str, None] = {}
    for event in events:
        if type(event) in _NAMING:
            found = event.players if "players" in event.__struct_fields__ else (event.player,)
            out.update((p, None) for p in found if p)
    return list(out)


def named(event: Any, by_id: dict[str, str]) -> Any:
    """A lifecycle event with display names where it carries player ids (the sentence
    is read by people; the log keeps the ids)."""
    if type(event) not in _NAMING:
        return event
    name = by_id.get
    # MatchStarted, MatchFinished and RematchAgreed name every seat; the rest one player.
    if "players" in event.__struct_fields__:
        return msgspec.structs.replace(event, players=tuple(name(p, p) for p in event.players))
    return msgspec.structs.replace(event, player=name(event.player, event.player))


def lines_for(
    game: str,
    envelopes: Sequence[Envelope],
    events: Sequence[Any],
    seat: Seat | None,
    names: Sequence[str],
    by_id: dict[str, str],
) -> list[Line]:
    """The events as that seat may read them, each with its sentence; `by_id` names
    the players they mention (`NameBook.of_lines`)."""
    out = []
    for env, event in zip(envelopes, events, strict=True):
        shown = m.redact(game, event, seat)
        if shown is None:
            continue
        text = m.describe(game, named(shown, by_id), seat, names)
        body = cast(dict[str, Any], msgspec.to_builtins(shown))
        out.append(Line(version=env.version, type=env.type, event=body, text=text))
    return out


async def recorded(store: EventStore, match_id: str) -> Recorded | None:
    """A match read back whole from its stream (history and replay need every event)."""
    return await read_back(store, match_id)
