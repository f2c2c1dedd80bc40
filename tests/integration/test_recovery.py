"""Recovery, quickly, in the default run (the reliability suite does it under load with
real processes): heartbeats decide who is dead, a dead worker's commands are taken over
once and run once, a live worker's are left alone."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from redis.asyncio import Redis

from domain import match as m
from events.keys import Keys, heartbeats, partition_of
from events.redis_store import RedisEventStore
from services import compose
from services.client.client import TabletopClient
from services.commands.service import create_groups
from services.contracts.messages import ENCODER, CommandMessage
from services.infra.config import Settings

pytestmark = pytest.mark.redis
P = 4


def settings(url: str, consumer: str) -> Settings:
    # Dead after 200 ms of silence; its commands then claimable after 100 ms idle.
    return Settings(
        redis_url=url, partitions=P, consumer=consumer, polling_ms=20, heartbeat_stale_ms=200
    )


async def strand(redis: Redis, client: TabletopClient, consumer: str, n: int) -> list[str]:
    """n CreateMatch commands, read by `consumer` and never acked: left pending."""
    await create_groups(redis, settings("", consumer))
    ids = []
    for _ in range(n):
        match_id = uuid.uuid4().hex
        body = ENCODER.encode(
            CommandMessage(
                command_id=uuid.uuid4().hex,
                match_id=match_id,
                reply_to=client.reply_stream,
                command=m.CreateMatch(game="countdown", seats=2),
            )
        )
        stream = Keys(partition_of(match_id, P)).commands
        await redis.xadd(stream, {"c": body})
        await redis.xreadgroup("tt-commands", consumer, {stream: ">"}, count=10)
        ids.append(match_id)
    return ids


async def test_a_worker_whose_heartbeat_stopped_has_its_commands_taken_over_once(
    redis: Redis, redis_server: str
) -> None:
    async with TabletopClient.from_url(redis_server, partitions=P) as client:
        dead = "worker-dead"
        matches = await strand(redis, client, dead, 6)
        # It beat once, long ago by Redis's clock, and has been silent since.
        await redis.hset(heartbeats("tt-commands"), dead, 1)
        await asyncio.sleep(0.3)
        one = compose.command_service(settings(redis_server, "rescuer-1"))
        two = compose.command_service(settings(redis_server, "rescuer-2"))
        try:
            await one.beat()
            await two.beat()
            # Two rescuers at once: every command is taken by exactly one.
            taken = await asyncio.gather(one.rescue(), two.rescue())
        finally:
            await one.redis.aclose()
            await two.redis.aclose()
        assert sum(taken) == 6
        store = RedisEventStore(redis, P)
        for match_id in matches:
            assert len(await store.load(match_id)) == 1  # created once
        pending = [await redis.xpending(Keys(p).commands, "tt-commands") for p in range(P)]
        assert all(row["pending"] == 0 for row in pending)


async def test_a_live_workers_pending_commands_are_left_to_it(
    redis: Redis, redis_server: str
) -> None:
    async with TabletopClient.from_url(redis_server, partitions=P) as client:
        busy = compose.command_service(settings(redis_server, "worker-busy"))
        other = compose.command_service(settings(redis_server, "worker-other"))
        try:
            await strand(redis, client, "worker-busy", 3)
            await asyncio.sleep(0.3)  # its commands are idle, but it beats: alive
            await busy.beat()
            await other.beat()
            assert await other.rescue() == 0
            held = [await redis.xpending(Keys(p).commands, "tt-commands") for p in range(P)]
            assert sum(row["pending"] for row in held) == 3
        finally:
            await busy.redis.aclose()
            await other.redis.aclose()
