"""Through the real streams: the public stream, the histories and a player's exported
history keep the seed secret until the finish, and an exported history proves the deal."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import cast

import msgspec
import pytest
import pytest_asyncio
from redis.asyncio import Redis

from domain import match as m
from events.keys import Keys, partition_of
from services import compose
from services.client.bots import play_match
from services.client.client import TabletopClient
from services.commands.service import CommandService
from services.infra.config import Settings
from services.readside.audit import audit_history, export_history
from services.readside.projector import Projector
from services.readside.readmodels import ReadModels

pytestmark = pytest.mark.redis
P = 4


@pytest_asyncio.fixture
async def referee(redis: Redis, redis_server: str) -> AsyncIterator[CommandService]:
    # Untrusted, as deployed: the referee draws every seed.
    svc = compose.command_service(Settings(redis_url=redis_server, partitions=P, polling_ms=20))
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


async def test_the_seed_stays_secret_until_the_finish_reveals_it(
    referee: CommandService, redis_server: str, redis: Redis
) -> None:
    async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as client:
        match_id, live = await play_match(client, referee.store, "loveletter", seats=3, bot_seed=5)
    seed = live.state.seed
    assert seed is not None
    await Projector(redis, referee.store).catch_up()

    # The public stream: a commitment at the start, the seed only in match.finished.
    entries = cast(
        "list[tuple[bytes, dict[bytes, bytes]]]",
        await redis.xrange(Keys(partition_of(match_id, P)).public),
    )
    public = [msgspec.json.decode(f[b"e"]) for _, f in entries]
    mine = [e for e in public if e["match_id"] == match_id]
    assert mine[-1]["kind"] == "match_finished" and mine[-1]["event"]["seed"] == seed
    assert all(str(seed) not in str(e) for e in mine[:-1])
    started = next(e["event"] for e in mine if e["kind"] == "match_started")
    assert started["commitment"] == m.commitment_of(seed)

    # Every reader's history says nothing of it before the finish either.
    models = ReadModels(redis, P)
    for reader in (None, 0, 1, 2):
        lines = await models.history(match_id, reader)
        assert all(str(seed) not in msgspec.json.encode(line).decode() for line in lines[:-1])

    # A player's exported history proves the deal after the finish...
    history = await export_history(referee.store, match_id, 1)
    assert audit_history(history).status == "ok"
    # ...and a forged reveal is caught.
    forged = [line.replace(str(seed).encode(), str(seed + 1).encode()) for line in history]
    assert audit_history(forged).status in ("tampered", "mismatch")


async def test_a_history_exported_in_play_holds_no_seed_and_cannot_be_checked_yet(
    referee: CommandService, redis_server: str
) -> None:
    async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as client:
        match_id = await client.create("loveletter", 2)
        await client.join(match_id, "ann")
        await client.join(match_id, "bea")
        await client.start(match_id, "ann")
    live = await referee.store.load(match_id)
    assert live
    history = await export_history(referee.store, match_id, None)
    text = b"\n".join(history)
    starts = [e for e in history if b"match.started" in e]
    assert starts and b"commitment" in starts[0]
    assert b'"command"' not in text, "commands come only after the finish"
    result = audit_history(history)
    assert result.status == "skipped" and "secret" in result.detail
