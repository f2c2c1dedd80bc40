"""Live events: one blocking read over every partition log per gateway process, fanned
out to the WebSockets following each match.

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
from events.redis_store import entry_to_envelope

log = structlog.get_logger("gateway.live")


class LiveHub:
    """Follows the partition logs from the moment it starts; queues each new envelope
    for every subscriber of its match."""

    def __init__(self, redis: Redis, partitions: int, block_ms: int = 500) -> None:
        self.redis = redis  # a client of its own: it blocks
        self.partitions = partitions
        self.block_ms = block_ms
        self._subscribers: dict[str, set[asyncio.Queue[Envelope]]] = {}
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.ready = asyncio.Event()

    @property
    def watching(self) -> int:
        return sum(len(s) for s in self._subscribers.values())

    async def start(self) -> None:
        positions: dict[Any, Any] = {}
        for p in range(self.partitions):
            # The last entry now: "$" would be re-read as "now" at every call.
            last: Any = await self.redis.xrevrange(Keys(p).log, count=1)
            positions[Keys(p).log] = last[0][0].decode() if last else "0-0"
        self._task = asyncio.create_task(self._follow(positions))
        self.ready.set()

    async def stop(self) -> None:
        self._stopping = True  # noticed within one blocking read
        if self._task is not None:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._task, timeout=5)
        await self.redis.aclose()

    @property
    def running(self) -> bool:
        """Following the logs (started, and its task has not ended)."""
        return self._task is not None and not self._task.done()

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
            for stream, entries in found or []:
                for entry_id, fields in entries:
                    positions[stream.decode()] = entry_id.decode()
                    match_id = fields[b"m"].decode()
                    queues = self._subscribers.get(match_id)
                    if queues:
                        envelope = entry_to_envelope(match_id, entry_id, fields)
                        for queue in queues:
                            queue.put_nowait(envelope)
