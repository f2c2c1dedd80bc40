"""Turn clocks through the real streams: the command service and the scheduler share an
injected clock; the scheduler's TimeExpired reaches the match through the command
stream, survives a restart of the scheduler, and is never applied twice."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from domain.clock import TimeControl, TimeRanOut
from events.keys import Keys, partition_of
from events.matches import decode_events, game_of, load_match
from services import compose
from services.client.client import TabletopClient
from services.commands.service import CommandService
from services.infra.config import Settings
from services.readside.audit import audit
from services.scheduler.service import Scheduler

pytestmark = pytest.mark.redis

PARTITIONS = 4
T0 = 1_800_000_000_000
MOVE_60 = TimeControl(kind="move", seconds=60)
# XRANGE's entries as the services' client returns them: bytes (it decodes no responses).
Entries = list[tuple[bytes, dict[bytes, bytes]]]


class Clock:
    """The one time the command service and the scheduler read (unix ms)."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now


def settings(redis_server: str) -> Settings:
    return Settings(redis_url=redis_server, partitions=PARTITIONS, polling_ms=20)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest_asyncio.fixture
async def service(redis: Redis, redis_server: str, clock: Clock) -> AsyncIterator[CommandService]:
    svc = compose.command_service(settings(redis_server), clock=clock)
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


@pytest_asyncio.fixture
async def client(redis_server: str) -> AsyncIterator[TabletopClient]:
    async with TabletopClient.from_url(redis_server, partitions=PARTITIONS, timeout=10) as c:
        yield c


def scheduler(redis: Redis, redis_server: str, clock: Clock) -> Scheduler:
    return compose.scheduler(settings(redis_server), redis, clock=clock)


async def wait_for(check: Callable[[], Any], what: str, rounds: int = 400) -> None:
    """Poll until `check` holds; a bound on waiting, not a measure of speed."""
    for _ in range(rounds):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


async def clocked_match(client: TabletopClient, game: str, seats: int, clock: Any) -> str:
    match_id = await client.create(game, seats, match_id=uuid.uuid4().hex[:12], clock=clock)
    for i in range(seats):
        await client.join(match_id, f"p{i}")
    await client.start(match_id, "p0")
    return match_id


async def running_seat(service: CommandService, match_id: str) -> int:
    """The one seat whose clock runs in the match now."""
    live = await load_match(service.store, match_id)
    assert live is not None and live.state.clock is not None
    [seat] = live.state.clock.running
    return seat


async def events_of(service: CommandService, match_id: str) -> list[Any]:
    envelopes = await service.store.load(match_id)
    return decode_events(game_of(envelopes), envelopes)


async def test_a_seat_out_of_time_loses_by_the_schedulers_command(
    redis: Redis, redis_server: str, service: CommandService, client: TabletopClient, clock: Clock
) -> None:
    match_id = await clocked_match(client, "countdown", 2, MOVE_60)
    seat = await running_seat(service, match_id)
    deadline = T0 + 60_000
    sched = scheduler(redis, redis_server, clock)
    # A second before the deadline: the scheduler knows it, and sends nothing.
    clock.now = deadline - 1
    await sched.pass_once()
    keys = Keys(partition_of(match_id, PARTITIONS))
    assert await redis.zscore(keys.clock_due, match_id) == deadline
    assert await sched.fire(keys.p) == 0
    # At the deadline it sends the expiry, and the seat loses.
    clock.now = deadline
    assert await sched.fire(keys.p) == 1

    async def finished() -> bool:
        found = await load_match(service.store, match_id)
        return found is not None and found.state.status == "finished"

    await wait_for(finished, "the expiry ends the match")
    done = await load_match(service.store, match_id)
    assert done is not None and done.state.outcome is not None
    assert done.state.outcome.ranks[seat] == 2 and done.state.outcome.ranks[1 - seat] == 1
    ran_out = [e for e in await events_of(service, match_id) if isinstance(e, TimeRanOut)]
    assert ran_out == [TimeRanOut(player=f"p{seat}", seat=seat, then="lose")]
    # The finish reaches the scheduler through the log: the match leaves its deadlines.
    await sched.pass_once()
    assert await redis.zscore(keys.clock_due, match_id) is None
    assert await redis.hget(keys.clock_seats, match_id) is None
    # The recorded times re-decide the same events.
    assert (await audit(service.store, match_id)).status == "ok"


