"""Settings of the services, from the environment (TABLETOP_*)."""

from __future__ import annotations

import os
import socket

import msgspec

from services.contracts.messages import Limits


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
    # What one command may carry (services.contracts.messages.Limits).
    max_command_bytes: int = 64 * 1024
    max_name_chars: int = 64
    max_options_bytes: int = 4 * 1024
    max_move_bytes: int = 16 * 1024
    # Acknowledged command entries are trimmed from the command streams this often.
    trim_every_ms: int = 30_000

    @property
    def limits(self) -> Limits:
        return Limits(
            command_bytes=self.max_command_bytes,
            name_chars=self.max_name_chars,
            options_bytes=self.max_options_bytes,
            move_bytes=self.max_move_bytes,
        )

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
            max_command_bytes=int(env.get("TABLETOP_MAX_COMMAND_BYTES", 64 * 1024)),
            max_name_chars=int(env.get("TABLETOP_MAX_NAME_CHARS", 64)),
            max_options_bytes=int(env.get("TABLETOP_MAX_OPTIONS_BYTES", 4 * 1024)),
            max_move_bytes=int(env.get("TABLETOP_MAX_MOVE_BYTES", 16 * 1024)),
            trim_every_ms=int(env.get("TABLETOP_TRIM_EVERY_MS", 30_000)),
        )
