"""A WebSocket's way in, shared by the match and notice sockets: accepted first (so a
refusal reaches the browser as a close code and a reason, not as an HTTP 403), signed
in, then admitted under the player's limits (limits.py).

The token comes in a header, never in the address: an address is what proxies and load
balancers write to their access logs, and a token there would stay readable for as
long as it holds. A browser cannot set `Authorization` on a WebSocket, but it can offer
subprotocols: it offers `tabletop` and `bearer.<token>` (a JWT is made of characters a
subprotocol may hold) and the gateway answers `tabletop`, never echoing the token.
Other clients may send `Authorization: Bearer <token>`. A socket with `?token=` is
refused unread (4401), unless the operator lets the address in for a client that can
do neither (`TABLETOP_TOKEN_IN_ADDRESS=on`): then each such socket is a warning in the
log naming its player, so those clients can be found; docs/gateway.md says why not."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar, cast

import structlog
from litestar import WebSocket
from litestar.exceptions import WebSocketDisconnect

from services.gateway.feeds import ENCODER, LiveError
from services.gateway.signouts import Signouts
from services.gateway.tokens import BadToken, Player, Tokens, bearer
from services.infra import metrics

# The client has gone: a read says so with WebSocketDisconnect, a send with an OSError
# (what the ASGI spec asks a server to raise; uvicorn's ClientDisconnected is one). An
# ordinary end of a socket, never an error to log.
GONE = (WebSocketDisconnect, OSError)
log = structlog.get_logger("gateway")
Item = TypeVar("Item")

PROTOCOL = "tabletop"
"""The subprotocol a browser offers beside its token, and the one the gateway answers."""
OFFERED_TOKEN = "bearer."
IN_ADDRESS = "Send the token as a subprotocol or an Authorization header, not in the address."


class Admitting(Protocol):
    """What a socket's admission uses of services.gateway.app.Gateway."""

    tokens: Tokens
    signouts: Signouts

    @property
    def token_in_address(self) -> bool: ...

    def admit(self, player: str) -> AbstractContextManager[str]: ...


@contextlib.asynccontextmanager
async def admitted(socket: WebSocket[Any, Any, Any], gw: Admitting) -> AsyncIterator[Player | None]:
    """The socket's player, held admitted for the block; None once the socket has been
    closed with why (4401: no good token; 4429: too fast, or too many sockets)."""
    offered = [p.strip() for p in socket.headers.get("sec-websocket-protocol", "").split(",")]
    await socket.accept(subprotocols=PROTOCOL if PROTOCOL in offered else None)
    token = next(
        (p[len(OFFERED_TOKEN) :] for p in offered if p.startswith(OFFERED_TOKEN)), None
    ) or bearer(socket.headers.get("authorization"))
    in_address = not token and "token" in socket.query_params
    if in_address and not gw.token_in_address:
        await socket.close(code=4401, reason=IN_ADDRESS)
        log.warning("socket_token_in_address_refused", path=socket.url.path)
        yield None
        return
    if in_address:
        token = socket.query_params.get("token")
    try:
        me = gw.tokens.read(token)
    except BadToken as err:
        await socket.close(code=4401, reason=_reason(str(err)))
        yield None
        return
    if in_address:
        log.warning("socket_token_in_address", player=me.id, path=socket.url.path)
    issued, one = gw.tokens.sign_in(cast(str, token))
    with gw.admit(me.id) as refused:
        if refused:
            await refuse(socket, refused, 4429)
            yield None
            return
        # Counted among the open sockets of its kind while it lasts (inline: a context
        # manager of its own would be one more frame each open socket holds).
        open_now = metrics.SOCKETS.labels(_kind(socket.url.path))
        open_now.inc()
        try:
            with gw.signouts.watching(me.id, (issued, one), socket):
                yield me
        finally:
            open_now.dec()


def _kind(path: str) -> str:
    return "chat" if path.endswith("/chat/live") else "notices" if "/me/" in path else "match"


async def forward(
    socket: WebSocket[Any, Any, Any],
    queue: asyncio.Queue[Item],
    send: Callable[[Item], Awaitable[None]],
) -> None:
    """Hand each item put on `queue` to `send`, until the client goes."""
    closed = asyncio.create_task(until_closed(socket))
    try:
        while not closed.done():
            getter = asyncio.create_task(queue.get())
            done, _ = await asyncio.wait({getter, closed}, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
                break
            await send(getter.result())
    except GONE:
        pass
    finally:
        closed.cancel()


async def until_closed(socket: WebSocket[Any, Any, Any]) -> None:
    """Read until the client goes: it has nothing to say, so what it sends is dropped."""
    with contextlib.suppress(*GONE, Exception):
        while True:
            await socket.receive_data(mode="text")


async def refuse(socket: WebSocket[Any, Any, Any], message: str, code: int) -> None:
    """Say why in an error message, then close with `code` and the same reason."""
    with contextlib.suppress(WebSocketDisconnect, Exception):
        await socket.send_data(ENCODER.encode(LiveError(message=message)).decode())
        await socket.close(code=code, reason=_reason(message))


def _reason(message: str) -> str:
    """A close reason: at most 123 bytes of UTF-8, cut whole characters."""
    return message.encode()[:120].decode(errors="ignore")
