"""Ended sign-ins: a player's tokens issued before a time are refused from then on.

A token holds for twelve hours, and a platform that bans a player, or a player whose
token was copied, cannot wait that long. Ending a player's sign-ins records the time in
one Redis hash (`GATEWAY.signouts`) that every gateway process reads each second: a
token issued before it is refused (401), and the player's open sockets whose tokens
were issued before it are closed (4401). An entry older than the tokens' lifetime ends
nothing any more, and is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from typing import Any, cast

import structlog
from litestar import WebSocket
from redis.asyncio import Redis

from events.keys import GATEWAY
from services.gateway.tokens import ENDED

log = structlog.get_logger("gateway")


def now_ms() -> int:
    return int(time.time() * 1000)


class Signouts:
    def __init__(self, redis: Redis, keep_seconds: int, every: float = 1.0) -> None:
        self.redis = redis
        self.keep_ms = keep_seconds * 1000
        self.every = every
        self._ended: dict[str, int] = {}
        self._sockets: dict[str, dict[WebSocket[Any, Any, Any], int]] = {}
        self._task: asyncio.Task[None] | None = None

    def ended(self, player_id: str, issued_ms: int) -> bool:
        """Whether a token of this player's, issued then, was ended since."""
        return issued_ms <= self._ended.get(player_id, -1)

    async def end(self, player_id: str) -> int:
        """End every sign-in of the player's so far, in every gateway process (within
        a second in the others); when, in ms."""
        at = now_ms()
        await self.redis.hset(GATEWAY.signouts, player_id, at)
        await self._learn(player_id, at)
        log.info("signins_ended", player=player_id, ended_at=at)
        return at

    @contextlib.contextmanager
    def watching(
        self, player_id: str, issued_ms: int, socket: WebSocket[Any, Any, Any]
    ) -> Iterator[None]:
        """The socket is closed if the sign-in it was opened with is ended."""
        held = self._sockets.setdefault(player_id, {})
        held[socket] = issued_ms
        try:
            yield
        finally:
            held.pop(socket, None)
            if not held:
                self._sockets.pop(player_id, None)

    async def refresh(self) -> None:
        """What every process has ended, read again; the stale entries dropped."""
        found = cast(dict[bytes, bytes], await self.redis.hgetall(GATEWAY.signouts))
        stale = now_ms() - self.keep_ms
        old = [player for player, at in found.items() if int(at) < stale]
        if old:
            await self.redis.hdel(GATEWAY.signouts, *old)
        for player, at in found.items():
            if int(at) >= stale:
                await self._learn(player.decode(), int(at))
        for gone in [p for p, at in self._ended.items() if at < stale]:
            del self._ended[gone]

    async def _learn(self, player_id: str, at: int) -> None:
        if at <= self._ended.get(player_id, -1):
            return
        self._ended[player_id] = at
        for socket, issued in list(self._sockets.get(player_id, {}).items()):
            if issued <= at:
                with contextlib.suppress(Exception):  # gone already
                    await socket.close(code=4401, reason=ENDED)

    def start(self) -> None:
        self._task = asyncio.create_task(self._follow())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _follow(self) -> None:
        while True:
            try:
                await self.refresh()
            except Exception:  # Redis away a moment: the next round reads again
                log.warning("signouts_unread", exc_info=True)
            await asyncio.sleep(self.every)
