"""A rebuild by several processes, each taking the next partition (readside/rebuild.py)."""

from __future__ import annotations

import asyncio
import multiprocessing as mp
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from services import compose
from services.client.bots import play_match
from services.client.client import TabletopClient
from services.commands.service import CommandService
from services.infra.config import Settings
from services.readside.projector import Projector
from services.readside.readmodels import ReadModels
from services.readside.rebuild import RebuildFailed, rebuild_apart, take_partition, workers_for

pytestmark = pytest.mark.redis
P = 4


@pytest_asyncio.fixture
async def played(redis: Redis, redis_server: str) -> AsyncIterator[CommandService]:
    # A real game: the rebuilding processes know the games every process registers.
    service = compose.command_service(
        Settings(trust_seeds=True, redis_url=redis_server, partitions=P, polling_ms=20)
    )
    await service.start()
    try:
        async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as client:
            await asyncio.gather(
                *(
                    play_match(client, service.store, "chicken", seats=2 + s % 2, seed=s)
                    for s in range(6)
                )
            )
            waiting = await client.create("chicken", 3)
            await client.join(waiting, "Ann")
            playing = await client.create("chicken", 2)
            for name in ("Ann", "Bea"):
                await client.join(playing, name)
            await client.start(playing, "Ann", seed=1)
        yield service
    finally:
        await service.stop()


async def test_two_processes_rebuild_what_one_projector_projected_live(
    played: CommandService, redis: Redis, redis_server: str
) -> None:
    await Projector(redis, played.store).catch_up()
    models = ReadModels(redis, P)
    live = await models.dump()
    assert any(":rm:turns:" in key for key in live)
    settings = Settings(redis_url=redis_server, partitions=P)
    told: list[int] = []
    applied = await asyncio.to_thread(rebuild_apart, settings, "matches", 2, told.append)
    logged = sum([len(await played.store.read_log(p, "0-0", 1_000_000)) for p in range(P)])
    assert applied == sum(told) == logged
    assert await models.dump() == live


async def test_a_process_that_cannot_reach_redis_fails_the_rebuild_in_one_line() -> None:
    nowhere = Settings(redis_url="redis://127.0.0.1:1/0", partitions=P)
    with pytest.raises(RebuildFailed) as failed:
        await asyncio.to_thread(rebuild_apart, nowhere, "matches", 2)
    # This process and the one it started each say the partition they failed on.
    said = str(failed.value)
    assert said.count("process ") == 2 and "partition 0: ConnectionError" in said
    assert "\n" not in said


def test_every_partition_is_taken_by_exactly_one_process() -> None:
    taken = mp.get_context("spawn").Value("i", 0)
    assert [take_partition(taken, 3) for _ in range(5)] == [0, 1, 2, None, None]


def test_a_short_log_is_rebuilt_by_one_process_a_long_one_by_one_per_core() -> None:
    assert workers_for(500, cores=2) == 1
    assert workers_for(1_000_000, cores=2) == 2
