"""Table chat: the players seated at a match talk; whoever may watch the table reads.

A line is said through one Lua script on the partition's two chat keys
(events/keys.py): it is appended to the partition's chat stream, which every gateway
process follows (services/gateway/hub.py) to push it to the sockets of its match, and
kept among the match's latest lines, which a socket gets on connect. The stream entry's
id is the line's id, so a socket that reads the latest lines and then hears the same
line pushed sends it once.

Chat is not part of a match's record: no event, no replay, no audit. It leaves Redis
with the match when the archiver takes it (services/archiver/archive.lua). A line says
what its writer typed and nothing the rules hide: the gateway adds only the seat and
the name the table shows.
"""

from __future__ import annotations

import contextlib
import unicodedata
from typing import Annotated, Any, Protocol, cast

import msgspec
import structlog
from litestar import Request, WebSocket, delete, get, post, websocket
from litestar.datastructures import State
from litestar.exceptions import ClientException, NotFoundException, PermissionDeniedException
from litestar.params import Parameter
from redis.asyncio import Redis
from redis.typing import EncodableT

from events.keys import Keys, partition_of
from events.matches import load_match
from events.store import EventStore
from services.gateway import contract, tables
from services.gateway.hub import Read, StreamHub
from services.gateway.limits import Limits
from services.gateway.sockets import GONE, Admitting, admitted, forward, refuse
from services.gateway.tokens import Player
from services.infra import metrics

MAX_CHARS = 300  # the longest line
RECENT = 50  # the lines a match keeps, and a socket gets on connect
STREAM_CAP = 10_000  # lines a partition's chat stream keeps for the followers
log = structlog.get_logger("gateway.chat")

SAY_LUA = """
-- KEYS[1] the partition's chat stream  KEYS[2] its hash of each match's latest lines
-- ARGV[1] match id  ARGV[2] the line (JSON)  ARGV[3] lines a match keeps
-- ARGV[4] entries the stream keeps (about)
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '*', 'm', ARGV[1], 'c', ARGV[2])
local kept = redis.call('HGET', KEYS[2], ARGV[1])
local lines = kept and cjson.decode(kept) or {}
lines[#lines + 1] = {id, ARGV[2]}
while #lines > tonumber(ARGV[3]) do table.remove(lines, 1) end
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(lines))
return id
"""

UNSAY_LUA = """
-- KEYS[1] the partition's chat stream  KEYS[2] its hash of each match's latest lines
-- ARGV[1] match id  ARGV[2] the line's id  ARGV[3] entries the stream keeps (about)
-- Returns 1, or 0 when the match keeps no such line.
local kept = redis.call('HGET', KEYS[2], ARGV[1])
if not kept then return 0 end
local lines = cjson.decode(kept)
local left = {}
for _, line in ipairs(lines) do
  if line[1] ~= ARGV[2] then left[#left + 1] = line end
end
if #left == #lines then return 0 end
-- An empty Lua table would be written as {}, not []: no lines, no field.
if #left == 0 then
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(left))
end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'm', ARGV[1], 'x', ARGV[2])
return 1
"""


