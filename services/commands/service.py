"""The command service: a FastStream app with one batch subscriber per partition.

The handler only hands the batch's raw entries to `CommandProcessor.handle_batch`;
FastStream acks the batch once it returns (an exception leaves it pending, and the
claimer below picks it up again). Consumer groups are created here at start-up from
id 0, never by FastStream (which would create them at `$` and miss earlier commands).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypedDict, cast

import structlog
from faststream import AckPolicy
from faststream.redis import RedisBroker, StreamSub
from redis.asyncio import Redis
from redis.exceptions import ResponseError
from redis.typing import StreamIdT

from events.keys import Keys
from events.store import EventStore
from services.commands.application import CommandProcessor
from services.infra.config import Settings
from services.infra.redisconn import StreamEntry

log = structlog.get_logger("tabletop.commands")


class PendingEntry(TypedDict):
    """One row of XPENDING's extended form, as redis-py parses it."""

    message_id: bytes
    consumer: bytes
    time_since_delivered: int
    times_delivered: int


class RedisReplies:
    """Replies (and dead letters) are stream entries; reply streams are capped, events never."""

    def __init__(self, redis: Redis, maxlen: int) -> None:
        self.redis = redis
        self.maxlen = maxlen

    async def send(self, replies: Sequence[tuple[str, bytes]]) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream, body in replies:
                pipe.xadd(stream, {"r": body}, maxlen=self.maxlen, approximate=True)
            await pipe.execute()


async def keep_raw(message: Any, original: Callable[[Any], Awaitable[Any]]) -> Any:
    """FastStream would decode every entry (and choke on bytes that are not UTF-8); the
    handler decodes strictly itself, so the parser passes the raw entries through."""
    parsed = await original({**message, "data": []})
    parsed.raw_message = message
    return parsed


async def entries(message: Any, original: Callable[[Any], Awaitable[Any]]) -> Any:
    """The body the handler gets: the batch's raw entries, decoded by the handler."""
    return message.raw_message["data"]


async def create_groups(redis: Redis, settings: Settings) -> None:
    for p in range(settings.partitions):
        with contextlib.suppress(ResponseError):  # BUSYGROUP: it exists already
            await redis.xgroup_create(Keys(p).commands, settings.group, id="0", mkstream=True)


class CommandService:
    """The broker, its subscribers, and the claimer of abandoned commands.

    Built by the composition root (`services.compose.command_service`), which hands it
    its Redis client, its store and the application layer."""

    def __init__(
        self, settings: Settings, redis: Redis, store: EventStore, processor: CommandProcessor
    ) -> None:
        self.settings = settings
        self.redis = redis
        self.store = store
        self.processor = processor
        # apply_types=False: the handler takes the raw entries; FastStream's dependency
        # injection would otherwise run a sync call in a worker thread for every batch.
        # logger=None turns FastStream's logging off; its RedisBrokerParams leaves None out.
        self.broker = RedisBroker(settings.redis_url, logger=cast(Any, None), apply_types=False)
        self._claimer: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        for p in settings.owned:
            self._subscribe(p)

    def _subscribe(self, p: int) -> None:
        keys = Keys(p)
        sub = StreamSub(
            keys.commands,
            group=self.settings.group,
            consumer=self.settings.consumer,
            batch=True,
            max_records=self.settings.batch_size,
            polling_interval=self.settings.polling_ms,
        )

        @self.broker.subscriber(
            stream=sub, ack_policy=AckPolicy.REJECT_ON_ERROR, parser=keep_raw, decoder=entries
        )
        async def on_commands(batch: list[dict[bytes, bytes]]) -> None:
            await self.processor.handle_batch(batch, keys.dead)

    async def start(self) -> None:
        await self.create_groups()
        await self.broker.start()
        await self.start_claimer()

    async def stop(self) -> None:
        await self.stop_claimer()
        await self.broker.stop()
        await self.redis.aclose()

    async def create_groups(self) -> None:
        """Before the broker starts: FastStream would create missing groups at `$`."""
        await create_groups(self.redis, self.settings)

    async def start_claimer(self) -> None:
        self._claimer = asyncio.create_task(self._claim_forever())
        log.info("command_service_started", consumer=self.settings.consumer)

    async def stop_claimer(self) -> None:
        if self._claimer is not None:
            # Woken between passes, not cancelled inside a redis-py call.
            self._stopping.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._claimer, timeout=10)
            self._claimer = None

    async def _claim_forever(self) -> None:
        while not self._stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._stopping.wait(), timeout=self.settings.claim_idle_ms / 2000
                )
            if self._stopping.is_set():
                return
            try:
                for p in self.settings.owned:
                    await self.claim(p)
            except Exception as err:  # keep claiming; the next pass retries
                log.warning("claim_failed", error=repr(err))

    async def claim(self, p: int, min_idle_ms: int | None = None) -> int:
        """Take over commands left pending by a dead worker; dead-letter the poison ones."""
        keys = Keys(p)
        idle = self.settings.claim_idle_ms if min_idle_ms is None else min_idle_ms
        pending = cast(
            "list[PendingEntry]",
            await self.redis.xpending_range(
                keys.commands, self.settings.group, min="-", max="+", count=500, idle=idle
            ),
        )
        if not pending:
            return 0
        poison = [
            e["message_id"] for e in pending if e["times_delivered"] >= self.settings.max_deliveries
        ]
        # StreamIdT: xclaim takes a list of them, and list is invariant.
        claim: list[StreamIdT] = [e["message_id"] for e in pending if e["message_id"] not in poison]
        for entry_id in poison:
            found = cast(
                "list[StreamEntry]",
                await self.redis.xrange(keys.commands, min=entry_id, max=entry_id),
            )
            for _, fields in found:
                await self.redis.xadd(keys.dead, {k: v for k, v in fields.items()})
            await self.redis.xack(keys.commands, self.settings.group, entry_id)
            log.error("command_dead_lettered", entry_id=entry_id.decode())
        if claim:
            # An id whose entry was deleted meanwhile comes back as (None, None).
            claimed = cast(
                "list[tuple[bytes | None, dict[bytes, bytes] | None]]",
                await self.redis.xclaim(
                    keys.commands, self.settings.group, self.settings.consumer, idle, claim
                ),
            )
            entries = [fields for _, fields in claimed if fields]
            if entries:
                await self.processor.handle_batch(entries, keys.dead)
            await self.redis.xack(keys.commands, self.settings.group, *claim)
            log.info("commands_claimed", partition=p, count=len(claim))
        return len(claim) + len(poison)
