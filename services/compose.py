"""The composition root: every process of the house, built from `Settings`.

The command line (`tabletop serve`, `demo` and the read commands), `create_app` for
`faststream run`, the benchmark and the tests build their processes here, so each is
wired one way only: which Redis client, which store, which sink for replies. Nothing
else constructs a `RedisEventStore`, a `CommandService` or a `Projector`.

The processes' modules are imported when one is built: `tabletop games` or `lobby`
should not pay for FastStream.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from redis.asyncio import Redis

from events.archive import ArchivedStore, ColdStore, cold_store
from events.redis_store import RedisEventStore
from services.infra.config import Settings
from services.infra.embedded import EmbeddedRedis, redis_url
from services.infra.redisconn import RETRY_ON, connect
from services.readside.readmodels import ReadModels

if TYPE_CHECKING:
    from faststream import FastStream
    from litestar import Litestar

    from services.archiver.service import Archiver
    from services.client.client import TabletopClient
    from services.commands.service import CommandService
    from services.gateway.app import GatewayConfig
    from services.readside.projector import Projector
    from services.rematch.service import Rematcher
    from services.scheduler.service import Scheduler
    from services.webhooks.service import WebhookConfig, WebhookSender

PROJECTIONS = ("matches", "public", "ratings")


@contextlib.contextmanager
def settings(home: Path | None = None) -> Iterator[Settings]:
    """The settings of the environment, for the Redis `TABLETOP_REDIS_URL` names or,
    without one, an embedded server in `home` that stops when the block ends."""
    with redis_url(home) as url:
        found = Settings.from_env(url)
        if not found.archive:
            found.archive = str(data_folder(home) / "archive")
        yield found


def data_folder(home: Path | None = None) -> Path:
    """The data folder: `home`, else `$TABLETOP_HOME`, else `./.tabletop`."""
    return home or Path(os.environ.get("TABLETOP_HOME", ".tabletop"))


def cold(settings: Settings) -> ColdStore:
    """The cold store of archived matches the settings name (the data folder's
    `archive/` when they name none)."""
    return cold_store(settings.archive or str(data_folder() / "archive"))


def embedded_server(
    data_dir: Path, *, appendfsync: str = "everysec", extra: Sequence[str] = ()
) -> EmbeddedRedis:
    """A private redis-server on a unix socket, started (the caller stops it)."""
    return EmbeddedRedis(data_dir, appendfsync=appendfsync, extra=extra).start()


GATEWAY_POOL = 64


def give_way(settings: Settings) -> int:
    """Lower this process's CPU priority by `background_nice`, for a process that runs
    background work only; the niceness it runs at now."""
    if settings.background_nice <= 0:
        return os.nice(0)
    return os.nice(settings.background_nice)


def redis_client(settings: Settings, url: str | None = None) -> Redis:
    """A client of the services' own kind (commands packed by hiredis), on the settings'
    Redis or the one `url` names. A pooled connection that a Redis restart closed is
    retried once on a new one (every write of ours is idempotent)."""
    return connect(url or settings.redis_url, retry_on_error=RETRY_ON)


def event_store(settings: Settings, redis: Redis) -> ArchivedStore:
    """The Redis store, reading archived matches back from the cold store."""
    return ArchivedStore(
        RedisEventStore(
            redis,
            settings.partitions,
            wait_replicas=settings.wait_replicas,
            wait_ms=settings.wait_ms,
        ),
        cold(settings),
    )


def command_service(
    settings: Settings, *, clock: Callable[[], int] | None = None
) -> CommandService:
    """The command service on a client of its own, which it closes when it stops.
    `clock` (unix ms) times its decisions; the machine's unless a test gives one."""
    from services.commands.application import CommandProcessor
    from services.commands.service import CommandService, RedisReplies

    redis = redis_client(settings)
    store = event_store(settings, redis)
    processor = CommandProcessor(
        store,
        RedisReplies(redis, settings.reply_maxlen),
        cache_size=settings.cache_size,
        snapshot_every=settings.snapshot_every,
        trust_seeds=settings.trust_seeds,
        limits=settings.limits,
        clock=clock,
    )
    return CommandService(settings, redis, store, processor)


