"""Settings of the services, from the environment (TABLETOP_*)."""

from __future__ import annotations

import os
import socket

import msgspec


class Settings(msgspec.Struct, kw_only=True):
    redis_url: str
    partitions: int = 16
    group: str = "tt-commands"
    consumer: str = ""
    batch_size: int = 500
    polling_ms: int = 100
    cache_size: int = 10_000
    snapshot_every: int = 100
    claim_idle_ms: int = 30_000  # a live worker's command pending this long failed: retried
    heartbeat_ms: int = 500  # each worker says it is alive this often
    # A worker silent this long is dead: a live one takes over its pending commands.
    heartbeat_stale_ms: int = 2_000
    max_deliveries: int = 5  # then it goes to the partition's dead-letter stream
    reply_maxlen: int = 100_000
    # The partitions whose commands this process takes (None: all). Giving each service
    # its own keeps every match's commands on one worker, whose cache stays current.
    command_partitions: list[int] | None = None

    @property
    def owned(self) -> list[int]:
        """The partitions this command service subscribes to."""
        if self.command_partitions is None:
            return list(range(self.partitions))
        return list(self.command_partitions)

    def __post_init__(self) -> None:
        if not self.consumer:
            # Unique per process, so `--workers N` never shares one pending list.
            self.consumer = f"commands-{socket.gethostname()}-{os.getpid()}"

    @classmethod
    def from_env(cls, redis_url: str) -> Settings:
        env = os.environ
        return cls(
            redis_url=redis_url,
            partitions=int(env.get("TABLETOP_PARTITIONS", 16)),
            batch_size=int(env.get("TABLETOP_BATCH", 500)),
            cache_size=int(env.get("TABLETOP_CACHE", 10_000)),
            snapshot_every=int(env.get("TABLETOP_SNAPSHOT_EVERY", 100)),
        )
