"""The AsyncAPI document of every stream, generated from the message Structs.

`python -m services.contracts.asyncapi > docs/asyncapi.yaml` writes it; a test fails when the
committed file is stale, and another has the official AsyncAPI parser validate it.

It is meant to be enough to write a client without reading the source: every game's
commands, events, options and view come from the game's own Structs; the rejection codes
are read from the source (`services.contracts.rejections`); the examples are a real
exchange, decided by the command service's own code against an in-memory store.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import pkgutil
import random
import typing
import zlib
from collections.abc import Sequence
from typing import Any

import msgspec

import domain.games
from domain import match as m
from domain.kernel import Game
from events.keys import (
    DEFAULT_PARTITIONS,
    RATINGS,
    REPLY_PREFIX,
    Keys,
    partition_of,
    reply_stream,
)
from events.store import InMemoryStore
from services.commands.application import MAX_ATTEMPTS, CommandProcessor
from services.commands.intake import ID
from services.contracts import messages, rejections
from services.contracts.messages import (
    COMMAND_FIELD,
    ENCODER,
    REPLY_FIELD,
    CommandMessage,
    Reply,
)
from services.infra.config import Settings
from services.readside.projector import PUBLIC_KINDS
from services.readside.schema import Notice, PlayerRating, PublicEvent, Summary

VERSION = "3.0.0"
SCHEMAS = "#/components/schemas/"
Schema = dict[str, Any]


class LogEntry(msgspec.Struct):
    """Fields of an entry of `tt:{p}:log`: one accepted command, naming its events."""

    m: str  # match id
    v: int  # the version of its first event
    n: int  # how many events
    t: str  # the last event's type (its tag)


class MatchEntry(msgspec.Struct):
    """Fields of an entry of `tt:{p}:match:<id>` (entry id `0-<version>`): the record."""

    e: bytes  # the event, a MessagePack array (events.redis_store.Stored)


class DeadLetter(msgspec.Struct):
    """An entry of `tt:{p}:dead`: a command nobody could be answered about."""

    fields: dict[str, str]  # the entry's fields, cut to a length
    error: str  # why, in a sentence
    code: str = ""  # why, as a rejection code


# --- the games ------------------------------------------------------------------------------


def all_games() -> list[Game]:
    """Every game package of domain/games, whatever `TABLETOP_GAMES` offers."""
    found = []
    for module in pkgutil.iter_modules(domain.games.__path__):
        if module.ispkg and not module.name.startswith("_"):
            found.append(importlib.import_module(f"domain.games.{module.name}").GAME)
    return sorted(found, key=lambda g: g.name)


def _package(game: Game) -> str:
    """The game's package, from where its commands are defined (not where it is declared)."""
    first = typing.get_args(game.command_type) or (game.command_type,)
    return ".".join(first[0].__module__.split(".")[:3])


def _view_type(game: Game) -> Any:
    """The Struct a seat's view of the table is, found by starting a match."""
    state = m.fold([m.MatchCreated(game=game.name, seats=game.min_players, options={})])
    for seat in range(game.min_players):
        state = m.fold([m.PlayerJoined(player=f"p{seat}", seat=seat)], state)
    started = m.decide(state, m.StartMatch(player="p0", seed=1))
    return type(game.view(m.fold(started, state).game_state, None))