def projector(
    settings: Settings,
    redis: Redis,
    *,
    partitions: Sequence[int] | None = None,
    projections: Sequence[str] = PROJECTIONS,
    batch_size: int = 500,
    events: Redis | None = None,
) -> Projector:
    """A projector on the given client (the caller closes it); every partition unless
    told which. It reads the logs through `events` when given: with the shipped ACLs,
    another user, one that may read events and write nothing (deploy/users.md)."""
    from services.readside.projector import Projector

    return Projector(
        redis,
        event_store(settings, events or redis),
        partitions=partitions,
        projections=projections,
        batch_size=batch_size,
    )


def scheduler(
    settings: Settings,
    redis: Redis,
    *,
    partitions: Sequence[int] | None = None,
    clock: Callable[[], int] | None = None,
) -> Scheduler:
    """The turn clocks' scheduler on the given client (the caller closes it), for every
    partition unless told which; `clock` (unix ms) is the machine's unless a test gives
    one."""
    from services.scheduler.service import Scheduler

    followed = list(range(settings.partitions)) if partitions is None else list(partitions)
    return Scheduler(
        redis, event_store(settings, redis), followed, clock=clock, idle_ms=settings.table_idle_ms
    )


def read_models(settings: Settings, redis: Redis) -> ReadModels:
    """The read models; an archived match's view and histories are worked out from its
    archived record (the same redaction as the projector's)."""
    return ReadModels(redis, settings.partitions, archive=event_store(settings, redis))


def archiver(settings: Settings) -> Archiver:
    """The archiver on a client of its own, which it closes when it stops."""
    from services.archiver.service import Archiver

    redis = redis_client(settings)
    # The Redis store alone, not ArchivedStore: it archives what Redis holds.
    return Archiver(settings, redis, RedisEventStore(redis, settings.partitions), cold(settings))


def rematcher(settings: Settings, redis: Redis, client: TabletopClient) -> Rematcher:
    """The rematch process on the given client and command client (the caller closes
    them), following the partitions the command service owns."""
    from services.rematch.service import Rematcher

    return Rematcher(
        redis, event_store(settings, redis), client, partitions=settings.command_partitions
    )


def webhooks(settings: Settings, config: WebhookConfig) -> WebhookSender:
    """The webhook sender on a client of its own, which it closes when it stops."""
    from services.webhooks.service import WebhookSender

    return WebhookSender(redis_client(settings), settings.partitions, config, close_redis=True)


def client(settings: Settings, *, timeout: float = 30.0) -> TabletopClient:
    """The client library on a connection of its own (`async with` it)."""
    from services.client.client import TabletopClient

    return TabletopClient.from_url(
        settings.redis_url, partitions=settings.partitions, timeout=timeout
    )


def create_app(settings: Settings) -> FastStream:
    """For `faststream run`: the same command service as a FastStream application."""
    from faststream import FastStream

    service = command_service(settings)
    app = FastStream(service.broker)
    # The same order as `CommandService.start` and `stop`: groups before the broker
    # reads, the claimer once it runs and stopped before it does.
    app.on_startup(service.create_groups)
    app.on_startup(service.learn_cluster)
    app.after_startup(service.start_claimer)
    app.on_shutdown(service.stop_claimer)
    app.on_shutdown(service.stop_subscribers)
    app.after_shutdown(service.redis.aclose)
    return app


def gateway(settings: Settings, config: GatewayConfig | None = None) -> Litestar:
    """The gateway application (serve it with uvicorn): clients of its own for requests,
    for the live hub's blocking read and for the client library's replies."""
    from services.client.client import TabletopClient
    from services.gateway.app import Gateway, GatewayConfig, create_app

    # Many requests at once: they wait their turn for a pooled connection (GATEWAY_POOL
    # each for the routes and the client library) rather than fail.
    def pooled() -> Redis:
        return connect(
            settings.redis_url,
            retry_on_error=RETRY_ON,
            blocking=True,
            max_connections=GATEWAY_POOL,
        )

    redis = pooled()
    config = config or GatewayConfig.from_env()
    built = Gateway(
        config,
        redis,
        redis_client(settings),
        event_store(settings, redis),
        TabletopClient(pooled(), partitions=settings.partitions, pipelined=True),
        read_models(settings, redis),
        redis_client(settings),  # the notice hub's blocking read
        redis_client(settings) if config.chat else None,  # the chat hub's
    )
    return create_app(built)
