"""The command streams over time: reused command ids, lost streams and groups, trimming.
Real redis-server, real consumer groups."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from domain import match as m
from events.keys import Keys, partition_of
from events.matches import load_match
from services import compose
from services.client.client import TabletopClient
from services.commands.service import CommandService, create_groups
from services.infra.config import Settings

pytestmark = pytest.mark.redis

PARTITIONS = 4


def settings(redis_server: str, **kw: Any) -> Settings:
    return Settings(redis_url=redis_server, partitions=PARTITIONS, polling_ms=20, **kw)


@pytest_asyncio.fixture
async def service(redis: Redis, redis_server: str) -> AsyncIterator[CommandService]:
    svc = compose.command_service(settings(redis_server))
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


@pytest_asyncio.fixture
async def client(redis_server: str) -> AsyncIterator[TabletopClient]:
    async with TabletopClient.from_url(redis_server, partitions=PARTITIONS, timeout=10) as c:
        yield c


async def wait_for(check: Callable[[], Any], what: str, rounds: int = 400) -> None:
    """Poll until `check` holds; a bound on waiting, not a measure of speed."""
    for _ in range(rounds):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


# --- a command id is one command -------------------------------------------------------


async def test_a_command_id_sent_again_with_another_body_is_refused_as_reused(
    service: CommandService, client: TabletopClient
) -> None:
    match_id = uuid.uuid4().hex
    first = await client.send(match_id, m.CreateMatch(game="countdown", seats=2), command_id="c1")
    assert first.status == "accepted"
    # The same id, another command: refused, and nothing happens to the match.
    reused = await client.send(match_id, m.JoinMatch(player="ann"), command_id="c1", check=False)
    assert (reused.status, reused.code) == ("rejected", "command_id_reused")
    assert "c1" in reused.message
    live = await load_match(service.store, match_id)
    assert live is not None and live.state.version == 1 and live.state.players == [None, None]
    # The same command again is still a retry: the first reply, nothing appended.
    again = await client.send(match_id, m.CreateMatch(game="countdown", seats=2), command_id="c1")
    assert (again.status, again.original_status, again.version) == ("duplicate", "accepted", 1)


async def test_a_rejected_command_id_reused_for_another_command_is_refused_too(
    service: CommandService, client: TabletopClient
) -> None:
    match_id = await client.create("countdown", 2)
    refused = await client.send(match_id, m.StartMatch(player="ann"), command_id="s1", check=False)
    assert refused.code == "not_seated"
    reused = await client.send(match_id, m.JoinMatch(player="ann"), command_id="s1", check=False)
    assert reused.code == "command_id_reused"
    again = await client.send(match_id, m.StartMatch(player="ann"), command_id="s1", check=False)
    assert (again.status, again.original_status) == ("duplicate", "rejected")


async def test_a_retry_sent_later_from_another_reply_stream_is_the_same_command(
    service: CommandService, client: TabletopClient, redis_server: str
) -> None:
    match_id = uuid.uuid4().hex
    await client.send(match_id, m.CreateMatch(game="countdown", seats=2), command_id="r1")
    async with TabletopClient.from_url(redis_server, partitions=PARTITIONS, timeout=10) as other:
        again = await other.send(
            match_id, m.CreateMatch(game="countdown", seats=2), command_id="r1"
        )
    assert again.status == "duplicate"


# --- a lost stream or group is made again ------------------------------------------------


async def test_a_deleted_command_stream_is_made_again_and_later_commands_are_answered(
    service: CommandService, client: TabletopClient, redis: Redis
) -> None:
    match_id = await client.create("countdown", 2)
    stream = Keys(partition_of(match_id, PARTITIONS)).commands
    await redis.delete(stream)
    # The client's next command makes the stream again, without a group; the service
    # finds the group gone, makes it at 0, and reads the command.
    reply = await client.join(match_id, "ann")
    assert reply.status == "accepted" and reply.version == 2
    groups = await redis.xinfo_groups(stream)
    assert [g["name"] for g in groups] == [service.settings.group.encode()]
    # And it goes on reading.
    assert (await client.join(match_id, "bea")).version == 3


async def test_a_destroyed_group_is_made_again_and_what_it_reads_again_applies_once(
    service: CommandService, client: TabletopClient, redis: Redis
) -> None:
    match_id = await client.create("countdown", 2)
    await client.join(match_id, "ann")
    stream = Keys(partition_of(match_id, PARTITIONS)).commands
    await redis.xgroup_destroy(stream, service.settings.group)
    reply = await client.join(match_id, "bea")
    assert reply.status == "accepted" and reply.version == 3
    # The two commands read again from 0 changed nothing: they were duplicates.
    await wait_for(
        lambda: _no_pending(redis, stream, service.settings.group), "the re-read acknowledged"
    )
    assert service.processor.stats["duplicates"] >= 2
    live = await load_match(service.store, match_id)
    assert live is not None and live.state.version == 3


async def _no_pending(redis: Redis, stream: str, group: str) -> bool:
    pending = await redis.xpending(stream, group)
    return bool(pending["pending"] == 0)


# --- trimming --------------------------------------------------------------------------


async def test_trimming_keeps_every_entry_not_yet_acknowledged(
    redis: Redis, redis_server: str
) -> None:
    s = settings(redis_server)
    svc = compose.command_service(s)  # not started: its trim alone
    try:
        await create_groups(redis, s)
        stream = Keys(0).commands
        ids = [await redis.xadd(stream, {"c": b"%d" % i}) for i in range(10)]
        # A worker takes eight of them and acknowledges entries 0-2 and 5 only.
        await redis.xreadgroup(s.group, "w1", {stream: ">"}, count=8)
        await redis.xack(stream, s.group, *ids[:3], ids[5])
        assert await svc.trim(0) == 3
        left = [i for i, _ in cast("list[tuple[bytes, Any]]", await redis.xrange(stream))]
        assert left == ids[3:]  # from the oldest pending on: 3, 4, 5 (acked), 6, 7, 8, 9
        # Pending entries survive any number of passes.
        assert await svc.trim(0) == 0
        pending = cast(
            "list[dict[str, Any]]", await redis.xpending_range(stream, s.group, "-", "+", 10)
        )
        assert [p["message_id"] for p in pending] == [ids[3], ids[4], ids[6], ids[7]]
        # Once all are acknowledged, only the undelivered ones and the last read stay.
        await redis.xack(stream, s.group, ids[3], ids[4], ids[6], ids[7])
        assert await svc.trim(0) == 4
        left = [i for i, _ in cast("list[tuple[bytes, Any]]", await redis.xrange(stream))]
        assert left == ids[7:]
    finally:
        await svc.redis.aclose()


async def test_trimming_waits_for_the_slowest_group(redis: Redis, redis_server: str) -> None:
    s = settings(redis_server)
    svc = compose.command_service(s)
    try:
        await create_groups(redis, s)
        stream = Keys(0).commands
        await redis.xgroup_create(stream, "auditors", id="0")
        ids = [await redis.xadd(stream, {"c": b"%d" % i}) for i in range(6)]
        await redis.xreadgroup(s.group, "w1", {stream: ">"}, count=6)
        await redis.xack(stream, s.group, *ids)
        # The other group has read and acknowledged two.
        await redis.xreadgroup("auditors", "a1", {stream: ">"}, count=2)
        await redis.xack(stream, "auditors", *ids[:2])
        assert await svc.trim(0) == 1
        assert await redis.xlen(stream) == 5
    finally:
        await svc.redis.aclose()


async def test_a_stream_without_a_group_or_without_a_stream_is_left_alone(
    redis: Redis, redis_server: str
) -> None:
    svc = compose.command_service(settings(redis_server))
    try:
        assert await svc.trim(2) == 0  # no stream at all
        stream = Keys(2).commands
        for i in range(3):
            await redis.xadd(stream, {"c": b"%d" % i})
        assert await svc.trim(2) == 0  # nobody has read anything of it
        assert await redis.xlen(stream) == 3
    finally:
        await svc.redis.aclose()


async def test_the_service_trims_its_command_streams_as_it_goes(
    redis: Redis, redis_server: str, client: TabletopClient
) -> None:
    svc = compose.command_service(settings(redis_server, trim_every_ms=50))
    await svc.start()
    try:
        match_id = await client.create("countdown", 2)
        await client.join(match_id, "ann")
        await client.join(match_id, "bea")
        stream = Keys(partition_of(match_id, PARTITIONS)).commands

        async def trimmed() -> bool:
            return bool(await redis.xlen(stream) == 1)

        await wait_for(trimmed, "the answered commands trimmed")
    finally:
        await svc.stop()