def _draft07(schema: Any) -> Any:
    """msgspec writes JSON Schema 2020-12 with OpenAPI's `discriminator`; an AsyncAPI
    schema is draft 07. So the discriminator object goes (AsyncAPI's `discriminator` is a
    property name, for allOf inheritance; every member's `type` is a one-value enum, all a
    validator needs), and a tuple's `prefixItems` + `items: false` become draft 07's
    `items: [...]` + `additionalItems: false`."""
    if isinstance(schema, list):
        return [_draft07(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _draft07(v) for k, v in schema.items() if k != "discriminator"}
    if "prefixItems" in out:
        out["additionalItems"] = out.pop("items", True)
        out["items"] = out.pop("prefixItems")
    return out


def _union(schema: Schema) -> list[Schema]:
    return list(schema["anyOf"]) if "anyOf" in schema else [schema]


def _played_moves(game: Game, moves: int = 300) -> dict[str, Any]:
    """One real move of each kind, as JSON: the first of its kind that random legal play
    (a fixed seed, every option set the conformance kit uses) chose."""
    seen: dict[str, Any] = {}
    option_sets: tuple[dict[str, Any], ...] = getattr(game, "conformance_options", None) or ({},)
    for options in option_sets:
        seats = max(2, game.min_players)
        state = m.fold(
            [
                m.MatchCreated(game=game.name, seats=seats, options=dict(options)),
                *(m.PlayerJoined(player=f"p{i}", seat=i) for i in range(seats)),
            ]
        )
        state = m.decide_and_fold(state, m.StartMatch(player="p0", seed=1)).after
        choose = random.Random(1)
        for _ in range(moves):
            if state.status != "playing":
                break
            seat = min(game.to_act(state.game_state))
            move = choose.choice(list(game.legal(state.game_state, seat)))
            body = ENCODER.encode(move)
            seen.setdefault(str(move.__struct_config__.tag), json.loads(body))
            play = m.PlayMove(player=f"p{seat}", move=msgspec.Raw(body))
            state = m.decide_and_fold(state, play).after
    return seen


def _placeholder(schema: Schema, components: dict[str, Schema]) -> Any:
    """A value of the schema's shape, for a move random play never chose."""
    if "$ref" in schema:
        return _placeholder(components[schema["$ref"].rsplit(".", 1)[-1]], components)
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return _placeholder(schema["anyOf"][0], components)
    kind = schema.get("type")
    blank: dict[str, Any] = {"integer": 0, "number": 0, "boolean": False, "string": ""}
    if kind == "array":
        if "prefixItems" in schema:
            return [_placeholder(item, components) for item in schema["prefixItems"]]
        return [_placeholder(schema["items"], components)] * schema.get("minItems", 0)
    if kind == "object":
        props = schema.get("properties", {})
        return {k: _placeholder(props[k], components) for k in schema.get("required", [])}
    return blank.get(str(kind))


def _game_schemas(game: Game) -> dict[str, Schema]:
    """`<game>.<Struct>` for every Struct of the game, and the game's five entry points:
    `<game>.moves`, `.events`, `.options`, `.view`, `.rejections`."""
    name = game.name
    (moves, events, options, view), components = msgspec.json.schema_components(
        [game.command_type, game.event_type, game.options_type, _view_type(game)],
        ref_template=f"{SCHEMAS}{name}.{{name}}",
    )
    out: dict[str, Schema] = {f"{name}.{k}": v for k, v in components.items()}
    # Every move with the exact JSON of one: played where random play reached it.
    played = _played_moves(game)
    for ref in _union(moves):
        member = components[ref["$ref"].rsplit(".", 1)[-1]]
        (tag,) = member["properties"]["type"]["enum"]
        member["examples"] = [played.get(tag) or _placeholder(member, components)]
    tags = ", ".join(f"`{t}`" for t in _tags(game.command_type))
    out[f"{name}.moves"] = {
        "title": f"{game.title}: moves",
        "description": f"The `move` of a `match.play` command in a {game.title} match, "
        f"tagged by `type`: {tags}.",
        "anyOf": _union(moves),
    }
    out[f"{name}.events"] = {
        "title": f"{game.title}: events",
        "description": f"What happens at a {game.title} table, tagged by `type`. Chance "
        "(dice, shuffles, draws) is written into the events; hidden information is "
        "redacted for the reader.",
        "anyOf": _union(events),
    }
    out[f"{name}.options"] = {
        "title": f"{game.title}: options",
        "description": f"`options` of a `match.create` for `{name}`; every field may be "
        "left out (its default); unknown fields are rejected with `bad_options`.",
        **options,
    }
    out[f"{name}.view"] = {
        "title": f"{game.title}: the table",
        "description": "The `table` of a match view: what one seat (or a spectator) may see.",
        **view,
    }
    codes = rejections.game_codes(_package(game))
    out[f"{name}.rejections"] = _codes_schema(
        f"{game.title}: rejection codes", f"Codes the rules of {game.title} answer.", codes
    )
    return out


def _tags(union: Any) -> list[str]:
    members = typing.get_args(union) or (union,)
    return [str(t.__struct_config__.tag) for t in members]


def _codes_schema(title: str, description: str, codes: Sequence[rejections.Code]) -> Schema:
    return {
        "title": title,
        "description": description,
        "type": "string",
        "oneOf": [{"const": c.code, "description": c.meaning} for c in codes],
    }


def _refs(names: Sequence[str]) -> list[Schema]:
    return [{"$ref": f"{SCHEMAS}{n}"} for n in names]


# --- the envelope and the lifecycle ---------------------------------------------------------


def _core_schemas(games: list[Game]) -> dict[str, Schema]:
    top, components = msgspec.json.schema_components(
        [
            CommandMessage,
            Reply,
            PublicEvent,
            LogEntry,
            MatchEntry,
            DeadLetter,
            m.MatchEvent,
            Summary,
            PlayerRating,
            Notice,  # last: the union above is found by its place (top[6])
        ],
        ref_template=SCHEMAS + "{name}",
    )
    s: dict[str, Schema] = dict(components)
    names = [g.name for g in games]
    event_refs = _refs(["MatchEvent", *(f"{n}.events" for n in names)])

    s["CommandMessage"]["description"] = (
        "The JSON in the field `c` of one entry of `tt:{p}:commands`. Unknown fields are "
        "rejected (`malformed_command`)."
    )
    props = s["CommandMessage"]["properties"]
    props["command_id"] |= {
        "pattern": f"^{ID.pattern}$",
        "description": "Chosen by the sender, unique within the match. The same id sent "
        "again for the same match appends nothing and answers `duplicate` with the first "
        "outcome; the same id in another match is another command.",
    }
    props["match_id"] |= {
        "pattern": f"^{ID.pattern}$",
        "description": "Chosen by the creator of the match (`match.create`); every later "
        "command names it. It decides the partition: crc32(UTF-8 bytes) mod the partition "
        "count.",
    }
    props["reply_to"] |= {
        "pattern": f"^{REPLY_PREFIX}",
        "description": f"The stream the reply is added to; it must start with "
        f"`{REPLY_PREFIX}`. A command naming any other stream is not answered: it goes to "
        "the partition's dead-letter stream `tt:{p}:dead`.",
    }
    props["sent_at"]["description"] = "The sender's clock (unix seconds), echoed in the reply."

    s["MatchEvent"] = {
        "title": "MatchEvent",
        "description": "The match lifecycle's own events (`match.*`), interleaved with the "
        "game's events in one stream.",
        "anyOf": _union(top[6]),
    }
    s["Event"] = {
        "title": "Event",
        "description": "Any event of a match stream: a lifecycle event or one of its game's.",
        "anyOf": event_refs,
    }
    s["CreateMatch"]["properties"]["game"] |= {"enum": names}
    s["CreateMatch"]["properties"]["options"] = {
        "description": "The game's options by name (see `<game>.options`); {} for the defaults.",
        "anyOf": _refs([f"{n}.options" for n in names]),
    }
    s["JoinMatch"]["properties"]["seat"]["description"] = (
        "0-based seat; null or absent takes the first free seat."
    )
    s["StartMatch"]["properties"]["seed"]["description"] = (
        "Fixes every chance outcome of the match; drawn by the service when absent."
    )
    s["PlayMove"]["properties"]["move"] = {
        "description": "One move of the match's game, as a JSON object tagged by `type` (for "
        'Chicken!: {"type": "chicken.go_for_it"}).',
        "anyOf": _refs([f"{n}.moves" for n in names]),
    }
    for name in ("CreateMatch", "JoinMatch", "LeaveMatch", "StartMatch", "PlayMove", "Concede"):
        if "player" in s[name]["properties"]:
            s[name]["properties"]["player"]["description"] = (
                "The player's name at the table; a command acts for the seat this player holds."
            )

    reply = s["Reply"]["properties"]
    s["Reply"]["description"] = (
        "The JSON in the field `r` of one entry of the command's `reply_to` stream. Fields "
        "at their default are left out. Read leniently: fields may be added."
    )
    reply["status"]["description"] = (
        "accepted: the events were appended. rejected: nothing was appended (`code`, "
        "`message` say why). duplicate: this command_id was seen before in this match; "
        "the reply repeats the first one, whose status is in `original_status`."
    )
    reply["version"]["description"] = "The match's version after the command (accepted)."
    reply["events"] = {
        "type": "array",
        "description": "The events the command caused, as the sender's seat may see them.",
        "items": {"$ref": f"{SCHEMAS}Event"},
    }
    reply["code"] = {"$ref": f"{SCHEMAS}RejectionCode"}
    reply["message"]["description"] = "The referee's sentence for a person (rejected)."

    public = s["PublicEvent"]
    public["description"] = (
        "The JSON in the field `e` of one entry of `tt:{p}:public`: one event as a "
        "spectator may see it, with its sentence."
    )
    public["properties"]["event"] = {"$ref": f"{SCHEMAS}Event"}
    public["properties"]["kind"] |= {"enum": _public_kinds()}
    s["Notice"]["description"] = (
        "The JSON in the field `n` of one entry of `tt:{p}:notices` (and a member of the "
        "player's inbox `tt:{p}:rm:inbox:<player>`): something one player should hear "
        "about. The same notice always has the same `id`."
    )

    as_text = "Stream fields are strings: integers are written in decimal."
    s["LogEntry"]["description"] = (
        f"The fields of one entry of `tt:{{p}}:log`: one command's events, read from "
        f"their match stream. {as_text}"
    )
    s["MatchEntry"]["description"] = (
        "The one field of an entry of `tt:{p}:match:{match_id}` (entry id "
        "`0-<version>`). Entries written before this layout hold the same seven values "
        "in fields of their own (t, d, c, at, s, h, x; the oldest also pv, the hash "
        "before), and still read."
    )
    s["MatchEntry"]["properties"]["e"] = {
        "type": "string",
        "contentMediaType": "application/msgpack",
        "description": "The event as a MessagePack array: type (its tag), payload (bin: "
        "the event's JSON, an `Event`), command id, recorded at (unix ms), schema "
        "version, this envelope's hash (its link to the one before is that entry's "
        "hash), command (bin: the command's JSON on the first event of a decision, else "
        "`null`).",
    }

    s["MatchView"] = _match_view(names)
    s["Summary"]["description"] = "A match's summary: `GET tt:{p}:rm:match:{match_id}`."
    s["PlayerRating"]["description"] = (
        "A player's rating in one game: `HGET tt:{ratings}:rating:{game} {player}`; the "
        "leaderboard `ZREVRANGE tt:{ratings}:board:{game} 0 -1` orders players by "
        "mu - 3 sigma."
    )

    s["ServiceRejections"] = _codes_schema(
        "Rejection codes of the command service",
        "Answered before any rule is read: the envelope itself.",
        rejections.service_codes(),
    )
    s["MatchRejections"] = _codes_schema(
        "Rejection codes of the match lifecycle",
        "Answered by the match around every game: lobby, seats, start, turn, concession.",
        rejections.match_codes(),
    )
    s["RejectionCode"] = {
        "title": "RejectionCode",
        "type": "string",
        "description": "Why a command was rejected (status rejected, or a duplicate of one): "
        "a stable snake_case code, from the command service, the match lifecycle, or the "
        "rules of the match's game.",
        "anyOf": _refs(
            ["ServiceRejections", "MatchRejections", *(f"{n}.rejections" for n in names)]
        ),
    }
    return s


def _public_kinds() -> list[str]:
    return sorted({*PUBLIC_KINDS.values(), "move_played"})


def _match_view(names: list[str]) -> Schema:
    """`m.view`'s dict, written out (a test keeps its keys those `m.view` returns)."""
    seats = {"type": "array", "items": {"type": "integer"}}
    return {
        "title": "MatchView",
        "description": "A match as one reader sees it: `HGET tt:{p}:rm:view:{match_id} "
        "{reader}`, reader `spectator` or a 0-based seat number.",
        "type": "object",
        "properties": {
            "game": {"type": "string"},
            "status": {"enum": ["lobby", "playing", "finished", "closed"]},
            "version": {"type": "integer"},
            "players": {
                "type": "array",
                "items": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            },
            "conceded": seats | {"description": "Seats that have left, in order."},
            "to_act": seats | {"description": "Seats that may act now."},
            "outcome": {
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {"scores": seats, "ranks": seats},
                        "required": ["scores", "ranks"],
                    },
                    {"type": "null"},
                ],
                "description": "Once finished: a score and a rank per seat (rank 1 wins).",
            },
            "table": {
                "anyOf": [*_refs([f"{n}.view" for n in names]), {"type": "null"}],
                "description": "The game's view (`<game>.view`); null in the lobby.",
            },
            "undo": {
                "anyOf": [{"type": "integer"}, {"type": "null"}],
                "description": "The seat that may take back its last move now (`match.undo`).",
            },
            "rematch": {
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {
                            "accepted": seats,
                            "declined": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                            "match_id": {"type": "string"},
                        },
                        "required": ["accepted", "declined", "match_id"],
                    },
                    {"type": "null"},
                ],
                "description": "A rematch on offer: who accepted, who declined, and once "
                "everyone accepted the new match's id.",
            },
            "rematch_of": {
                "type": "string",
                "description": "The match this one is the rematch of (empty if none).",
            },
        },
        "required": list(VIEW_KEYS),
    }


