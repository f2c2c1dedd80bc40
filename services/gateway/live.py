"""Live events: one blocking read over every partition log per gateway process (one
per partition on a Redis Cluster), fanned out to the WebSockets following each match.

A socket subscribes before it reads the match from the store, then skips what it has
already sent by version: an event is either in the store when the socket reads it or
arrives through the hub after, so nothing is missed and nothing is sent twice.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any, cast

import structlog
from redis.asyncio import Redis

from events.envelope import Envelope
from events.keys import Keys
from events.redis_store import read_partitions_entries
from events.store import LogEntry, Skipped
from services.infra.redisconn import is_cluster

log = structlog.get_logger("gateway.live")


class LiveHub:
    """Follows the partition logs from the moment it starts; queues each new envelope
    for every subscriber of its match."""

    def __init__(self, redis: Redis, partitions: int, block_ms: int = 500) -> None:
        self.redis = redis  # a client of its own: it blocks
        self.partitions = partitions
        self.block_ms = block_ms
        self._subscribers: dict[str, set[asyncio.Queue[Envelope]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        self._partition: dict[bytes, int] = {}
        self.ready = asyncio.Event()

    @property
    def watching(self) -> int:
        return sum(len(s) for s in self._subscribers.values())

    async def start(self) -> None:
        positions: dict[Any, Any] = {}
        self._partition = {Keys(p).log.encode(): p for p in range(self.partitions)}
        for p in range(self.partitions):
            # The last entry now: "$" would be re-read as "now" at every call.
            last: Any = await self.redis.xrevrange(Keys(p).log, count=1)
            positions[Keys(p).log] = last[0][0].decode() if last else "0-0"
        if is_cluster(self.redis):
            # On a cluster one XREAD may only name streams of one slot, and each
            # partition is a slot of its own: one blocking reader per partition.
            readers = [{stream: at} for stream, at in positions.items()]
        else:
            readers = [positions]
        self._tasks = [asyncio.create_task(self._follow(reader)) for reader in readers]
        self.ready.set()

    async def stop(self) -> None:
        self._stopping = True  # noticed within one blocking read
        if self._tasks:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.gather(*self._tasks), timeout=5)
        await self.redis.aclose()

    @property
    def running(self) -> bool:
        """Following the logs (started, and none of its readers has ended)."""
        return bool(self._tasks) and not any(task.done() for task in self._tasks)

    @contextlib.contextmanager
    def subscribe(self, match_id: str) -> Iterator[asyncio.Queue[Envelope]]:
        queue: asyncio.Queue[Envelope] = asyncio.Queue()
        self._subscribers.setdefault(match_id, set()).add(queue)
        try:
            yield queue
        finally:
            found = self._subscribers.get(match_id)
            if found is not None:
                found.discard(queue)
                if not found:
                    del self._subscribers[match_id]

    async def _follow(self, positions: dict[Any, Any]) -> None:
        while not self._stopping:
            try:
                found = cast(
                    "list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]]",
                    await self.redis.xread(positions, block=self.block_ms, count=1000),
                )
            except Exception:  # a lost connection: log, wait, go on from the same place
                log.exception("live_read_failed")
                await asyncio.sleep(0.5)
                continue
            # The entries of matches followed here, every partition's at once: their
            # events are read in one round trip, not one per entry.
            followed: dict[int, list[tuple[bytes, dict[bytes, bytes]]]] = {}
            for stream, entries in found or []:
                for entry_id, fields in entries:
                    positions[stream.decode()] = entry_id.decode()
                    if self._subscribers.get(fields[b"m"].decode()):
                        followed.setdefault(self._partition[stream], []).append((entry_id, fields))
            if not followed:
                continue
            for read in (await self._events(followed)).values():
                for _, envelope in read:
                    if envelope is None:
                        continue
                    for queue in self._subscribers.get(envelope.match_id, ()):
                        queue.put_nowait(envelope)

    async def _events(
        self, followed: dict[int, list[tuple[bytes, dict[bytes, bytes]]]]
    ) -> dict[int, list[LogEntry | Skipped]]:
        """Log entries' events, read from their match streams (each entry names them);
        a lost read is tried again, so no subscriber misses one."""
        while True:
            try:
                return await read_partitions_entries(self.redis, followed, None)
            except Exception:
                log.exception("live_read_failed", entries=sum(map(len, followed.values())))
                if self._stopping:
                    return {}
                await asyncio.sleep(0.5)