async def test_a_restarted_scheduler_neither_misses_nor_doubles_an_expiry(
    redis: Redis, redis_server: str, service: CommandService, client: TabletopClient, clock: Clock
) -> None:
    bot = TimeControl(kind="move", seconds=60, expiry="bot")
    match_id = await clocked_match(client, "chicken", 3, bot)
    p = partition_of(match_id, PARTITIONS)
    first = scheduler(redis, redis_server, clock)
    await first.pass_once()
    live = await load_match(service.store, match_id)
    assert live is not None and live.state.clock is not None
    [seat] = live.state.clock.running
    deadline = live.state.clock.deadline(seat)
    clock.now = deadline + 5
    assert await first.fire(p) == 1

    async def version_past(v: int) -> bool:
        found = await load_match(service.store, match_id)
        return found is not None and found.state.version > v

    await wait_for(lambda: version_past(live.state.version), "the bot's move")
    after_one = await load_match(service.store, match_id)
    assert after_one is not None
    # The scheduler dies before it reads what its command did, and a new one starts from
    # the checkpoint with no memory: the old deadline is still in Redis, so it sends the
    # expiry again -- under the same command id, answered as a duplicate.
    second = scheduler(redis, redis_server, clock)
    assert await second.fire(p) == 1

    async def answered() -> bool:
        await second.read_replies()
        found = cast(Entries, await redis.xrange(second.reply_to))
        return len(found) >= 2

    await wait_for(answered, "the command service answers the resend")
    again = await load_match(service.store, match_id)
    assert again is not None and again.state.version == after_one.state.version
    expiries = [e for e in await events_of(service, match_id) if isinstance(e, TimeRanOut)]
    assert len(expiries) == 1
    # Following the log, it learns the next seat's deadline and sends that one when due.
    await second.pass_once()
    assert again.state.clock is not None
    [nxt] = again.state.clock.running
    nxt_deadline = again.state.clock.deadline(nxt)
    assert nxt_deadline == deadline + 5 + 60_000
    clock.now = nxt_deadline
    assert await second.pass_once() > 0
    await wait_for(lambda: version_past(again.state.version), "the second expiry")
    expiries = [e for e in await events_of(service, match_id) if isinstance(e, TimeRanOut)]
    assert [e.seat for e in expiries] == [seat, nxt]
    assert (await audit(service.store, match_id)).status == "ok"


async def test_an_expiry_a_move_overtook_changes_nothing(
    redis: Redis, redis_server: str, service: CommandService, client: TabletopClient, clock: Clock
) -> None:
    match_id = await clocked_match(client, "countdown", 2, MOVE_60)
    seat = await running_seat(service, match_id)
    # The player moves at the last moment; the scheduler has not read the log since.
    sched = scheduler(redis, redis_server, clock)
    await sched.pass_once()
    clock.now = T0 + 59_999
    await client.play(match_id, f"p{seat}", {"type": "countdown.take", "count": 1})
    clock.now = T0 + 60_000
    p = partition_of(match_id, PARTITIONS)
    assert await sched.fire(p) == 1

    async def refused() -> bool:
        await sched.read_replies()
        return bool(await redis.xrange(sched.reply_to))

    await wait_for(refused, "the stale expiry is answered")
    [(_, fields)] = cast(Entries, await redis.xrange(sched.reply_to))
    assert b"clock_moved_on" in fields[b"r"]
    after = await load_match(service.store, match_id)
    assert after is not None and after.state.status == "playing"
    assert not any(isinstance(e, TimeRanOut) for e in await events_of(service, match_id))


async def notices_of(redis: Redis, match_id: str) -> list[Any]:
    from services.readside.notices import decode_entry

    keys = Keys(partition_of(match_id, PARTITIONS))
    found = cast(Entries, await redis.xrange(keys.notices))
    return [n for _, f in found if (n := decode_entry(f)) and n.match_id == match_id]


async def test_a_seat_is_told_once_its_time_runs_low_and_only_once(
    redis: Redis, redis_server: str, service: CommandService, client: TabletopClient, clock: Clock
) -> None:
    match_id = await clocked_match(client, "countdown", 2, MOVE_60)
    seat = await running_seat(service, match_id)
    sched = scheduler(redis, redis_server, clock)
    # With 13 s of the 60 left, not yet: a fifth of the minute is 12 s.
    clock.now = T0 + 47_000
    await sched.pass_once()
    assert [n for n in await notices_of(redis, match_id) if n.kind == "time_running_low"] == []
    clock.now = T0 + 48_500
    await sched.pass_once()
    [low] = [n for n in await notices_of(redis, match_id) if n.kind == "time_running_low"]
    assert low.player == f"p{seat}" and low.seconds_left == 11
    assert low.text == "Your time at Countdown is running low: 11 s left."
    # Another pass, and a scheduler started anew from the same Redis, say nothing more.
    await sched.pass_once()
    await scheduler(redis, redis_server, clock).pass_once()
    lows = [n for n in await notices_of(redis, match_id) if n.kind == "time_running_low"]
    assert lows == [low]
    # The seat moves in time: the other seat's new minute brings its own warning.
    await client.play(match_id, f"p{seat}", {"type": "countdown.take", "count": 1})
    clock.now = T0 + 48_500 + 49_000
    await sched.pass_once()
    lows = [n for n in await notices_of(redis, match_id) if n.kind == "time_running_low"]
    assert [n.player for n in lows] == [f"p{seat}", f"p{1 - seat}"]