VIEW_KEYS = (
    "game",
    "status",
    "version",
    "players",
    "conceded",
    "to_act",
    "outcome",
    "table",
    "undo",
    "rematch",
    "rematch_of",
)


# --- the rules a client needs ---------------------------------------------------------------


def _pattern(key: str) -> str:
    """A key of partition 0 as the pattern the document writes (`tt:{p}:...`)."""
    return key.replace("{0}", "{p}")


def read_models() -> list[tuple[str, str, str]]:
    """(key, Redis type and fields, value) of every read model a client may read."""
    keys = Keys(0)
    return [
        (_pattern(keys.summary("{match_id}")), "string", "`Summary` (JSON)"),
        (
            _pattern(keys.views("{match_id}")),
            "hash; field `spectator` or a seat (`0`, `1`, ...)",
            "`MatchView` (JSON)",
        ),
        (
            _pattern(keys.lobby("{status}", "{game}")),
            "sorted set; status `lobby`, `playing` or `finished`; game a name or `*`",
            "match ids, scored by when (unix ms) they reached that status",
        ),
        (RATINGS.rating("{game}"), "hash; field the player", "`PlayerRating` (JSON)"),
        (RATINGS.board("{game}"), "sorted set", "players, scored by mu - 3 sigma"),
    ]


