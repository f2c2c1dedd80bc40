"""The command service: a FastStream app with one batch subscriber per partition.

The handler only hands the batch's raw entries to `CommandProcessor.handle_batch`;
FastStream acks the batch once it returns (an exception leaves it pending, and the
claimer below picks it up again). Consumer groups are created here at start-up from
id 0, never by FastStream (which would create them at `$` and miss earlier commands).
A group found gone while reading (the stream deleted, the group destroyed) is made
again at 0 too; a trimmer removes the entries every group has acknowledged.
FastStream's own records go through structlog.

Recovery: every worker writes a heartbeat (Redis's own clock, so hosts' clocks do not
matter) into one hash per group every `heartbeat_ms`. A worker silent for
`heartbeat_stale_ms` is dead: the first live worker to notice claims its pending
commands (XCLAIM with a minimum idle time, so two rescuers never take the same one)
and runs them; their command ids make a second run answer `duplicate` and append
nothing. A heartbeat is a hash field, not a key with a TTL: setting a TTL takes SET or
PEXPIRE, which Redis 6.2's ACLs cannot keep off the event keys (deploy/users.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict, TypeVar, cast

import msgspec
import structlog
from faststream import AckPolicy
from faststream.redis import RedisBroker, StreamSub
from faststream.redis.broker.cluster_broker import RedisClusterBroker
from redis.asyncio import Redis
from redis.exceptions import ResponseError
from redis.typing import StreamIdT

from events.keys import Keys, heartbeats
from events.store import EventStore
from services.commands.application import Ack, Batch, CommandProcessor, as_duplicate
from services.commands.intake import Refusal, read_entry
from services.contracts.messages import ENCODER, REPLY_DECODER, Reply
from services.contracts.replies import full_reply
from services.infra import metrics
from services.infra.config import Settings
from services.infra.redisconn import (
    GONE,
    RETRY_ON,
    ClusterAddress,
    StreamEntry,
    is_cluster_url,
    reason,
)

log = structlog.get_logger("tabletop.commands")
TRIM_LUA = (Path(__file__).parent / "trim.lua").read_text()

# Writes this worker's heartbeat (ARGV[1]; '' writes none) and returns Redis's clock in
# ms with every worker's last heartbeat, in one round trip.
HEARTBEAT_LUA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if ARGV[1] ~= '' then redis.call('HSET', KEYS[1], ARGV[1], now) end
return {now, redis.call('HGETALL', KEYS[1])}
"""
# A dead worker's consumer is removed from the group once it has had nothing pending
# for this long (the group would otherwise list every worker that ever ran).
FORGET_AFTER_MS = 600_000


class ConsumerInfo(TypedDict):
    """One row of XINFO CONSUMERS, as redis-py parses it."""

    name: bytes
    pending: int
    idle: int


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

    async def send(self, replies: Sequence[tuple[str, bytes]], acks: Sequence[Ack] = ()) -> None:
        """Every reply is tried; one that Redis refuses (a key of another type, a stream
        at its last possible id) is logged and the others still go. A lost connection
        raises: the batch is then not acknowledged and is answered again later. `acks`
        go last in the same pipeline, so Redis acknowledges after the replies; one it
        refuses leaves its entries pending, to be claimed and answered `duplicate`."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream, body in replies:
                pipe.xadd(stream, {"r": body}, maxlen=self.maxlen, approximate=True)
            for ack in acks:
                pipe.xack(ack.stream, ack.group, *ack.ids)
            results = await pipe.execute(raise_on_error=False)
        for (stream, body), result in zip(replies, results, strict=False):
            if isinstance(result, ResponseError):
                log.warning("reply_failed", stream=stream, error=str(result), **_ids(body))
        for ack, result in zip(acks, results[len(replies) :], strict=True):
            if isinstance(result, ResponseError):
                log.warning("ack_failed", stream=ack.stream, error=str(result), size=len(ack.ids))


def _ids(reply: bytes) -> dict[str, str]:
    """The match and command a failed reply was about (a dead letter names none)."""
    try:
        found = REPLY_DECODER.decode(reply)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return {}
    return {"match_id": found.match_id, "command_id": found.command_id}


RETRIED = frozenset({"Message fetch error"})
"""FastStream records after which its subscriber simply reads again."""
CHATTER = ("callback for ",)
"""FastStream's info records about its own tasks ("callback for Task-26 is being
executed..." whenever a read loop ends): debug lines here."""


