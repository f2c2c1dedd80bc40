"""Tables that wait too long for their players, through the real streams: the scheduler
learns each waiting table from the log and, once nothing has happened at it for the
idle time, sends `CloseTable`; a player sitting down first keeps it open."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from redis.asyncio import Redis

from domain import match as m
from domain.clock import TimeControl
from events.keys import Keys, partition_of, reply_stream
from events.matches import load_match
from services import compose
from services.client.client import TabletopClient
from services.commands.service import CommandService
from services.contracts.messages import REPLY_DECODER
from services.readside.audit import audit
from services.scheduler.service import Scheduler
from tests.integration.test_clocks import (  # the same streams, service and clock
    T0,
    Clock,
    client,
    clock,
    events_of,
    service,
    settings,
    wait_for,
)

pytestmark = pytest.mark.redis
__all__ = ["client", "clock", "service"]  # fixtures, shared

DAY = 24 * 3600 * 1000


def scheduler(redis: Redis, redis_server: str, clock: Clock) -> Scheduler:
    return compose.scheduler(settings(redis_server), redis, clock=clock)


async def answer(redis: Redis, command_id: str) -> tuple[str, str]:
    """The command service's answer to the scheduler's command: status and code."""
    for _ in range(200):
        entries: Any = await redis.xrange(reply_stream("scheduler"))
        for _, fields in entries:
            reply = REPLY_DECODER.decode(fields[b"r"])
            if reply.command_id == command_id:
                return reply.status, reply.code
        await asyncio.sleep(0.05)
    raise AssertionError(f"no answer to {command_id}")


async def status_of(service: CommandService, match_id: str) -> str:
    found = await load_match(service.store, match_id)
    assert found is not None
    return found.state.status


async def test_a_table_nobody_comes_to_is_closed_a_day_after_its_last_change(
    redis: Redis, redis_server: str, service: CommandService, client: TabletopClient, clock: Clock
) -> None:
    match_id = await client.create("countdown", 3, match_id=uuid.uuid4().hex[:12])
    await client.join(match_id, "ann")
    clock.now = T0 + 3600_000  # an hour later Bea sits down: the wait starts again
    await client.join(match_id, "bea")
    sched = scheduler(redis, redis_server, clock)
    keys = Keys(partition_of(match_id, 4))
    await sched.pass_once()
    assert await redis.zscore(keys.idle_due, match_id) == T0 + 3600_000 + DAY
    clock.now = T0 + DAY  # a day after Ann: not idle, Bea came since
    await sched.pass_once()
    assert await status_of(service, match_id) == "lobby"
    clock.now = T0 + 3600_000 + DAY
    await sched.pass_once()

    async def closed() -> bool:
        return await status_of(service, match_id) == "closed"

    await wait_for(closed, "the scheduler closes the idle table")
    assert [e for e in await events_of(service, match_id) if isinstance(e, m.TableClosed)] == [
        m.TableClosed(reason="idle")
    ]
    # Its command names the version the table was idle at: a resend is a duplicate.
    assert await answer(redis, "idle:3") == ("accepted", "")
    # Sent once and forgotten; the close reaches the scheduler through the log too.
    await sched.pass_once()
    assert await redis.zscore(keys.idle_due, match_id) is None
    assert await redis.hget(keys.idle_version, match_id) is None
    assert (await audit(service.store, match_id)).status == "ok"


async def test_a_player_sitting_down_as_the_close_is_sent_keeps_the_table_open(
    redis: Redis, redis_server: str, service: CommandService, client: TabletopClient, clock: Clock
) -> None:
    match_id = await client.create("countdown", 2, match_id=uuid.uuid4().hex[:12])
    await client.join(match_id, "ann")
    sched = scheduler(redis, redis_server, clock)
    await sched.pass_once()
    clock.now = T0 + DAY
    await client.join(match_id, "bea")  # before the scheduler has read it in the log
    keys = Keys(partition_of(match_id, 4))
    # Its stream is longer than when it was found idle: the scheduler sends nothing...
    assert await sched.close_idle(keys.p) == 0
    # ...and a close that crossed her on its way is refused by the rules.
    crossed = await client.send(match_id, m.CloseTable(version=2), check=False)
    assert (crossed.status, crossed.code) == ("rejected", "table_not_idle")
    assert await status_of(service, match_id) == "lobby"
    await sched.pass_once()  # Bea's join starts a new wait
    assert await redis.zscore(keys.idle_due, match_id) == T0 + 2 * DAY


async def test_a_started_match_is_never_closed(
    redis: Redis, redis_server: str, service: CommandService, client: TabletopClient, clock: Clock
) -> None:
    match_id = await client.create("countdown", 2, match_id=uuid.uuid4().hex[:12])
    await client.join(match_id, "ann")
    await client.join(match_id, "bea")
    await client.start(match_id, "ann")
    sched = scheduler(redis, redis_server, clock)
    await sched.pass_once()
    # Its start ends in the game's events, which the scheduler does not read: a day on,
    # the table's stream has moved on, and it is forgotten without a close.
    clock.now = T0 + DAY
    keys = Keys(partition_of(match_id, 4))
    assert await sched.close_idle(keys.p) == 0
    assert await redis.zscore(keys.idle_due, match_id) is None
    assert await status_of(service, match_id) == "playing"


async def test_a_clocked_match_leaves_the_idle_tables_as_it_starts(
    redis: Redis, redis_server: str, service: CommandService, client: TabletopClient, clock: Clock
) -> None:
    """Its start ends in the clocks being set, which the scheduler reads anyway."""
    match_id = await client.create(
        "countdown", 2, match_id=uuid.uuid4().hex[:12], clock=TimeControl(kind="move", seconds=60)
    )
    await client.join(match_id, "ann")
    await client.join(match_id, "bea")
    sched = scheduler(redis, redis_server, clock)
    await sched.pass_once()
    keys = Keys(partition_of(match_id, 4))
    assert await redis.zscore(keys.idle_due, match_id) == T0 + DAY
    await client.start(match_id, "ann")
    await sched.pass_once()
    assert await redis.zscore(keys.idle_due, match_id) is None
    assert await redis.hget(keys.idle_version, match_id) is None


async def test_a_table_opened_before_tables_were_closed_is_adopted_and_closes(
    redis: Redis, redis_server: str, service: CommandService, client: TabletopClient, clock: Clock
) -> None:
    """After an upgrade the scheduler's checkpoint is past the tables opened before it
    closed idle tables: `tabletop adopt-waiting-tables` hands them over from the lobby."""
    from click.testing import CliRunner

    from services.cli.main import main

    match_id = await client.create("countdown", 2, match_id=uuid.uuid4().hex[:12])
    await client.join(match_id, "ann")
    sched = scheduler(redis, redis_server, clock)
    await sched.pass_once()
    keys = Keys(partition_of(match_id, 4))
    # As a scheduler of before would have left it: the log followed, no idle table kept.
    await redis.delete(keys.idle_due, keys.idle_version)
    clock.now = T0 + 2 * DAY
    await sched.pass_once()
    assert await status_of(service, match_id) == "lobby", "nobody knows it waits"
    await compose.projector(settings(redis_server), redis).catch_up()  # the lobby lists it
    env = {"TABLETOP_REDIS_URL": redis_server, "TABLETOP_PARTITIONS": "4"}
    adopt = ["adopt-waiting-tables"]
    ran = await asyncio.to_thread(CliRunner().invoke, main, adopt, env=env)
    assert ran.exit_code == 0, ran.output
    assert ran.output.startswith("1 waiting table adopted, 0 known already")
    assert await redis.zscore(keys.idle_due, match_id) == T0 + DAY  # its last change + a day
    again = await asyncio.to_thread(CliRunner().invoke, main, adopt, env=env)
    assert again.output.startswith("0 waiting tables adopted, 1 known already")
    await sched.pass_once()

    async def closed() -> bool:
        return await status_of(service, match_id) == "closed"

    await wait_for(closed, "the scheduler closes the adopted table")
    # With closing switched off there is nothing to adopt, and the operator is told so.
    off = await asyncio.to_thread(
        CliRunner().invoke, main, adopt, env={**env, "TABLETOP_TABLE_IDLE_S": "0"}
    )
    assert (off.exit_code, off.output.strip()) == (
        0,
        "TABLETOP_TABLE_IDLE_S is 0: tables wait for ever, so none is adopted.",
    )