def _read_model_table() -> str:
    rows = [f"| `{k}` | {t} | {v} |" for k, t, v in read_models()]
    return "\n".join(["| key | Redis type | value |", "|---|---|---|", *rows])


def _partition_examples() -> str:
    # Written with zlib, not partition_of: the document states the function, the test
    # holds the code to it.
    return ", ".join(
        f"`{mid}` -> {zlib.crc32(mid.encode()) % DEFAULT_PARTITIONS}"
        for mid in ("m1", "doc-cli", "chicken-1")
    )


def _reused() -> str:
    """The rule for an id sent again with another body, once the service has it."""
    if "command_id_reused" not in {c.code for c in rejections.service_codes()}:
        return ""
    return (
        "\n  The same id with a different command (another body) is not a resend: it "
        "is\n  rejected with `command_id_reused` and appends nothing."
    )


def _limits() -> str:
    """The size limits of a command, when the service has them (`Limits`)."""
    limits = getattr(messages, "Limits", None)
    if limits is None:
        return ""
    rows = [f"  - `{f.name}`: {f.default:,}" for f in msgspec.structs.fields(limits)]
    return (
        "\n- Commands past these limits are rejected (`too_large` for the whole entry, "
        "`bad_field`\n  for one field; `*_bytes` count the JSON's bytes, `*_chars` "
        "characters):\n" + "\n".join(rows)
    )


