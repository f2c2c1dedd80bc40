"""Settings of the services, from the environment (TABLETOP_*)."""

from __future__ import annotations

import os
import socket
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.exceptions import NoPermissionError

from events.keys import PARTITIONS as PARTITIONS_KEY


class ConfigError(ValueError):
    """A setting a person got wrong; its message says which and what would do."""


def env_int(name: str, default: int, *, least: int = 0) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a whole number") from None
    if value < least:
        raise ConfigError(f"{name}={raw!r}: it must be at least {least}")
    return value


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
        """The settings the environment gives; a value that is not one raises ConfigError."""
        return cls(
            redis_url=redis_url,
            partitions=env_int("TABLETOP_PARTITIONS", 16, least=1),
            batch_size=env_int("TABLETOP_BATCH", 500, least=1),
            cache_size=env_int("TABLETOP_CACHE", 10_000, least=0),
            snapshot_every=env_int("TABLETOP_SNAPSHOT_EVERY", 100, least=1),
        )


def check_redis_url(url: str) -> None:
    """Refuse a URL redis-py cannot use, before anything tries to connect."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigError(
            f"TABLETOP_REDIS_URL={url!r}: write redis://HOST:PORT, rediss://... or unix://PATH"
        )


async def check_partitions(redis: Redis, partitions: int) -> None:
    """The partition count is fixed for the life of the data: record it the first time,
    refuse another one after that."""
    try:
        # SET NX and GET in one command needs Redis 7; the embedded one is 6.2.
        if await redis.set(PARTITIONS_KEY, partitions, nx=True):
            return
        raw: Any = await redis.get(PARTITIONS_KEY)
    except NoPermissionError:
        # A deployment whose ACL does not grant the key: its configuration is checked
        # by whoever wrote it, not here.
        return
    if raw is not None and int(raw) != partitions:
        raise ConfigError(
            f"this data was made with {int(raw)} partitions, and TABLETOP_PARTITIONS is "
            f"{partitions}: its matches would not be found; set TABLETOP_PARTITIONS={int(raw)}"
        )
