"""The running gateway against its OpenAPI document, with Schemathesis: requests drawn
from the document (valid ones, and ones it refuses), alone and chained by the links it
infers. Every answer must be one the document describes, status and body; no request
may make a server error; a body the document admits is not refused for its shape, and
one it does not admit is."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest_asyncio
from redis.asyncio import Redis

from services.gateway.app import GatewayConfig
from services.gateway.stack import Stack
from services.infra.config import Settings
from tests.gateway.conftest import SECRET, sign_in

DOC = Path(__file__).parents[2] / "docs" / "openapi.json"
# The CLI beside this interpreter: the one the project's test extra installed.
ST = Path(sys.executable).with_name("st")


@pytest_asyncio.fixture
async def unhurried(redis: Redis, redis_server: str) -> AsyncIterator[Stack]:
    """A gateway with no rate limits: the run sends a hundred requests a second as one
    player, and its answers must not hang on timing (test_limits.py checks the 429s)."""
    settings = Settings(redis_url=redis_server, partitions=4, polling_ms=20)
    config = GatewayConfig(secret=SECRET, dev_signin=True, rate=0, tables_per_minute=0)
    stack = await Stack(settings, config).start()
    try:
        yield stack
    finally:
        await stack.stop()


async def test_the_gateway_answers_as_its_openapi_document_says(
    unhurried: Stack, tmp_path: Path
) -> None:
    stack = unhurried
    async with httpx.AsyncClient(base_url=stack.url, timeout=30) as http:
        headers = await sign_in(http, "Schema")
    run = await asyncio.create_subprocess_exec(
        str(ST),
        "run",
        str(DOC),
        "--url",
        stack.url,
        "--header",
        f"Authorization: {headers['authorization']}",
        "--checks",
        "all",
        "--max-examples",
        "30",
        "--workers",
        "1",  # its coverage phase has failed on its own caches with more
        "--seed",
        "7",  # the same requests every run: a failure here is the gateway's
        "--generation-database",
        "none",
        "--no-color",
        cwd=tmp_path,  # where it writes what it keeps
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(run.communicate(), timeout=600)
    text = out.decode(errors="replace")
    assert run.returncode == 0, text[-6000:]
    assert " passed" in text and "generated" in text, text[-2000:]
