"""Live events: every partition log followed (services/gateway/hub.py), each new
envelope queued for the WebSockets following its match."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from events.envelope import Envelope
from events.keys import Keys
from events.redis_store import read_partitions_entries
from events.store import LogEntry, Skipped
from services.gateway.hub import Read, StreamHub


class LiveHub(StreamHub[Envelope]):
    """Follows the partition logs from the moment it starts; queues each new envelope
    for every subscriber of its match."""

    logger = "gateway.live"
    failed_event = "live_read_failed"

    def __init__(self, redis: Redis, partitions: int, block_ms: int = 500) -> None:
        super().__init__(redis, partitions, block_ms)
        self._partition = {Keys(p).log.encode(): p for p in range(partitions)}  # name -> p

    @property
    def watching(self) -> int:
        return sum(len(s) for s in self._subscribers.values())

    def stream(self, p: int) -> str:
        return Keys(p).log

    async def take(self, found: Read) -> None:
        # The entries of matches followed here, every partition's at once: their
        # events are read in one round trip, not one per entry.
        followed: dict[int, list[tuple[bytes, dict[bytes, bytes]]]] = {}
        for stream, entries in found:
            for entry_id, fields in entries:
                if self.followed(fields[b"m"].decode()):
                    followed.setdefault(self._partition[stream], []).append((entry_id, fields))
        if not followed:
            return
        for read in (await self._events(followed)).values():
            for _, envelope in read:
                if envelope is not None:
                    self.publish(envelope.match_id, envelope)

    async def _events(
        self, followed: dict[int, list[tuple[bytes, dict[bytes, bytes]]]]
    ) -> dict[int, list[LogEntry | Skipped]]:
        """Log entries' events, read from their match streams (each entry names them);
        a lost read is tried again, so no subscriber misses one."""
        while True:
            try:
                return await read_partitions_entries(self.redis, followed, None)
            except Exception:
                self.log.exception("live_read_failed", entries=sum(map(len, followed.values())))
                if self._stopping:
                    return {}
                await asyncio.sleep(0.5)
