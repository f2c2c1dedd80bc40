"""A player's own side of async play: the matches where it is their turn, their latest
notices, and a WebSocket that pushes each new one (services/readside/notices.py makes
them).

Every partition's notice stream is followed (services/gateway/hub.py), each new notice
queued for the sockets of its player; a socket skips by id what it has sent already.
"""

from __future__ import annotations

import contextlib
from typing import Any, Protocol, cast

import msgspec
from litestar import WebSocket, get, websocket
from litestar.datastructures import State

from events.keys import Keys
from services.gateway import contract
from services.gateway.hub import Read, StreamHub
from services.gateway.sockets import GONE, Admitting, admitted, forward
from services.gateway.tables import NameBook
from services.gateway.tokens import Player
from services.readside.notices import decode_entry
from services.readside.readmodels import ReadModels
from services.readside.schema import Notice

BACKLOG = 20  # the latest notices a socket gets on connect


class NoticeHub(StreamHub[Notice]):
    """Follows the notice streams from the moment it starts; queues each new notice for
    every socket of its player."""

    logger = "gateway.notices"
    failed_event = "notice_read_failed"

    def stream(self, p: int) -> str:
        return Keys(p).notices

    async def take(self, found: Read) -> None:
        for stream, entries in found:
            for _, fields in entries:
                notice = decode_entry(fields)
                if notice is None:
                    self.log.warning("notice_unreadable", stream=stream.decode())
                    continue
                self.publish(notice.player, notice)


class TurnRow(msgspec.Struct):
    """A match waiting for the caller to act."""

    match_id: str
    game: str
    title: str
    names: list[str]
    version: int
    since: int  # when the turn came to the caller (ms since the epoch)


class _Gateway(Admitting, Protocol):
    """What these routes use of services.gateway.app.Gateway."""

    names: NameBook
    read_models: ReadModels
    notices: NoticeHub


def _gateway(state: State) -> _Gateway:
    return cast(_Gateway, state.gateway)


@get("/api/me/turns", responses=contract.SIGNED)
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


@get("/api/me/notices", responses=contract.SIGNED)
async def my_notices(state: State, me: Player) -> list[Notice]:
    """The caller's latest notices, oldest first."""
    gw = _gateway(state)
    return await spoken(gw.names, await gw.read_models.inbox(me.id, BACKLOG))


async def spoken(names: NameBook, notices: list[Notice]) -> list[Notice]:
    """The notices as a player reads them: whoever one names by id (`by`, the player
    who offered a rematch) named by their display name, as the tables name them."""
    ids = [n.by for n in notices if n.by]
    if not ids:
        return notices
    named = dict(zip(ids, await names.named(ids), strict=True))
    return [
        msgspec.structs.replace(n, text=named[n.by] + n.text[len(n.by) :])
        if n.by and n.text.startswith(n.by)
        else n
        for n in notices
    ]


@websocket("/api/me/notices/live")
async def live_notices(socket: WebSocket[Any, Any, Any]) -> None:
    """The caller's latest notices on connect (`{"kind": "hello", "notices": [...]}`),
    then each new one as it is made (`{"kind": "notice", "notice": {...}}`). Signed in
    as sockets.py says (subprotocols `tabletop`, `bearer.<token>`)."""
    gw = _gateway(socket.app.state)
    async with admitted(socket, gw) as me:
        if me is not None:
            await _notify(socket, gw, me)


async def _notify(socket: WebSocket[Any, Any, Any], gw: _Gateway, me: Player) -> None:
    with gw.notices.subscribe(me.id) as news:
        backlog = await spoken(gw.names, await gw.read_models.inbox(me.id, BACKLOG))
        # A notice made between the subscription and the inbox read comes twice: once in
        # the backlog, once from the hub. The hub itself hands each notice over once.
        sent = {notice.id for notice in backlog}

        async def push(notice: Notice) -> None:
            if notice.id not in sent:
                (said,) = await spoken(gw.names, [notice])
                await _send(socket, {"kind": "notice", "notice": said})

        with contextlib.suppress(*GONE):
            await _send(socket, {"kind": "hello", "player": me.id, "notices": backlog})
            await forward(socket, news, push)


async def _send(socket: WebSocket[Any, Any, Any], message: dict[str, Any]) -> None:
    await socket.send_data(msgspec.json.encode(message).decode(), mode="text")


ROUTES = [my_turns, my_notices, live_notices]
