"""Settings of the services, from the environment (TABLETOP_*)."""

from __future__ import annotations

import contextlib
import math
import os
import socket
from collections.abc import Callable
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.exceptions import NoPermissionError

from events.keys import PARTITIONS as PARTITIONS_KEY
from services.contracts.messages import Limits
from services.infra.redisconn import CLUSTER_SCHEMES, ClusterAddress


class ConfigError(ValueError):
    """A setting a person got wrong; its message says which and what would do."""


def env_int(name: str, default: int, *, least: int = 0) -> int:
    return int(_env_number(name, default, int, "a whole number", least))


def env_float(name: str, default: float, *, least: float = 0.0) -> float:
    return _env_number(name, default, float, "a number", least)


def _env_number(
    name: str, default: float, read: Callable[[str], float], kind: str, least: float
) -> float:
    """TABLETOP_* as a finite number of at least `least`, or `default` when unset."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = read(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not {kind}") from None
    if not math.isfinite(value):
        raise ConfigError(f"{name}={raw!r}: give a finite number")
    if value < least:
        raise ConfigError(f"{name}={raw!r}: it must be at least {least:g}")
    return value


class Settings(msgspec.Struct, kw_only=True):
    redis_url: str
    partitions: int = 16
    group: str = "tt-commands"
    consumer: str = ""
    batch_size: int = 500
    polling_ms: int = 100
    # Rounds of commands a service runs at once (services/commands/service.py).
    runners: int = 2
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
    # A seed in a start command is refused unless every writer of the command streams is
    # trusted (tests and tooling); otherwise the player who starts would choose the deal.
    trust_seeds: bool = False
    # What one command may carry (services.contracts.messages.Limits).
    max_command_bytes: int = 64 * 1024
    max_name_chars: int = 64
    max_options_bytes: int = 4 * 1024
    max_move_bytes: int = 16 * 1024
    # Acknowledged command entries are trimmed from the command streams this often.
    trim_every_ms: int = 30_000
    # Durability beyond the AOF: replies wait until this many replicas hold the batch's
    # appends (WAIT, at most wait_ms), so a failover loses no acknowledged command
    # unless every one of those replicas is lost too (docs/operations.md).
    wait_replicas: int = 0
    wait_ms: int = 1_000
    # Archiving (services/archiver/): finished matches older than the retention go to
    # the cold store `archive` names (a folder, or a postgresql:// URL; "" is the data
    # folder's `archive/`), leaving a tombstone; a pass runs this often.
    archive: str = ""
    archive_after_ms: int = 7 * 24 * 3600 * 1000
    archive_every_ms: int = 60_000
    # A reply stream nothing was added to for this long belongs to a client that is
    # gone: the archiver deletes it (a live client's next reply makes it again).
    reply_idle_ms: int = 3600 * 1000
    # A table waiting for players with nothing happening at it for this long is closed
    # by the scheduler (0: never).
    table_idle_ms: int = 24 * 3600 * 1000
    # A port for /metrics, /healthz and /readyz in processes without the gateway
    # (None: none; 0: a free one, logged).
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    # A process of background work only (projector, archiver, scheduler: no command
    # service, no gateway) lowers its CPU priority by this much (0: not), so that on
    # cores it shares with a command service the replies come first. Its read models
    # then trail further behind under a load; players' live views do not wait on them.
    background_nice: int = 10

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
        """The settings the environment gives; a value that is not one raises ConfigError."""
        return cls(
            redis_url=redis_url,
            partitions=env_int("TABLETOP_PARTITIONS", 16, least=1),
            batch_size=env_int("TABLETOP_BATCH", 500, least=1),
            runners=env_int("TABLETOP_RUNNERS", 2, least=1),
            cache_size=env_int("TABLETOP_CACHE", 10_000, least=0),
            snapshot_every=env_int("TABLETOP_SNAPSHOT_EVERY", 100, least=1),
            max_command_bytes=env_int("TABLETOP_MAX_COMMAND_BYTES", 64 * 1024, least=1),
            max_name_chars=env_int("TABLETOP_MAX_NAME_CHARS", 64, least=1),
            max_options_bytes=env_int("TABLETOP_MAX_OPTIONS_BYTES", 4 * 1024, least=1),
            max_move_bytes=env_int("TABLETOP_MAX_MOVE_BYTES", 16 * 1024, least=1),
            trim_every_ms=env_int("TABLETOP_TRIM_EVERY_MS", 30_000, least=1),
            wait_replicas=env_int("TABLETOP_WAIT_REPLICAS", 0, least=0),
            wait_ms=env_int("TABLETOP_WAIT_MS", 1_000, least=1),
            archive=os.environ.get("TABLETOP_ARCHIVE", ""),
            archive_after_ms=env_int("TABLETOP_ARCHIVE_AFTER_S", 7 * 24 * 3600, least=0) * 1000,
            archive_every_ms=env_int("TABLETOP_ARCHIVE_EVERY_MS", 60_000, least=1),
            reply_idle_ms=env_int("TABLETOP_REPLY_IDLE_S", 3600, least=1) * 1000,
            table_idle_ms=env_int("TABLETOP_TABLE_IDLE_S", 24 * 3600, least=0) * 1000,
            background_nice=min(19, env_int("TABLETOP_BACKGROUND_NICE", 10, least=0)),
            metrics_port=(
                env_int("TABLETOP_METRICS_PORT", 0, least=0)
                if os.environ.get("TABLETOP_METRICS_PORT", "") != ""
                else None
            ),
            metrics_host=os.environ.get("TABLETOP_METRICS_HOST", "127.0.0.1"),
            trust_seeds=os.environ.get("TABLETOP_TRUST_SEEDS", "") in ("1", "true", "yes"),
        )


def check_redis_url(url: str) -> None:
    """Refuse a URL redis-py cannot use, before anything tries to connect."""
    if url.startswith(CLUSTER_SCHEMES):
        try:
            ClusterAddress(url)
        except ValueError as err:
            raise ConfigError(
                f"TABLETOP_REDIS_URL={url!r}: {err}; write "
                "redis+cluster://HOST:PORT,HOST:PORT,... (any nodes of the cluster)"
            ) from None
        return
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigError(
            f"TABLETOP_REDIS_URL={url!r}: write redis://HOST:PORT, rediss://..., unix://PATH "
            "or, for a Redis Cluster, redis+cluster://HOST:PORT,HOST:PORT,..."
        )


async def check_partitions(redis: Redis, partitions: int) -> None:
    """The partition count is fixed for the life of the data: record it the first time,
    refuse another one after that."""
    # SET NX and GET in one command needs Redis 7; the embedded one is 6.2.
    with contextlib.suppress(NoPermissionError):  # only the command service records it
        if await redis.set(PARTITIONS_KEY, partitions, nx=True):
            return
    try:
        raw: Any = await redis.get(PARTITIONS_KEY)
    except NoPermissionError:
        # A role whose ACL does not grant the key at all: nothing to check against.
        return
    if raw is not None and int(raw) != partitions:
        raise ConfigError(
            f"this data was made with {int(raw)} partitions, and TABLETOP_PARTITIONS is "
            f"{partitions}: its matches would not be found; set TABLETOP_PARTITIONS={int(raw)}"
        )