def description() -> str:
    settings = Settings(redis_url="")
    example = _message("c5", _play("ann", "chicken.go_for_it"))
    stream = Keys(partition_of(example.match_id)).commands
    return f"""\
Redis Streams of the tabletop game server: how to play a match from any language.

## Sending a command

A command is one entry added to its partition's command stream, with a single field
`c` holding the JSON of a `CommandMessage`:

    XADD {stream} * c '{ENCODER.encode(example).decode()}'

Its reply is one entry added to the stream the command names in `reply_to`, with a
single field `r` holding the JSON of a `Reply`; read it with
`XREAD BLOCK 5000 STREAMS {example.reply_to} <the last entry id read, 0 at first>`.
docs/clients.md plays a whole match this way, with redis-cli and with the Python client.

## A match

1. `match.create` opens a table of a game with a number of seats and the game's options.
2. `match.join` seats a player (the first free seat, or the one asked for); `match.leave`
   frees it again while the match is in the lobby. A table closes (`match.closed`, status
   `closed`) when its last player leaves before the start, or when it has waited too
   long for players (the scheduler's `match.close`); nothing more happens at it.
3. `match.start`, sent by a seated player once every seat is taken, deals the table.
4. `match.play` carries one move of the game, for the player's seat, while it is that
   seat's turn (the view's `to_act`). `match.concede` leaves a match in play.
5. The match is over when a reply's (or the log's) events include `match.finished`, with
   a score and a rank per seat.

The reply to an accepted command carries the events it caused, as the sender's seat may
see them: a client can follow its match from its replies alone, or read the views.

## Partitions

A match lives in partition `p = crc32(match_id as UTF-8) mod P` (crc32 as in zlib,
unsigned). P is {DEFAULT_PARTITIONS} unless the server is run with `TABLETOP_PARTITIONS`,
and never changes for the life of the data. With P = {DEFAULT_PARTITIONS}:
{_partition_examples()}. `{{p}}` in a key is the partition number inside literal
braces, a Redis Cluster hash tag: match `{example.match_id}` is commanded on `{stream}`.

## Ids

- `match_id`: {ID.pattern} (1 to 128 letters, digits or `_.:-`), chosen by whoever
  creates the match; `match.create` on an id in use is rejected with `match_exists`,
  and a command whose match id or command id breaks the rule with `bad_id`.
- `command_id`: the same rule, unique within its match (a UUID's hex does). The server
  records every command id of a match with its reply, for the life of the match: the
  same id sent again to the same match appends nothing and answers status `duplicate`,
  repeating the first reply (`version`, `events`, or `code` and `message`) with
  `original_status` set to what it was. So a client whose reply was lost sends the same
  command with the same id again. Rejections are recorded too: a re-sent rejected
  command is a duplicate of its rejection.{_reused()}
- `reply_to` must start with `{REPLY_PREFIX}` (use one stream per client, e.g.
  `{REPLY_PREFIX}<client id>`). A command naming any other stream is never answered: it
  is kept in the partition's dead-letter stream `tt:{{p}}:dead` for an operator. Reply
  streams are capped at about {settings.reply_maxlen:,} entries (XADD MAXLEN ~); a
  client deletes its stream when it is done.
- Seats are numbered from 0 in JSON (in `seat`, `to_act`, `ranks` by position).{_limits()}

## Order

- The commands of one match are decided one at a time, in the order of their entries in
  the partition's command stream, and their replies are added in that order. One
  exception: commands a command service held when it died are taken over by another
  after {settings.claim_idle_ms // 1000} s of idleness and decided then, after commands
  that arrived later. A client that needs its own order waits for each reply before it
  sends the next command of that match.
- A reply may come twice for one command (a service died after appending, before
  acknowledging): the second says `duplicate`.
- A match's events have versions 1, 2, 3... without gaps, in the order they happened;
  one command's events are appended together or not at all. Nothing is ordered across
  matches, except that `tt:{{p}}:log` and `tt:{{p}}:public` keep the commit order of
  their partition.
- Each match is decided with optimistic concurrency: if another worker appended first,
  the command is decided again on the new state (up to {MAX_ATTEMPTS} times, then
  `busy`).

## Moves

`match.play` carries the game's own move in `move`, a JSON object tagged by `type`
(`<game>.moves` lists every move of each game with its fields). Rejected commands change
nothing; `RejectionCode` lists every code with its meaning. Events are the game's facts
(`<game>.events`), with every chance outcome in them.

## Read models

Kept by the projector from the partition logs, a little behind the replies:

{_read_model_table()}

A seat's view holds only what that seat may see; `spectator` what anyone may. Histories
are not stored: the gateway and `tabletop history` work each out from the match's events
for its reader.
"""


