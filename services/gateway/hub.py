"""What the gateway's two followers share: one stream of every partition, read from the
moment the hub starts with one blocking XREAD per gateway process (one per partition on
a Redis Cluster, where an XREAD may only name streams of one slot), and what is read
queued for the subscribers of its key. `LiveHub` follows the logs for the sockets of
each match, `NoticeHub` the notice streams for the sockets of each player.

A socket subscribes before it reads what is stored, then skips what it has sent
already: an item is stored when the socket reads it or arrives through the hub after,
so none is missed and none is sent twice.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any, ClassVar, Generic, TypeVar, cast

import structlog
from redis.asyncio import Redis

from services.infra.redisconn import is_cluster

Item = TypeVar("Item")
Read = list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]]  # what XREAD returns


class StreamHub(Generic[Item]):
    logger: ClassVar[str]  # the logger's name
    failed_event: ClassVar[str]  # the line a failed read logs

    def __init__(self, redis: Redis, partitions: int, block_ms: int = 500) -> None:
        self.redis = redis  # a client of its own: it blocks
        self.partitions = partitions
        self.block_ms = block_ms
        self._subscribers: dict[str, set[asyncio.Queue[Item]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        self.ready = asyncio.Event()
        self.log = structlog.get_logger(self.logger)

    def stream(self, p: int) -> str:
        """The stream of partition p this hub follows."""
        raise NotImplementedError

    async def take(self, found: Read) -> None:
        """Queue what one read brought for the subscribers it is for."""
        raise NotImplementedError

    async def start(self) -> None:
        positions: dict[Any, Any] = {}
        for p in range(self.partitions):
            # The last entry now: "$" would be re-read as "now" at every call.
            last: Any = await self.redis.xrevrange(self.stream(p), count=1)
            positions[self.stream(p)] = last[0][0].decode() if last else "0-0"
        readers = (
            [{stream: at} for stream, at in positions.items()]
            if is_cluster(self.redis)
            else [positions]
        )
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
        """Following the streams (started, and none of its readers has ended)."""
        return bool(self._tasks) and not any(task.done() for task in self._tasks)

    @contextlib.contextmanager
    def subscribe(self, key: str) -> Iterator[asyncio.Queue[Item]]:
        queue: asyncio.Queue[Item] = asyncio.Queue()
        self._subscribers.setdefault(key, set()).add(queue)
        try:
            yield queue
        finally:
            found = self._subscribers.get(key)
            if found is not None:
                found.discard(queue)
                if not found:
                    del self._subscribers[key]

    def followed(self, key: str) -> bool:
        return bool(self._subscribers.get(key))

    def publish(self, key: str, item: Item) -> None:
        for queue in self._subscribers.get(key, ()):
            queue.put_nowait(item)

    async def _follow(self, positions: dict[Any, Any]) -> None:
        while not self._stopping:
            try:
                found = cast(
                    "Read", await self.redis.xread(positions, block=self.block_ms, count=1000)
                )
            except Exception:  # a lost connection: log, wait, go on from the same place
                self.log.exception(self.failed_event)
                await asyncio.sleep(0.5)
                continue
            if not found:
                continue
            for stream, entries in found:
                positions[stream.decode()] = entries[-1][0].decode()
            await self.take(found)
