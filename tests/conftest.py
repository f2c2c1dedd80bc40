"""Shared fixtures: a private redis-server per test session (the embedded one), or the
server `TABLETOP_REDIS_URL` names -- which must then be a disposable one: tests flush it.
`TABLETOP_REDIS_URL=redis+cluster://...` runs them on a Redis Cluster, and
`TABLETOP_TEST_CLUSTER=1` on a 3-master one started from the shipped binary."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from services.infra.cluster import EmbeddedCluster
from services.infra.embedded import EmbeddedRedis
from services.infra.logging import configure
from services.infra.redisconn import connect

configure(level="WARNING")


def pytest_configure(config: pytest.Config) -> None:
    # Once, in the controlling process (not in each xdist worker).
    if not hasattr(config, "workerinput"):
        from tests.support.tools import set_up

        set_up()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("TABLETOP_REDIS_URL")
    if url:
        yield url
        return
    if os.environ.get("TABLETOP_TEST_CLUSTER"):
        # The same tests on a 3-master Redis Cluster of the shipped binary.
        cluster = EmbeddedCluster(tmp_path_factory.mktemp("cluster"), masters=3).start()
        try:
            yield cluster.url
        finally:
            cluster.stop()
        return
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest_asyncio.fixture
async def redis(redis_server: str) -> AsyncIterator[Redis]:
    client = connect(redis_server)  # the services' own client: commands packed by hiredis
    await client.flushdb()
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


# The test game is registered for every test session (services tests use it).
import tests.support.countdown  # noqa: E402, F401