# --- the example exchange -------------------------------------------------------------------


class _Collect:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes]] = []

    async def send(self, replies: Sequence[tuple[str, bytes]]) -> None:
        self.sent += replies


def _message(cid: str, command: Any, reader: str = "ann") -> CommandMessage:
    return CommandMessage(
        command_id=cid, match_id="doc-cli", reply_to=reply_stream(reader), command=command
    )


def _play(player: str, move: str) -> m.PlayMove:
    return m.PlayMove(player=player, move=msgspec.Raw(ENCODER.encode({"type": move})))


EXAMPLE_COMMANDS = [
    ("create", "Open a 2-seat Chicken! table", _message("c1", m.CreateMatch("chicken", 2))),
    ("join", "Ann sits down", _message("c2", m.JoinMatch(player="ann"))),
    ("start", "Start with a fixed seed", _message("c4", m.StartMatch(player="ann", seed=7))),
    ("play", "A Chicken! move: Go For It", _message("c5", _play("ann", "chicken.go_for_it"))),
    ("concede", "Leave the match", _message("c9", m.Concede(player="bea"))),
]


def example_replies() -> list[tuple[str, str, Any]]:
    """A real exchange: the command service's own code, an in-memory store."""
    script = [
        _message("c1", m.CreateMatch("chicken", 2)),
        _message("c2", m.JoinMatch(player="ann")),
        _message("c3", m.JoinMatch(player="bea"), "bea"),
        _message("c4", m.StartMatch(player="ann", seed=7)),
        _message("c5", _play("ann", "chicken.go_for_it")),
        _message("c6", _play("bea", "chicken.go_for_it"), "bea"),
        _message("c5", _play("ann", "chicken.go_for_it")),
    ]
    sink = _Collect()
    # The page's seed fixes the rolls; only a trusted writer may choose one.
    processor = CommandProcessor(InMemoryStore(), sink, trust_seeds=True)

    async def run() -> None:
        for msg in script:
            stream = Keys(partition_of(msg.match_id)).dead
            await processor.handle_batch([{COMMAND_FIELD: ENCODER.encode(msg)}], stream)

    asyncio.run(run())
    replies = [json.loads(body) for _, body in sink.sent]
    return [
        ("accepted", "Ann's Go For It: the dice she rolled", replies[4]),
        ("rejected", "Bea moves out of turn", replies[5]),
        ("duplicate", "Ann's Go For It sent again with the same command_id", replies[6]),
    ]


