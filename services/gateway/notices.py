"""A player's own side of async play: the matches where it is their turn, their latest
notices, and a WebSocket that pushes each new one (services/readside/notices.py makes
them).

One blocking read over every partition's notice stream per gateway process (one per
partition on a Redis Cluster), fanned out to the sockets of each notice's player. A
socket subscribes before it reads the player's inbox, and skips by id what it has sent
already: a notice is in the inbox when the socket reads it or arrives through the hub
after, so none is missed and none is sent twice.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any, Protocol, cast

import msgspec
import structlog
from litestar import WebSocket, get, websocket
from litestar.datastructures import State
from litestar.exceptions import WebSocketDisconnect
from redis.asyncio import Redis

from events.keys import Keys
from services.gateway.tables import NameBook
from services.gateway.tokens import BadToken, Player, Tokens
from services.infra.redisconn import is_cluster
from services.readside.notices import decode_entry
from services.readside.readmodels import ReadModels
from services.readside.schema import Notice

log = structlog.get_logger("gateway.notices")
BACKLOG = 20  # the latest notices a socket gets on connect


class NoticeHub:
    """Follows the notice streams from the moment it starts; queues each new notice for
    every socket of its player."""

    def __init__(self, redis: Redis, partitions: int, block_ms: int = 500) -> None:
        self.redis = redis  # a client of its own: it blocks
        self.partitions = partitions
        self.block_ms = block_ms
        self._subscribers: dict[str, set[asyncio.Queue[Notice]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False

    async def start(self) -> None:
        positions: dict[Any, Any] = {}
        for p in range(self.partitions):
            last: Any = await self.redis.xrevrange(Keys(p).notices, count=1)
            positions[Keys(p).notices] = last[0][0].decode() if last else "0-0"
        # On a cluster one XREAD names streams of one slot: a reader per partition.
        readers = (
            [{stream: at} for stream, at in positions.items()]
            if is_cluster(self.redis)
            else [positions]
        )
        self._tasks = [asyncio.create_task(self._follow(reader)) for reader in readers]

    async def stop(self) -> None:
        self._stopping = True  # noticed within one blocking read
        if self._tasks:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.gather(*self._tasks), timeout=5)
        await self.redis.aclose()

    @property
    def running(self) -> bool:
        return bool(self._tasks) and not any(task.done() for task in self._tasks)

    @contextlib.contextmanager
    def subscribe(self, player: str) -> Iterator[asyncio.Queue[Notice]]:
        queue: asyncio.Queue[Notice] = asyncio.Queue()
        self._subscribers.setdefault(player, set()).add(queue)
        try:
            yield queue
        finally:
            found = self._subscribers.get(player)
            if found is not None:
                found.discard(queue)
                if not found:
                    del self._subscribers[player]

    async def _follow(self, positions: dict[Any, Any]) -> None:
        while not self._stopping:
            try:
                found = cast(
                    "list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]]",
                    await self.redis.xread(positions, block=self.block_ms, count=1000),
                )
            except Exception:  # a lost connection: log, wait, go on from the same place
                log.exception("notice_read_failed")
                await asyncio.sleep(0.5)
                continue
            for stream, entries in found or []:
                for entry_id, fields in entries:
                    positions[stream.decode()] = entry_id.decode()
                    notice = decode_entry(fields)
                    if notice is None:
                        log.warning("notice_unreadable", stream=stream.decode())
                        continue
                    for queue in self._subscribers.get(notice.player, ()):
                        queue.put_nowait(notice)


class TurnRow(msgspec.Struct):
    """A match waiting for the caller to act."""

    match_id: str
    game: str
    title: str
    names: list[str]
    version: int
    since: int  # when the turn came to the caller (ms since the epoch)


class _Gateway(Protocol):
    """What these routes use of services.gateway.app.Gateway."""

    tokens: Tokens
    names: NameBook
    read_models: ReadModels
    notices: NoticeHub


def _gateway(state: State) -> _Gateway:
    return cast(_Gateway, state.gateway)


@get("/api/me/turns")
async def my_turns(state: State, me: Player) -> list[TurnRow]:
    """The matches where it is the caller's turn, longest waiting first."""
    gw = _gateway(state)
    out = []
    for summary, since in await gw.read_models.turns(me.id):
        out.append(
            TurnRow(
                match_id=summary.match_id,
                game=summary.game,
                title=summary.title,
                names=await gw.names.of(summary.players),
                version=summary.version,
                since=since,
            )
        )
    return out


@get("/api/me/notices")
async def my_notices(state: State, me: Player) -> list[Notice]:
    """The caller's latest notices, oldest first."""
    return await _gateway(state).read_models.inbox(me.id, BACKLOG)


@websocket("/api/me/notices/live")
async def live_notices(socket: WebSocket[Any, Any, Any]) -> None:
    """The caller's latest notices on connect (`{"kind": "hello", "notices": [...]}`),
    then each new one as it is made (`{"kind": "notice", "notice": {...}}`). Sign in
    with `?token=` (a browser cannot set headers on a WebSocket)."""
    gw = _gateway(socket.app.state)
    await socket.accept()  # then a refusal can say why (a browser sees the close code)
    try:
        me = gw.tokens.read(socket.query_params.get("token"))
    except BadToken as err:
        await socket.close(code=4401, reason=str(err)[:120])
        return
    with gw.notices.subscribe(me.id) as news:
        backlog = await gw.read_models.inbox(me.id, BACKLOG)
        # A notice made between the subscription and the inbox read comes twice: once in
        # the backlog, once from the hub. The hub itself hands each notice over once.
        sent = {notice.id for notice in backlog}
        await _send(socket, {"kind": "hello", "player": me.id, "notices": backlog})
        closed = asyncio.create_task(_until_closed(socket))
        try:
            while not closed.done():
                getter = asyncio.create_task(news.get())
                done, _ = await asyncio.wait({getter, closed}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    break
                notice = getter.result()
                if notice.id in sent:
                    continue
                await _send(socket, {"kind": "notice", "notice": notice})
        except WebSocketDisconnect:
            pass
        finally:
            closed.cancel()


async def _until_closed(socket: WebSocket[Any, Any, Any]) -> None:
    with contextlib.suppress(WebSocketDisconnect, Exception):
        while True:
            await socket.receive_data(mode="text")


async def _send(socket: WebSocket[Any, Any, Any], message: dict[str, Any]) -> None:
    await socket.send_data(msgspec.json.encode(message).decode(), mode="text")


ROUTES = [my_turns, my_notices, live_notices]
