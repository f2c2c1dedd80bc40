"""An async client for other Python services: send a command, await its reply.

Each client reads replies from a stream of its own (`tt:replies:<user>:<client id>`,
the user being the Redis user it logs in as: the shipped ACLs let each user read only
its own replies); a command's id makes it idempotent, so sending the same command again
after a lost reply is safe and answers `duplicate` with the original outcome.

A Redis restart costs no reply: the reader retries with backoff and reads its stream
on from the last id it saw, and every command still unanswered is sent again once the
server answers (a command lost with the last second of an `everysec` AOF is then
applied; one that was kept answers `duplicate`, with its first outcome).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from typing import Any, cast

import msgspec
import structlog
from redis.asyncio import Redis
from redis.exceptions import NoPermissionError

from domain import match as m
from domain.clock import TimeControl
from events.keys import DEFAULT_PARTITIONS, Keys, partition_of, reply_stream
from services.contracts.messages import ENCODER, REPLY_DECODER, CommandMessage, Reply
from services.infra.redisconn import GONE, StreamEntry, connect, reason, twin, username

log = structlog.get_logger("tabletop.client")
BACKOFF_FIRST, BACKOFF_MAX = 0.05, 2.0


class CommandRejected(Exception):
    def __init__(self, reply: Reply) -> None:
        super().__init__(f"{reply.code}: {reply.message}")
        self.reply = reply
        self.code = reply.code


class TabletopClient:
    def __init__(
        self,
        redis: Redis,
        *,
        partitions: int = DEFAULT_PARTITIONS,
        client_id: str | None = None,
        timeout: float = 30.0,
        pipelined: bool = False,
    ) -> None:
        self.redis = redis
        # Pipelined: commands sent while a batch is on its way go out together, in one
        # pipeline, the next time (what a gateway sending for many players wants: one
        # write for many XADDs, and no connection taken from the pool for each).
        self.pipelined = pipelined
        self._outbox: list[tuple[str, bytes, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.partitions = partitions
        user = username(redis)
        owner = f"{user}:" if user else ""
        self.reply_stream = reply_stream(f"{owner}{client_id or uuid.uuid4().hex}")
        self.timeout = timeout
        self._waiting: dict[str, asyncio.Future[Reply]] = {}
        # What each unanswered command was, to send it again after a reconnection.
        self._sent: dict[str, tuple[str, bytes]] = {}
        self.reconnections = 0
        self._reader: asyncio.Task[None] | None = None
        self._last_id = b"0-0"
        self._closing = False
        # Blocking reads get a connection pool of their own: cancelling one mid-read must
        # not leave a half-read connection in the pool that sends commands.
        self._listen: Redis = twin(redis)

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> TabletopClient:
        return cls(connect(url), **kwargs)

    async def __aenter__(self) -> TabletopClient:
        self._reader = asyncio.create_task(self._read_replies())
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._reader is not None:
            # The reader notices within one blocking read; cancelling a blocked read
            # instead can stall inside redis-py.
            self._closing = True
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._reader, timeout=5)
            self._reader = None
        await self._listen.aclose()
        try:
            await self.redis.delete(self.reply_stream)
        except NoPermissionError:
            # The shipped ACLs give clients no DEL (it would reach the command streams):
            # the stream stays, capped by the service's reply_maxlen.
            log.info("reply_stream_kept", stream=self.reply_stream)

    # --- the commands ----------------------------------------------------------------

    async def create(
        self,
        game: str,
        seats: int,
        options: dict[str, Any] | None = None,
        match_id: str = "",
        clock: TimeControl | None = None,
        unlisted: bool = False,
    ) -> str:
        match_id = match_id or uuid.uuid4().hex[:16]
        create = m.CreateMatch(
            game=game,
            seats=seats,
            options=options or {},
            clock=msgspec.UNSET if clock is None else clock,
            unlisted=True if unlisted else msgspec.UNSET,
        )
        await self.send(match_id, create)
        return match_id

    async def join(self, match_id: str, player: str, seat: int | None = None) -> Reply:
        return await self.send(match_id, m.JoinMatch(player=player, seat=seat))

    async def leave(self, match_id: str, player: str) -> Reply:
        return await self.send(match_id, m.LeaveMatch(player=player))

    async def start(self, match_id: str, player: str, seed: int | None = None) -> Reply:
        return await self.send(match_id, m.StartMatch(player=player, seed=seed))

    async def play(self, match_id: str, player: str, move: Any) -> Reply:
        raw = msgspec.Raw(ENCODER.encode(move))
        return await self.send(match_id, m.PlayMove(player=player, move=raw))

    async def concede(self, match_id: str, player: str) -> Reply:
        return await self.send(match_id, m.Concede(player=player))

    async def undo(self, match_id: str, player: str) -> Reply:
        """Take back the player's last move of this turn (`cannot_undo` where it stands)."""
        return await self.send(match_id, m.UndoMove(player=player))

    async def offer_rematch(self, match_id: str, player: str) -> Reply:
        """Offer the table of a finished match a rematch (the offer counts as accepting)."""
        return await self.send(match_id, m.OfferRematch(player=player))

    async def accept_rematch(self, match_id: str, player: str) -> Reply:
        return await self.send(match_id, m.AcceptRematch(player=player))

    async def decline_rematch(self, match_id: str, player: str) -> Reply:
        return await self.send(match_id, m.DeclineRematch(player=player))

    async def send(
        self, match_id: str, command: Any, *, command_id: str | None = None, check: bool = True
    ) -> Reply:
        """Send one command and await its reply; a rejection raises `CommandRejected`."""
        reply = await self.send_raw(match_id, command, command_id=command_id)
        if check and (reply.status == "rejected" or reply.original_status == "rejected"):
            raise CommandRejected(reply)
        return reply

    async def send_raw(
        self, match_id: str, command: Any, *, command_id: str | None = None
    ) -> Reply:
        message = CommandMessage(
            command_id=command_id or uuid.uuid4().hex,
            match_id=match_id,
            reply_to=self.reply_stream,
            command=command,
            sent_at=time.time(),
        )
        return await self.send_bytes(match_id, message.command_id, ENCODER.encode(message))

    async def send_bytes(self, match_id: str, command_id: str, body: bytes) -> Reply:
        """Put raw bytes on the command stream (tests use it for malformed commands)."""
        if self._reader is None:
            self._reader = asyncio.create_task(self._read_replies())
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._waiting[command_id] = future
        stream = Keys(partition_of(match_id, self.partitions)).commands
        self._sent[command_id] = (stream, body)
        try:
            # A timeout scope, not wait_for: no task of its own for every command.
            async with asyncio.timeout(self.timeout):
                return await self._send_and_wait(stream, body, future)
        finally:
            self._waiting.pop(command_id, None)
            self._sent.pop(command_id, None)

    async def _send_and_wait(
        self, stream: str, body: bytes, future: asyncio.Future[Reply]
    ) -> Reply:
        delay = BACKOFF_FIRST
        while True:
            try:
                if self.pipelined:
                    await self._queued(stream, body)
                else:
                    await self.redis.xadd(stream, {"c": body})
                break
            except GONE as err:
                # Sent or not, sending again is safe: the command id appends it once.
                log.info("command_send_retried", error=reason(err), retry_in=delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF_MAX)
        return await future

    def _queued(self, stream: str, body: bytes) -> asyncio.Future[None]:
        """The command joins the next pipeline; done once Redis has taken it."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outbox.append((stream, body, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        return done

    async def _flush(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for stream, body, _ in batch:
                        pipe.xadd(stream, {"c": body})
                    await pipe.execute()
            except Exception as err:  # each sender retries (or gives up) on its own
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(err)
                continue
            for _, _, done in batch:
                if not done.done():
                    done.set_result(None)

    async def _read_replies(self) -> None:
        delay = BACKOFF_FIRST
        resend_due = False
        while not self._closing:
            try:
                # RESP2: a [stream, entries] pair per stream with news.
                found = cast(
                    "list[tuple[bytes, list[StreamEntry]]]",
                    await self._listen.xread(
                        {self.reply_stream: self._last_id}, block=200, count=500
                    ),
                )
            except GONE as err:
                log.info("reply_reader_reconnecting", error=reason(err), retry_in=delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF_MAX)
                continue
            if delay > BACKOFF_FIRST:
                # Back after an outage: whatever is still unanswered may have been lost
                # with the server's last writes. Its command id makes sending it safe.
                delay = BACKOFF_FIRST
                self.reconnections += 1
                resend_due = True
            for _stream, entries in found or []:
                for entry_id, fields in entries:
                    self._last_id = entry_id
                    reply = REPLY_DECODER.decode(fields[b"r"])
                    future = self._waiting.get(reply.command_id)
                    if future is not None and not future.done():
                        future.set_result(reply)
            if resend_due:  # after the replies just read: those need no second sending
                resend_due = not await self._send_again()

    async def _send_again(self) -> bool:
        """Send every unanswered command again; whether that went through."""
        unanswered = [
            sent
            for cid, sent in self._sent.items()
            if (waiting := self._waiting.get(cid)) is not None and not waiting.done()
        ]
        log.info("commands_sent_again", count=len(unanswered))
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for stream, body in unanswered:
                    pipe.xadd(stream, {"c": body})
                await pipe.execute()
        except GONE as err:  # a connection the restart closed: again after the next read
            log.info("commands_send_again_failed", error=reason(err))
            return False
        return True