def _command_examples() -> list[Schema]:
    return [
        {"name": name, "summary": summary, "payload": json.loads(ENCODER.encode(msg))}
        for name, summary, msg in EXAMPLE_COMMANDS
    ]


# --- the document ---------------------------------------------------------------------------


def build() -> dict[str, Any]:
    games = all_games()
    schemas = _core_schemas(games)
    for game in games:
        schemas |= _game_schemas(game)
    schemas = _draft07(schemas)

    def message(name: str, title: str, summary: str, **more: Any) -> dict[str, Any]:
        return {
            "name": name,
            "title": title,
            "summary": summary,
            "contentType": "application/json",
            "payload": {"$ref": f"{SCHEMAS}{name}"},
            **more,
        }

    def channel(address: str, description: str, msg: str, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "address": address,
            "description": description,
            "messages": {msg: {"$ref": f"#/components/messages/{msg}"}},
            "parameters": {k: {"$ref": f"#/components/parameters/{k}"} for k in params},
        }

    p = {"p": True}
    return {
        "asyncapi": "3.1.0",
        "info": {"title": "tabletop streams", "version": VERSION, "description": description()},
        "defaultContentType": "application/json",
        "channels": {
            "commands": channel(
                "tt:{p}:commands",
                f"Commands, one per entry in the field `{COMMAND_FIELD.decode()}`, for the "
                "matches of partition p; read by the command service through the consumer "
                "group tt-commands.",
                "CommandMessage",
                p,
            ),
            "replies": channel(
                "{reply_to}",
                f"The reply to each command, in the field `{REPLY_FIELD.decode()}`, on the "
                f"stream the command names (its name starts with {REPLY_PREFIX}).",
                "Reply",
                {"reply_to": True},
            ),
            "log": channel(
                "tt:{p}:log",
                "One entry per accepted command of the partition, in commit order, naming "
                "its events (match, first version, count, last type), which readers take "
                "from the match stream; internal readers only.",
                "LogEntry",
                p,
            ),
            "match": channel(
                "tt:{p}:match:{match_id}",
                "One match's events by version (entry id 0-<version>), each chained to its "
                "predecessor by hash and carrying its command: what replay and audit read. "
                "Hidden information included: internal readers only.",
                "MatchEntry",
                p | {"match_id": True},
            ),
            "public": channel(
                "tt:{p}:public",
                "Every event as a spectator may see it (field `e`), schema tabletop.public/1, "
                "in the partition's commit order; integrations read it with their own "
                "consumer groups.",
                "PublicEvent",
                p,
            ),
            "notices": channel(
                "tt:{p}:notices",
                "Notices to players (field `n`), schema tabletop.notice/1: your turn, match "
                "finished, rematch offered, time running low, for the matches of partition "
                "p; capped near 10,000 entries (MAXLEN ~). The gateway pushes each to its "
                "player's socket, the webhook sender reads it through the consumer group "
                "tt-webhooks, integrations with consumer groups of their own.",
                "Notice",
                p,
            ),
            "noticesDead": channel(
                "tt:{p}:notices:dead",
                "Notices the webhook sender gave up on after its tries: the notice (field "
                "`n`), the last error (`error`) and the number of tries (`tries`).",
                "Notice",
                p,
            ),
            "dead": channel(
                "tt:{p}:dead",
                "Commands that could not be answered, for an operator: unreadable or naming "
                "no tt:replies: stream (a DeadLetter in the field `r`), or delivered to "
                "failing workers too often (the command's own fields, `c`).",
                "DeadLetter",
                p,
            ),
        },
        "operations": {
            "sendCommand": {
                "action": "send",
                "channel": {"$ref": "#/channels/commands"},
                "summary": "XADD tt:{p}:commands * c <CommandMessage JSON>",
            },
            "receiveReply": {
                "action": "receive",
                "channel": {"$ref": "#/channels/replies"},
                "summary": "XREAD BLOCK <ms> STREAMS <reply_to> <last id>",
            },
            "followLog": {"action": "receive", "channel": {"$ref": "#/channels/log"}},
            "followPublic": {"action": "receive", "channel": {"$ref": "#/channels/public"}},
            "followNotices": {
                "action": "receive",
                "channel": {"$ref": "#/channels/notices"},
                "summary": "XREADGROUP GROUP <own group> <consumer> STREAMS tt:{p}:notices >",
            },
            "readDeadNotices": {
                "action": "receive",
                "channel": {"$ref": "#/channels/noticesDead"},
            },
            "readMatch": {"action": "receive", "channel": {"$ref": "#/channels/match"}},
            "readDeadLetters": {"action": "receive", "channel": {"$ref": "#/channels/dead"}},
        },
        "components": {
            "parameters": {
                "p": {
                    "description": "The match's partition, crc32(match_id) mod the partition "
                    f"count ({DEFAULT_PARTITIONS} by default), written in literal braces: "
                    "`{7}` for partition 7.",
                    "examples": ["{0}", "{7}"],
                },
                "match_id": {"description": f"The match id ({ID.pattern})."},
                "reply_to": {
                    "description": f"The command's reply_to, starting with {REPLY_PREFIX}.",
                    "examples": [f"{REPLY_PREFIX}ann"],
                },
            },
            "messages": {
                "CommandMessage": message(
                    "CommandMessage",
                    "A command",
                    "One command for one match.",
                    examples=_command_examples(),
                ),
                "Reply": message(
                    "Reply",
                    "A reply",
                    "accepted, rejected or duplicate.",
                    examples=[
                        {"name": n, "summary": s, "payload": payload}
                        for n, s, payload in example_replies()
                    ],
                ),
                "LogEntry": message("LogEntry", "A log entry", "One event, for projectors."),
                "MatchEntry": message("MatchEntry", "A match entry", "One stored event."),
                "PublicEvent": message("PublicEvent", "A public event", "One redacted event."),
                "Notice": message("Notice", "A notice", "One thing one player should hear."),
                "DeadLetter": message("DeadLetter", "A dead letter", "One unanswered command."),
            },
            "schemas": schemas,
        },
    }


def to_yaml(value: Any, indent: int = 0) -> str:
    """A small YAML writer for JSON-like data (strings quoted as JSON, which YAML reads)."""
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        lines = []
        for k, v in value.items():
            key = json.dumps(str(k))
            if isinstance(v, dict | list) and v:
                lines.append(f"{pad}{key}:\n{to_yaml(v, indent + 1)}")
            else:
                lines.append(f"{pad}{key}: {to_yaml(v, indent + 1)}")
        return "\n".join(lines)
    if isinstance(value, list):
        if not value:
            return "[]"
        lines = []
        for v in value:
            if isinstance(v, dict | list) and v:
                inner = to_yaml(v, indent + 1).lstrip()
                lines.append(f"{pad}- {inner}")
            else:
                lines.append(f"{pad}- {to_yaml(v, indent + 1)}")
        return "\n".join(lines)
    return json.dumps(value)


def render() -> str:
    return (
        "# Generated by `python -m services.contracts.asyncapi`; do not edit.\n"
        + to_yaml(build())
        + "\n"
    )


if __name__ == "__main__":
    from services.infra.logging import configure

    configure(level="WARNING")  # the example exchange logs its rejections at info
    print(render(), end="")
