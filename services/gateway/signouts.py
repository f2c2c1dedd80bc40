"""Ended sign-ins: one token, or every token of a player's issued before a time, refused
from then on.

A token holds for twelve hours, and a platform that bans a player, a player whose token
was copied, or one signing out of a shared computer, cannot wait that long. Ending a
sign-in appends one entry to a Redis stream (`GATEWAY.signouts`; its id is the time, on
Redis's clock) that every gateway process follows each second from where it last read,
so a second's work is the second's new entries however many players signed out today.
An entry names a player (`p`) and, to end one sign-in alone, that sign-in's id (`s`, a
digest of its token: what Redis keeps is no token); without one it ends every token of
the player's issued before it. An ended token is refused (401) and the sockets opened
with it are closed (4401). Each append trims the entries older than the tokens'
lifetime, which end nothing any more.
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
from redis.typing import EncodableT, FieldT

from events.keys import GATEWAY
from services.gateway.tokens import ENDED

log = structlog.get_logger("gateway")


READ_AT_ONCE = 1000
SignIn = tuple[int, str]  # when a token was issued (ms), and its sign-in's id


def now_ms() -> int:
    return int(time.time() * 1000)


def _ms(entry: bytes | str) -> int:
    """The time of a stream entry (its id's first part, ms)."""
    text = entry.decode() if isinstance(entry, bytes) else entry
    return int(text.split("-", 1)[0])


class Signouts:
    def __init__(self, redis: Redis, keep_seconds: int, every: float = 1.0) -> None:
        self.redis = redis
        self.keep_ms = keep_seconds * 1000
        self.every = every
        self._ended: dict[str, int] = {}  # player: when all their sign-ins were ended
        self._ended_one: dict[str, int] = {}  # sign-in: when it alone was ended
        self._read_to = ""  # the last entry id read ("": nothing yet)
        # Each player's open sockets, with the sign-in each was opened with.
        self._sockets: dict[str, dict[WebSocket[Any, Any, Any], SignIn]] = {}
        self._task: asyncio.Task[None] | None = None

    def ended(self, player_id: str, issued_ms: int, sign_in: str = "") -> bool:
        """Whether a token of this player's, issued then (of that sign-in id), was ended
        since."""
        return issued_ms <= self._ended.get(player_id, -1) or sign_in in self._ended_one

    async def end(self, player_id: str, sign_in: str = "") -> int:
        """End one sign-in of the player's (its id), or every one so far (""), in every
        gateway process (within a second in the others); when, in ms."""
        fields: dict[FieldT, EncodableT] = {"p": player_id}
        if sign_in:
            fields["s"] = sign_in
        # The entry's id is the time: Redis's clock, the same for every process.
        entry = await self.redis.xadd(
            GATEWAY.signouts,
            fields,
            minid=str(max(0, now_ms() - self.keep_ms)),
            approximate=False,
        )
        at = _ms(entry)
        await self._learn(player_id, at, sign_in)
        log.info("signins_ended", player=player_id, ended_at=at, one=bool(sign_in))
        return at

    @contextlib.contextmanager
    def watching(
        self, player_id: str, sign_in: SignIn, socket: WebSocket[Any, Any, Any]
    ) -> Iterator[None]:
        """The socket is closed if the sign-in it was opened with is ended."""
        held = self._sockets.setdefault(player_id, {})
        held[socket] = sign_in
        try:
            yield
        finally:
            held.pop(socket, None)
            if not held:
                self._sockets.pop(player_id, None)

    async def refresh(self) -> None:
        """The sign-ins ended since the last read, by any process."""
        stale = now_ms() - self.keep_ms
        while True:
            start = f"({self._read_to}" if self._read_to else str(max(0, stale))
            entries = cast(
                list[tuple[bytes, dict[bytes, bytes]]],
                await self.redis.xrange(GATEWAY.signouts, min=start, count=READ_AT_ONCE),
            )
            for entry, fields in entries:
                self._read_to = entry.decode()
                one = fields.get(b"s", b"").decode()
                await self._learn(fields[b"p"].decode(), _ms(entry), one)
            if len(entries) < READ_AT_ONCE:
                break
        # A token ended that long ago has expired since: nothing is left to refuse.
        for kept in (self._ended, self._ended_one):
            for gone in [k for k, at in kept.items() if at < stale]:
                del kept[gone]

    async def _learn(self, player_id: str, at: int, sign_in: str = "") -> None:
        if sign_in:
            if sign_in in self._ended_one:
                return
            self._ended_one[sign_in] = at
        elif at <= self._ended.get(player_id, -1):
            return
        else:
            self._ended[player_id] = at
        for socket, (issued, one) in list(self._sockets.get(player_id, {}).items()):
            if (one == sign_in) if sign_in else (issued <= at):
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
