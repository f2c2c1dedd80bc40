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
    claim_idle_ms: int = 30_000  # a pending command idle this long belonged to a dead worker
    max_deliveries: int = 5  # then it goes to the partition's dead-letter stream
    reply_maxlen: int = 100_000
    # The partitions whose commands this process takes (None: all). Giving each service
    # its own keeps every match's commands on one worker, whose cache stays current.
    command_partitions: list[int] | None = None
    # A seed in a start command is refused unless every writer of the command streams is
    # trusted (tests and tooling); otherwise the player who starts would choose the deal.
    trust_seeds: bool = False

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
            trust_seeds=env.get("TABLETOP_TRUST_SEEDS", "") in ("1", "true", "yes"),
        )