class ChatLine(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One line said at a table."""

    id: str = ""
    """The chat stream's entry id: lines are in the order of their ids."""
    at: int = 0
    """When it was said, ms since the epoch (Redis's clock)."""
    match_id: str
    seat: int
    """The writer's seat, from 0."""
    player: str
    name: str
    """The writer's name as the table shows it."""
    text: str


class Removed(msgspec.Struct):
    """A line the platform took back: every socket of its table drops it."""

    id: str


class ChatBody(msgspec.Struct, forbid_unknown_fields=True):
    text: Annotated[str, msgspec.Meta(max_length=4 * MAX_CHARS)]
    """What to say: at most 300 characters once line breaks and control characters
    are spaces and the ends trimmed."""


def stored(entry_id: str, raw: bytes | str) -> ChatLine:
    """A line as kept (without its id and time), given the entry id it was kept under."""
    line = msgspec.json.decode(raw, type=ChatLine)
    return msgspec.structs.replace(line, id=entry_id, at=int(entry_id.split("-", 1)[0]))


# Characters that turn the text after them around: a line could seem to say what it
# does not ("Trojan source").
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def cleaned(text: str) -> str:
    """One line of text: control characters and line breaks are spaces, runs of spaces
    one, the ends trimmed; direction overrides, private and unassigned characters go.
    Joiners stay, which emoji need."""
    kept = []
    for c in text:
        kind = unicodedata.category(c)
        if kind in ("Cc", "Zl", "Zp"):
            kept.append(" ")
        elif c not in BIDI and kind not in ("Cs", "Co", "Cn"):
            kept.append(c)
    return " ".join("".join(kept).split())


class ChatHub(StreamHub[ChatLine | Removed]):
    """Follows the chat streams from the moment it starts; queues each new line, and
    each line taken back, for the sockets of its match."""

    logger = "gateway.chat"
    failed_event = "chat_read_failed"

    def stream(self, p: int) -> str:
        return Keys(p).chat

    async def take(self, found: Read) -> None:
        for _, entries in found:
            for entry_id, fields in entries:
                match_id = fields[b"m"].decode()
                if not self.followed(match_id):
                    continue
                if b"x" in fields:
                    self.publish(match_id, Removed(fields[b"x"].decode()))
                    continue
                try:
                    line = stored(entry_id.decode(), fields[b"c"])
                except (KeyError, msgspec.DecodeError, ValueError):
                    self.log.warning("chat_line_unreadable", entry=entry_id.decode())
                    continue
                self.publish(match_id, line)


class Chat:
    """Says and reads the lines of a match."""

    def __init__(self, redis: Redis, store: EventStore, hub: ChatHub) -> None:
        self.redis = redis
        self.store = store
        self.hub = hub
        self.partitions = store.partitions
        self.lines = Limits(0.5, 5, what="chat lines")
        self._say = redis.register_script(SAY_LUA)
        self._unsay = redis.register_script(UNSAY_LUA)

    def _keys(self, match_id: str) -> Keys:
        return Keys(partition_of(match_id, self.partitions))

    async def say(self, line: ChatLine) -> ChatLine:
        keys = self._keys(line.match_id)
        args: list[EncodableT] = [line.match_id, msgspec.json.encode(line), RECENT, STREAM_CAP]
        entry_id: Any = await self._say(keys=[keys.chat, keys.chat_recent], args=args)
        entry = entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
        return msgspec.structs.replace(line, id=entry, at=int(entry.split("-", 1)[0]))

    async def take_back(self, match_id: str, line_id: str) -> bool:
        """Remove a line from the match's latest and from its sockets; False when the
        match keeps no such line."""
        keys = self._keys(match_id)
        args: list[EncodableT] = [match_id, line_id, STREAM_CAP]
        return bool(await self._unsay(keys=[keys.chat, keys.chat_recent], args=args))

    async def recent(self, match_id: str) -> list[ChatLine]:
        raw: Any = await self.redis.hget(self._keys(match_id).chat_recent, match_id)
        if raw is None:
            return []
        kept = msgspec.json.decode(raw, type=list[tuple[str, str]])
        return [stored(entry_id, body) for entry_id, body in kept]


class _Gateway(Admitting, Protocol):
    """What these routes use of services.gateway.app.Gateway."""

    store: EventStore
    names: tables.NameBook
    chat: Chat | None

    def platform(self, given: str | None) -> None: ...


def _chat(state: State) -> tuple[_Gateway, Chat]:
    gw = cast(_Gateway, state.gateway)
    if gw.chat is None:
        raise NotFoundException("Table chat is off here.")
    return gw, gw.chat


async def _seated(gw: _Gateway, match_id: str, me: Player) -> tuple[int | None, list[str]]:
    """The caller's seat at the match (None: not seated) and the names the table shows."""
    found = await load_match(gw.store, match_id)
    if found is None:
        raise NotFoundException(f"There is no match {match_id}.")
    players = found.state.players
    return tables.seat_of(found.state, me.id), await gw.names.of(players)


@get("/api/matches/{match_id:str}/chat", responses=contract.READS_MATCH)
async def read_chat(state: State, me: Player, match_id: contract.MatchIdPath) -> list[ChatLine]:
    """The match's latest lines of chat (up to 50), oldest first: anyone who may watch
    the table reads them."""
    gw, chat = _chat(state)
    await _seated(gw, match_id, me)
    return await chat.recent(match_id)


@post("/api/matches/{match_id:str}/chat", status_code=201, responses=contract.SENDS)
async def say(state: State, me: Player, match_id: contract.MatchIdPath, data: ChatBody) -> ChatLine:
    """Say a line at the table: only the players seated there may, before, during and
    after the match. Pushed to every socket of the match's chat."""
    gw, chat = _chat(state)
    text = cleaned(data.text)
    if not text:
        raise ClientException("Say something: the line is empty.")
    if len(text) > MAX_CHARS:
        raise ClientException(f"A line of chat holds at most {MAX_CHARS} characters.")
    seat, names = await _seated(gw, match_id, me)
    if seat is None:
        raise PermissionDeniedException("Only the players seated at this table may talk here.")
    chat.lines.check(me.id)
    line = await chat.say(
        ChatLine(match_id=match_id, seat=seat, player=me.id, name=names[seat], text=text)
    )
    metrics.count(metrics.CHAT_LINES, "said")
    log.info("chat_line_said", match_id=match_id, player=me.id, chars=len(text))
    return line


@delete(
    "/api/matches/{match_id:str}/chat/{line_id:str}",
    status_code=204,
    responses=contract.refusals(400, 401, 404),
)
async def take_back(
    state: State,
    request: Request[Any, Any, Any],
    match_id: contract.MatchIdPath,
    line_id: Annotated[
        str, Parameter(pattern=r"^[0-9]{1,20}-[0-9]{1,20}$", description="The line's id.")
    ],
) -> None:
    """The platform takes a line back (a moderator's call; header `X-Gateway-Secret`):
    gone from the table's latest lines, and from every page showing it."""
    gw, chat = _chat(state)
    gw.platform(request.headers.get("x-gateway-secret"))
    if not await chat.take_back(match_id, line_id):
        raise NotFoundException(f"The table {match_id} keeps no line {line_id}.")
    metrics.count(metrics.CHAT_LINES, "taken_back")
    log.info("chat_line_taken_back", match_id=match_id, line=line_id)


@websocket("/api/matches/{match_id:str}/chat/live")
async def live_chat(socket: WebSocket[Any, Any, Any], match_id: str) -> None:
    """The match's latest lines on connect (`{"kind": "hello", "lines": [...]}`), then
    each new one as it is said (`{"kind": "line", "line": {...}}`) and each one the
    platform takes back (`{"kind": "removed", "id": ...}`). Signed in as
    sockets.py says; closed 4404 when there is no such match or chat is off."""
    gw = cast(_Gateway, socket.app.state.gateway)
    async with admitted(socket, gw) as me:
        if me is None:
            return
        if gw.chat is None or await load_match(gw.store, match_id) is None:
            why = "Table chat is off here." if gw.chat is None else f"There is no match {match_id}."
            await refuse(socket, why, 4404)
            return
        await _follow(socket, gw.chat, match_id)


async def _follow(socket: WebSocket[Any, Any, Any], chat: Chat, match_id: str) -> None:
    with chat.hub.subscribe(match_id) as heard:
        backlog = await chat.recent(match_id)
        # A line said between the subscription and the read comes twice: once in the
        # backlog, once from the hub.
        sent = {line.id for line in backlog}

        async def push(news: ChatLine | Removed) -> None:
            if isinstance(news, Removed):
                await _send(socket, {"kind": "removed", "id": news.id})
            elif news.id not in sent:
                await _send(socket, {"kind": "line", "line": news})

        with contextlib.suppress(*GONE):
            await _send(socket, {"kind": "hello", "lines": backlog})
            await forward(socket, heard, push)


async def _send(socket: WebSocket[Any, Any, Any], message: dict[str, Any]) -> None:
    await socket.send_data(msgspec.json.encode(message).decode(), mode="text")


ROUTES = [read_chat, say, take_back, live_chat]
