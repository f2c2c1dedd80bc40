from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest_asyncio
from redis.asyncio import Redis

from services.gateway.app import GatewayConfig
from services.gateway.stack import Stack
from services.infra.config import Settings

SECRET = "test-secret-of-the-platform-0123"


@pytest_asyncio.fixture
async def stack(redis: Redis, redis_server: str) -> AsyncIterator[Stack]:
    settings = Settings(redis_url=redis_server, partitions=4, polling_ms=20)
    # No rate limits: these tests play whole matches over HTTP at the machine's pace
    # (tests/gateway/test_limits.py checks the limits).
    config = GatewayConfig(
        secret=SECRET,
        dev_signin=True,
        quickplay_wait=3.0,
        bot_delay=0.0,
        rate=0,
        tables_per_minute=0,
    )
    running = await Stack(settings, config).start()
    try:
        yield running
    finally:
        await running.stop()


@pytest_asyncio.fixture
async def http(stack: Stack) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=stack.url, timeout=30) as client:
        yield client


@contextlib.asynccontextmanager
async def gateway(
    redis_server: str, **settings: Any
) -> AsyncIterator[tuple[Stack, httpx.AsyncClient]]:
    """A gateway with these settings (GatewayConfig's fields), and a client of it."""
    config = GatewayConfig(secret=SECRET, dev_signin=True, **settings)
    running = Stack(Settings(redis_url=redis_server, partitions=4, polling_ms=20), config)
    await running.start()
    try:
        async with httpx.AsyncClient(base_url=running.url, timeout=30) as client:
            yield running, client
    finally:
        await running.stop()


async def sign_in(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    """The headers of a player signed in by the development sign-in."""
    answer = await http.post("/api/signin/dev", json={"name": name})
    assert answer.status_code == 200, answer.text
    return {"authorization": f"Bearer {answer.json()['token']}"}