class FastStreamLog:
    """FastStream's own records (fetch errors, a handler's exception, a subscriber
    stopping) as structlog events, like every other line the service writes."""

    def __init__(self) -> None:
        self._log = structlog.get_logger("faststream")

    def log(
        self,
        level: int,
        msg: Any,
        /,
        *,
        exc_info: Any = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        fields = {k: v for k, v in (extra or {}).items() if v}
        if exc_info:
            fields["exc_info"] = exc_info
        if level == logging.INFO and str(msg).startswith(CHATTER):
            level = logging.DEBUG
        if str(msg) in RETRIED and level > logging.WARNING:
            # FastStream reads again by itself (a Redis restart, a read cut by shutdown):
            # worth a warning with its reason, not an error an operator must act on.
            level = logging.WARNING
        self._log.log(level, "faststream", message=str(msg), **fields)


async def recreate_group(redis: Redis, stream: str, group: str, error: str) -> None:
    """Make a lost consumer group again, from id 0, and say so.

    From 0, not `$`: entries added after a deleted stream came back (clients went on
    sending) are read, none lost; entries still in a stream whose group alone was
    destroyed are read again, and their command ids make each apply once (a second
    delivery answers `duplicate`). Trimming keeps that re-read short."""
    try:
        await redis.xgroup_create(stream, group, id="0", mkstream=True)
    except ResponseError as err:
        if "BUSYGROUP" in str(err):
            return  # another worker made it first
        raise
    log.warning("command_group_recreated", stream=stream, group=group, error=error)


def _group_lost(err: ResponseError) -> bool:
    # NOGROUP: no group or no stream; Redis 7 also unblocks a read whose stream is deleted.
    text = str(err)
    return "NOGROUP" in text or "no longer exists" in text


async def keep_raw(message: Any, original: Callable[[Any], Awaitable[Any]]) -> Any:
    """FastStream would decode every entry (and choke on bytes that are not UTF-8); the
    handler decodes strictly itself, so the parser passes the raw entries through."""
    parsed = await original({**message, "data": []})
    parsed.raw_message = message
    return parsed


async def entries(message: Any, original: Callable[[Any], Awaitable[Any]]) -> Any:
    """The body the handler gets: the batch's raw entries (decoded by the handler) and
    their ids (acknowledged by the handler)."""
    raw = message.raw_message
    return RawBatch(entries=raw["data"], ids=raw["message_ids"])


class RawBatch(msgspec.Struct, frozen=True):
    """One read of a command stream, as it came."""

    entries: list[dict[bytes, bytes]]
    ids: list[bytes]


def _settle(
    waiting: asyncio.Future[list[int]],
    failed: list[int] | None = None,
    error: Exception | None = None,
) -> None:
    """Answer a handed-over batch's handler, unless it stopped waiting (cancelled)."""
    if waiting.done():
        return
    if error is not None:
        waiting.set_exception(error)
    else:
        waiting.set_result(failed or [])


_STEADY: dict[type, type] = {}
Sub = TypeVar("Sub")


def steady(subscriber: Sub) -> Sub:
    """The subscriber, its subscription worked out once. FastStream 0.7 deep-copies its
    `StreamSub` (to add the broker's prefix) on every access, two or three times a read:
    26 µs each here, 160 idle reads a second for 16 partitions. The prefix and the
    subscription never change once the subscriber is made, so the first copy serves."""
    cls = type(subscriber)
    made = _STEADY.get(cls)
    if made is None:
        # A property (faststream 0.7; a test fails if it is not).
        worked_out = cast(Any, cls).stream_sub.fget

        def stream_sub(self: Any) -> Any:
            return worked_out(self)

        # No new slots, so an instance may change to it; cached in the instance's dict.
        attrs = {"__slots__": (), "stream_sub": functools.cached_property(stream_sub)}
        made = _STEADY[cls] = type(f"Steady{cls.__name__}", (cls,), attrs)
    subscriber.__class__ = made
    return subscriber


async def create_groups(redis: Redis, settings: Settings) -> None:
    for p in range(settings.partitions):
        with contextlib.suppress(ResponseError):  # BUSYGROUP: it exists already
            await redis.xgroup_create(Keys(p).commands, settings.group, id="0", mkstream=True)


def make_broker(url: str) -> RedisBroker:
    """FastStream's broker for one server, or its cluster broker for a `redis+cluster://`
    URL (whose subscribers read each partition's stream from the node owning its slot;
    it takes no FastStream pipelines, and the service uses none)."""
    common: dict[str, Any] = {
        "logger": FastStreamLog(),
        "log_level": logging.DEBUG,
        "apply_types": False,
    }
    if is_cluster_url(url):
        address = ClusterAddress(url)
        (host, port), *_ = address.nodes
        return RedisClusterBroker(
            f"redis://{host}:{port}",
            startup_nodes=address.nodes,
            **address.options(),
            **common,
        )
    return RedisBroker(url, retry_on_error=RETRY_ON, **common)


class CommandService:
    """The broker, its subscribers, the heartbeat, and the claimer of abandoned commands.

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
        # Its per-message records ("Received", "Processed") are debug lines here.
        # retry_on_error: a connection a Redis restart closed is retried once on a new one.
        self.broker = make_broker(settings.redis_url)
        self._trim = self.redis.register_script(TRIM_LUA)
        self._trimmer: asyncio.Task[None] | None = None
        self._claimer: asyncio.Task[None] | None = None
        self._beater: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self._heartbeat = self.redis.register_script(HEARTBEAT_LUA)
        self.takeovers = 0  # commands taken over from dead workers (tests, the soak)
        self._arrived: list[tuple[Batch, asyncio.Future[list[int]]]] = []
        self._runners: set[asyncio.Task[None]] = set()
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

        # MANUAL: the handler acknowledges, retrying through a Redis restart like the
        # batch itself. FastStream's own ack, tried once after the handler, would fail
        # while Redis is away and leave answered commands pending until the idle retry.
        # A handler that raises acknowledges nothing: the batch stays pending.
        subscriber = steady(
            self.broker.subscriber(
                stream=sub, ack_policy=AckPolicy.MANUAL, parser=keep_raw, decoder=entries
            )
        )

        @subscriber
        async def on_commands(batch: RawBatch) -> None:
            # Acknowledged with the replies. A command that failed alone stays pending:
            # retried after claim_idle_ms, dead-lettered (and answered so) after
            # max_deliveries.
            await self.hand_over(
                Batch(batch.entries, keys.dead, Ack(keys.commands, self.settings.group, batch.ids))
            )

        # FastStream stops a subscriber for good when its group is gone (NOGROUP) and
        # ends its app; this one makes the group again and reads on. `_get_msgs` is
        # the subscriber's fetch step (faststream 0.7; a test fails if it moves).
        fetch = subscriber._get_msgs

        async def fetch_or_regroup(*args: Any) -> None:
            try:
                await fetch(*args)
            except ResponseError as err:
                if not _group_lost(err):
                    raise
                await recreate_group(self.redis, keys.commands, self.settings.group, str(err))

        subscriber._get_msgs = fetch_or_regroup  # type: ignore[method-assign,assignment]

    async def run_batch(
        self, batch: list[dict[bytes, bytes]], dead_stream: str, ack: Ack | None = None
    ) -> list[int]:
        """Run a batch; if Redis went away meanwhile, run it again once it is back.
        Left pending instead, it would wait for the idle retry (claim_idle_ms); run
        again, what was appended answers `duplicate` with its first reply. Returns the
        indices of the entries that failed alone (not to be acknowledged)."""
        [failed] = await self.run_batches([Batch(batch, dead_stream, ack)])
        return failed

    async def run_batches(self, batches: Sequence[Batch]) -> list[list[int]]:
        """`run_batch` for several partitions' batches at once, as one."""
        delay = 0.05
        while True:
            try:
                return await self.processor.handle_batches(batches)
            except GONE as err:
                if self._stopping.is_set():
                    raise
                size = sum(len(b.entries) for b in batches)
                log.warning("batch_retried", error=reason(err), size=size, retry_in=delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)

    async def hand_over(self, batch: Batch) -> list[int]:
        """Have a partition's batch run, with every other batch that arrives while the
        one before is running: one decision round, one append pipeline, one round trip
        for all their replies and acknowledgements. Returns once it is answered (or
        raises as `run_batch` would), so FastStream reads that partition again only then.

        Each partition's read under a light or middling load brings a command or two,
        and a batch's round trips and bookkeeping cost about as much as its commands:
        run together, they are paid once. Runners are tasks of their own, so no
        subscriber is kept from reading its own partition by running others'.

        Up to `settings.runners` at once (two by default): while one run waits on Redis
        for its appends and replies, the next decides, where one runner left the service
        idle for a third of a busy run. Runs never share a match: a match belongs to one
        partition, and a partition has one batch in flight at a time."""
        waiting: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
        self._arrived.append((batch, waiting))
        if len(self._runners) < self.settings.runners:
            self._runners.add(asyncio.create_task(self._run_arrived()))
        return await waiting

    async def _run_arrived(self) -> None:
        try:
            while self._arrived:
                taken, self._arrived = self._arrived, []
                await self._run_together(taken)
        finally:
            # No await between the last look at `_arrived` and this: a batch handed
            # over meanwhile finds a runner slot free.
            self._runners.discard(cast("asyncio.Task[None]", asyncio.current_task()))

    async def _run_together(self, taken: list[tuple[Batch, asyncio.Future[list[int]]]]) -> None:
        try:
            results = await self.run_batches([batch for batch, _ in taken])
        except asyncio.CancelledError:
            for _, waiting in taken:
                waiting.cancel()
            raise
        except Exception as err:
            if len(taken) == 1:
                _settle(taken[0][1], error=err)
                return
            # One batch's trouble must not fail the others: each again on its own (what
            # was appended already answers `duplicate`).
            for batch, waiting in taken:
                try:
                    [alone] = await self.run_batches([batch])
                except Exception as again:
                    _settle(waiting, error=again)
                else:
                    _settle(waiting, alone)
            return
        for (_, waiting), failed in zip(taken, results, strict=True):
            _settle(waiting, failed)

    async def start(self) -> None:
        await self.create_groups()
        await self.learn_cluster()
        await self.broker.start()
        await self.start_claimer()

    async def learn_cluster(self) -> None:
        """On a cluster, have the broker's client learn the slots before its subscribers
        read at once (redis-py 8.1 fails concurrent first commands; see redisconn)."""
        if isinstance(self.broker, RedisClusterBroker):
            client: Any = await self.broker.connect()
            await client.initialize()

    async def stop(self) -> None:
        await self.stop_claimer()
        await self.stop_subscribers()
        await self.broker.stop()
        await self.redis.aclose()

    async def stop_subscribers(self) -> None:
        """Stop reading and wait until every read loop has ended, before the broker
        closes its connections. FastStream's own stop waits for a batch in hand (its
        graceful timeout) but only cancels the read loops: one still inside a read
        would otherwise wake on a closed connection, or after the event loop is gone."""
        loops = [task for sub in self.broker.subscribers for task in getattr(sub, "tasks", ())]
        for sub in self.broker.subscribers:
            await sub.stop()
        if loops:
            await asyncio.wait(loops, timeout=10)
        if self._runners:
            # A run in flight (its handlers perhaps cancelled with the read loops) ends,
            # acknowledging what it answered, before the connections close.
            await asyncio.wait(set(self._runners), timeout=10)

    async def create_groups(self) -> None:
        """Before the broker starts: the groups (FastStream would create missing ones at
        `$`); this worker's first heartbeat, so no rescuer takes it for dead once it
        reads; and what its consumer name left pending in a previous life."""
        await create_groups(self.redis, self.settings)
        await self.beat()
        await self.recover_own()

    async def start_claimer(self) -> None:
        self._beater = asyncio.create_task(self._beat_forever())
        self._claimer = asyncio.create_task(self._claim_forever())
        self._trimmer = asyncio.create_task(self._trim_forever())
        log.info("command_service_started", consumer=self.settings.consumer)

    async def stop_claimer(self) -> None:
        # Woken between passes, not cancelled inside a redis-py call.
        self._stopping.set()
        for task in (self._trimmer, self._claimer, self._beater):
            if task is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(task, timeout=10)
        self._trimmer = self._claimer = self._beater = None
        # A clean stop says so: anything still pending here is taken over at once.
        with contextlib.suppress(Exception):
            await self.redis.hset(heartbeats(self.settings.group), self.settings.consumer, 0)

    async def _sleep(self, seconds: float) -> bool:
        """Sleep unless stopping; whether to go on."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), timeout=seconds)
        return not self._stopping.is_set()

    async def _beat_forever(self) -> None:
        while await self._sleep(self.settings.heartbeat_ms / 1000):
            try:
                await self.beat()
            except Exception as err:  # Redis restarting: beat again, backing off
                log.warning("heartbeat_failed", error=reason(err))
                await self._sleep(1.0)

    async def trim(self, p: int) -> int:
        """Remove the partition's command entries every group has acknowledged."""
        stream = Keys(p).commands
        removed = int(await self._trim(keys=[stream]))
        if removed:
            metrics.TRIMMED.labels("commands").inc(removed)
            log.debug("commands_trimmed", partition=p, count=removed)
        return removed

    async def _trim_forever(self) -> None:
        while not self._stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._stopping.wait(), timeout=self.settings.trim_every_ms / 1000
                )
            if self._stopping.is_set():
                return
            for p in self.settings.owned:
                try:
                    await self.trim(p)
                except Exception as err:  # the next pass tries again
                    log.warning("trim_failed", partition=p, error=reason(err))

    async def _claim_forever(self) -> None:
        last_idle_pass = time.monotonic()
        # Each pass looks for dead workers; commands of live workers left pending by a
        # failed batch are retried far less often (claim_idle_ms).
        while await self._sleep(self.settings.heartbeat_ms / 1000):
            try:
                await self.rescue()
                if time.monotonic() - last_idle_pass >= self.settings.claim_idle_ms / 2000:
                    last_idle_pass = time.monotonic()
                    for p in self.settings.owned:
                        await self.claim(p)
            except Exception as err:  # keep claiming; the next pass retries
                log.warning("claim_failed", error=reason(err))
                await self._sleep(1.0)

    async def beat(self, consumer: str | None = None) -> tuple[int, dict[str, int]]:
        """Write this worker's heartbeat; Redis's clock (ms) and every worker's last one."""
        name = self.settings.consumer if consumer is None else consumer
        raw = cast(
            "list[Any]",
            await self._heartbeat(keys=[heartbeats(self.settings.group)], args=[name]),
        )
        now, flat = int(raw[0]), raw[1]
        beats = {flat[i].decode(): int(flat[i + 1]) for i in range(0, len(flat), 2)}
        return now, beats

    async def recover_own(self) -> int:
        """Commands this consumer name left pending in a previous life (a restarted
        container keeps its name, and a live name is never rescued by others)."""
        done = 0
        for p in range(self.settings.partitions):
            done += await self._take_over(p, self.settings.consumer, min_idle_ms=0)
        return done

    async def rescue(self) -> int:
        """Take over the pending commands of every worker whose heartbeat stopped, in
        every partition (a dead worker may have been the only one on its partitions)."""
        now, beats = await self.beat(consumer="")
        stale = self.settings.heartbeat_stale_ms
        live = {name for name, at in beats.items() if now - at < stale}
        live.add(self.settings.consumer)
        async with self.redis.pipeline(transaction=False) as pipe:
            for p in range(self.settings.partitions):
                pipe.xinfo_consumers(Keys(p).commands, self.settings.group)
            found = await pipe.execute(raise_on_error=False)
        done = 0
        for p, consumers in enumerate(found):
            if isinstance(consumers, Exception):
                continue  # NOGROUP: nobody has read this partition yet
            rows = cast("list[ConsumerInfo]", consumers)
            if p in self.settings.owned:
                metrics.PENDING.labels(str(p)).set(sum(c["pending"] for c in rows))
            for consumer in rows:
                name = consumer["name"].decode()
                if name in live:
                    continue
                if consumer["pending"]:
                    taken = await self._take_over(p, name, min_idle_ms=stale // 2)
                    if taken:
                        silent = now - beats.get(name, 0)
                        log.warning(
                            "commands_taken_over", partition=p, dead=name, count=taken,
                            silent_ms=silent if name in beats else None,
                        )  # fmt: skip
                    done += taken
                elif (
                    consumer["idle"] > FORGET_AFTER_MS
                    and now - beats.get(name, 0) > FORGET_AFTER_MS
                ):
                    await self.redis.xgroup_delconsumer(Keys(p).commands, self.settings.group, name)
        self.takeovers += done
        if done:
            metrics.TAKEOVERS.inc(done)
        return done

    async def _take_over(self, p: int, consumer: str, min_idle_ms: int) -> int:
        """Claim and run what `consumer` has pending in partition p, a batch at a time,
        in entry order (from past the last one seen: one that fails stays pending, and
        must not be read again here)."""
        done = 0
        after = "-"
        while True:
            pending = cast(
                "list[PendingEntry]",
                await self.redis.xpending_range(
                    Keys(p).commands,
                    self.settings.group,
                    min=after,
                    max="+",
                    count=self.settings.batch_size,
                    consumername=consumer,
                ),
            )
            if not pending:
                return done
            after = "(" + pending[-1]["message_id"].decode()
            taken = await self._claim_entries(p, pending, min_idle_ms)
            if taken == 0:  # another rescuer holds the rest
                return done
            done += taken

    async def claim(self, p: int, min_idle_ms: int | None = None) -> int:
        """Retry commands pending longer than `claim_idle_ms`, whoever holds them (a
        batch that failed); dead-letter the poison ones."""
        idle = self.settings.claim_idle_ms if min_idle_ms is None else min_idle_ms
        pending = cast(
            "list[PendingEntry]",
            await self.redis.xpending_range(
                Keys(p).commands, self.settings.group, min="-", max="+", count=500, idle=idle
            ),
        )
        return await self._claim_entries(p, pending, idle)

    async def _claim_entries(self, p: int, pending: list[PendingEntry], idle: int) -> int:
        """Claim these pending entries (those still idle `idle` ms: a rescuer that got
        there first has reset them), run them, ack what was claimed and did not fail."""
        if not pending:
            return 0
        keys = Keys(p)
        poison = [
            e["message_id"] for e in pending if e["times_delivered"] >= self.settings.max_deliveries
        ]
        # StreamIdT: xclaim takes a list of them, and list is invariant.
        claim: list[StreamIdT] = [e["message_id"] for e in pending if e["message_id"] not in poison]
        for entry_id in poison:
            await self._dead_letter(keys, entry_id)
        if claim:
            # An id whose entry was deleted meanwhile comes back as (None, None).
            claimed = cast(
                "list[tuple[bytes | None, dict[bytes, bytes] | None]]",
                await self.redis.xclaim(
                    keys.commands, self.settings.group, self.settings.consumer, idle, claim
                ),
            )
            found = [(entry_id, fields) for entry_id, fields in claimed if fields]
            failed: set[int] = set()
            if found:
                failed = set(await self.run_batch([f for _, f in found], keys.dead))
            kept = {found[i][0] for i in failed}
            # Only what this worker claimed: the rest is another rescuer's to ack.
            mine = [entry_id for entry_id, _ in claimed if entry_id is not None]
            done = [entry_id for entry_id in mine if entry_id not in kept]
            if done:
                await self.redis.xack(keys.commands, self.settings.group, *done)
                log.info("commands_claimed", partition=p, count=len(done))
            return len(mine) + len(poison)
        return len(poison)

    async def _dead_letter(self, keys: Keys, entry_id: bytes) -> None:
        """A command that failed `max_deliveries` times: kept in the partition's
        dead-letter stream for an operator, acknowledged, and its sender told: with its
        recorded reply if it was decided after all (a batch failing after its append),
        else `command_failed`."""
        found = cast(
            "list[StreamEntry]", await self.redis.xrange(keys.commands, min=entry_id, max=entry_id)
        )
        for _, fields in found:
            message = read_entry(fields, self.processor.limits)
            where = message.where if isinstance(message, Refusal) else message
            recorded = None
            if where is not None:
                try:
                    recorded = await self.store.reply_for(where.match_id, where.command_id)
                    if recorded is not None:
                        recorded = await full_reply(
                            self.store, where.match_id, where.command_id, recorded
                        )
                except GONE:
                    raise  # the next pass tries again
                except Exception:  # its match's keys may be what failed: none known
                    pass
            await self.redis.xadd(keys.dead, {k: v for k, v in fields.items()})
            ids = {"match_id": where.match_id, "command_id": where.command_id} if where else {}
            log.error(
                "command_dead_lettered",
                entry_id=entry_id.decode(),
                code="command_failed",
                reason=f"failed {self.settings.max_deliveries} times",
                recorded=recorded is not None,
                **ids,
            )
            if where is not None:
                reply = Reply(
                    command_id=where.command_id,
                    match_id=where.match_id,
                    status="rejected",
                    code="command_failed",
                    message=f"The service failed on this command {self.settings.max_deliveries} "
                    "times (its match's data could not be read or written); it was set aside "
                    "for an operator.",
                )
                body = as_duplicate(recorded) if recorded else ENCODER.encode(reply)
                await self.processor.replies.send([(where.reply_to, body)])
        await self.redis.xack(keys.commands, self.settings.group, entry_id)
