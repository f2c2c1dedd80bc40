"""Whose turn it is and the notices players get, derived by the projector from the real
streams: once per event across restarts and rebuilds, capped, posted by other code."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest
import pytest_asyncio
from redis.asyncio import Redis

from domain import match as m
from events.keys import Keys, partition_of
from events.matches import load_match
from services import compose
from services.client.client import TabletopClient
from services.commands.service import CommandService
from services.gateway.seating import Bots
from services.infra.config import Settings
from services.readside import notices as n
from services.readside.projector import Projector
from services.readside.readmodels import ReadModels
from services.readside.schema import Notice
from services.readside.writes import RUN_LUA, Writes
from tests.support.countdown import Take

pytestmark = pytest.mark.redis
P = 4


@pytest_asyncio.fixture
async def service(redis: Redis, redis_server: str) -> AsyncIterator[CommandService]:
    svc = compose.command_service(
        Settings(trust_seeds=True, redis_url=redis_server, partitions=P, polling_ms=20)
    )
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


@pytest_asyncio.fixture
async def client(service: CommandService, redis_server: str) -> AsyncIterator[TabletopClient]:
    async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as c:
        yield c


async def opened(client: TabletopClient, start: int = 5) -> str:
    """Ann and Bea at a countdown table, started."""
    match_id = await client.create("countdown", 2, {"start": start})
    await client.join(match_id, "ann")
    await client.join(match_id, "bea")
    await client.start(match_id, "ann", seed=3)
    return match_id


async def whose_turn(service: CommandService, match_id: str) -> str:
    found = await load_match(service.store, match_id)
    assert found is not None
    seat: int = found.state.game_state.turn
    player = found.state.players[seat]
    assert player is not None
    return player


async def stream_notices(redis: Redis) -> list[Notice]:
    out = []
    for p in range(P):
        entries: Any = await redis.xrange(Keys(p).notices)
        out += [notice for _, fields in entries if (notice := n.decode_entry(fields))]
    return out


async def test_the_player_to_act_finds_the_match_among_their_turns(
    service: CommandService, client: TabletopClient, redis: Redis
) -> None:
    match_id = await opened(client)
    projector = Projector(redis, service.store, partitions=range(P))
    await projector.catch_up()
    models = ReadModels(redis, P)
    first = await whose_turn(service, match_id)
    other = "bea" if first == "ann" else "ann"
    # The first player sees the match; the other does not.
    assert [s.match_id for s, _ in await models.turns(first)] == [match_id]
    assert await models.turns(other) == []
    # The first player takes one: now it is the other's turn.
    await client.play(match_id, first, Take(count=1))
    await projector.catch_up()
    assert await models.turns(first) == []
    [(summary, since)] = await models.turns(other)
    assert summary.match_id == match_id and since == summary.updated_at


async def test_each_change_of_turn_and_the_finish_notify_once(
    service: CommandService, client: TabletopClient, redis: Redis
) -> None:
    match_id = await opened(client, start=3)
    projector = Projector(redis, service.store, partitions=range(P))
    await projector.catch_up()
    first = await whose_turn(service, match_id)
    other = "bea" if first == "ann" else "ann"
    # First takes 1, the other takes 2 and wins.
    await client.play(match_id, first, Take(count=1))
    await client.play(match_id, other, Take(count=2))
    await projector.catch_up()
    said = [(x.kind, x.player) for x in await stream_notices(redis)]
    assert said == [
        ("your_turn", first),
        ("your_turn", other),
        ("match_finished", "ann"),
        ("match_finished", "bea"),
    ]
    done = {x.player: x for x in await stream_notices(redis) if x.kind == "match_finished"}
    assert done[other].rank == 1 and done[first].rank == 2
    assert "you came 1st" in done[other].text
    models = ReadModels(redis, P)
    assert await models.turns(first) == [] and await models.turns(other) == []
    assert [x.kind for x in await models.inbox(other)] == ["your_turn", "match_finished"]


async def test_a_restarted_projector_and_a_rebuild_send_no_notice_twice(
    service: CommandService, client: TabletopClient, redis: Redis
) -> None:
    match_id = await opened(client, start=4)
    await Projector(redis, service.store, partitions=range(P)).catch_up()
    first = await whose_turn(service, match_id)
    await client.play(match_id, first, Take(count=1))
    before = await stream_notices(redis)
    models = ReadModels(redis, P)
    # A fresh projector process goes on from the checkpoint.
    again = Projector(redis, service.store, partitions=range(P))
    await again.catch_up()
    after_restart = await stream_notices(redis)
    assert len(after_restart) == len(before) + 1
    inbox = {p: await models.inbox(p) for p in ("ann", "bea")}
    turns = {p: await models.turns(p) for p in ("ann", "bea")}
    # A rebuild of the read models writes the same turns and inboxes, and no notice.
    await Projector(redis, service.store, partitions=range(P)).rebuild("matches")
    assert await stream_notices(redis) == after_restart
    assert {p: await models.inbox(p) for p in ("ann", "bea")} == inbox
    assert {p: await models.turns(p) for p in ("ann", "bea")} == turns
    assert len({x.id for x in after_restart}) == len(after_restart)
    # Data from before notices existed has no mark: a rebuild sends none of its past.
    for p in range(P):
        await redis.delete(Keys(p).notices_mark)
    await Projector(redis, service.store, partitions=range(P)).rebuild("matches")
    assert await stream_notices(redis) == after_restart


async def test_a_notice_posted_twice_is_written_once(redis: Redis) -> None:
    notice = Notice(
        id=n.notice_id("m-low", 7, "time_running_low", "ann"),
        kind="time_running_low",
        player="ann",
        match_id="m-low",
        game="countdown",
        version=7,
        at=1_000,
        text="Under a minute left at Countdown.",
        seconds_left=55,
    )
    assert await n.post_notice(redis, P, notice) is True
    assert await n.post_notice(redis, P, notice) is False
    assert await stream_notices(redis) == [notice]
    assert await ReadModels(redis, P).inbox("ann") == [notice]


async def test_inboxes_keep_the_latest_and_the_stream_is_capped(
    redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(n, "STREAM_MAXLEN", 100)
    p = partition_of("m-many", P)
    many = [
        (
            Notice(
                id=n.notice_id("m-many", v, "your_turn", "ann"),
                kind="your_turn",
                player="ann",
                match_id="m-many",
                game="countdown",
                version=v,
                at=v,
            ),
            True,
        )
        for v in range(1, 1001)
    ]
    for start in range(0, len(many), 100):
        writes = Writes()
        n.write(writes, p, many[start : start + 100])
        await redis.eval(RUN_LUA, len(writes.keys), *writes.keys, writes.packed())
    kept = await ReadModels(redis, P).inbox("ann", limit=1000)
    assert [x.version for x in kept] == list(range(1001 - n.INBOX_SIZE, 1001))
    # MAXLEN ~ trims whole nodes of the stream: near its cap, never all thousand.
    assert 100 <= await redis.xlen(Keys(p).notices) < 300


def test_a_rule_registered_for_an_event_type_gives_its_notices() -> None:
    state = m.MatchState(game="countdown", seats=2, options={}, players=["ann", "bea"])

    @n.rule("test.rematch_offered")
    def offered(before: Any, after: m.MatchState, event: Any) -> list[n.Draft]:
        return [n.Draft(p, "rematch_offered", "A rematch?", rematch_id="m2") for p in ("ann",)]

    try:
        said, _ = n.derive("m1", 9, 5, "test.rematch_offered", state, state, None)
        assert [(x.kind, x.player, x.rematch_id, x.id) for x in said] == [
            ("rematch_offered", "ann", "m2", "m1:9:rematch_offered:ann")
        ]
        # Without a rule an event type gives no notice.
        assert n.derive("m1", 9, 5, "test.other", state, state, None)[0] == []
    finally:
        del n.RULES["test.rematch_offered"]


def test_a_rematch_offer_tells_each_other_player_the_rematch_to_answer() -> None:
    state = m.MatchState(
        game="countdown", seats=3, options={}, players=["ann", "bea", "bot-0123456789ab"]
    )
    event = m.RematchOffered(player="bea", seat=1)
    said, _ = n.derive("m1", 12, 5, "match.rematch_offered", state, state, event)
    # Not the offerer (offering is accepting), nor a bot.
    assert [(x.kind, x.player, x.rematch_id, x.id) for x in said] == [
        ("rematch_offered", "ann", m.rematch_id("m1"), "m1:12:rematch_offered:ann")
    ]
    assert said[0].text == "bea offers a rematch of Countdown: accept or decline it."


def test_a_table_closed_for_waiting_tells_whoever_still_sat_there() -> None:
    state = m.MatchState(
        game="countdown", seats=3, options={}, players=["ann", None, "bot-0123456789ab"]
    )
    closed = msgspec.structs.replace(state, status="closed")
    event = m.TableClosed(reason="idle")
    said, _ = n.derive("m1", 4, 5, "match.closed", state, closed, event)
    assert [(x.kind, x.player, x.id) for x in said] == [
        ("table_closed", "ann", "m1:4:table_closed:ann")
    ]
    assert said[0].text == "Your table of Countdown was closed: nobody came to start it."


async def test_bots_get_no_turns_and_no_notices(
    service: CommandService, client: TabletopClient, redis: Redis
) -> None:
    match_id = await client.create("countdown", 2, {"start": 1})
    await client.join(match_id, "ann")
    await client.join(match_id, "bot-0123456789ab")
    await client.start(match_id, "ann", seed=3)
    projector = Projector(redis, service.store, partitions=range(P))
    await projector.catch_up()
    first = await whose_turn(service, match_id)
    await client.play(match_id, first, Take(count=1))
    await projector.catch_up()
    heard = {x.player for x in await stream_notices(redis)}
    assert heard == {"ann"}
    assert await ReadModels(redis, P).inbox("bot-0123456789ab") == []
    assert not await redis.exists(Keys(partition_of(match_id, P)).turns("bot-0123456789ab"))


def test_the_gateways_bots_are_named_with_the_prefix_notices_leave_out() -> None:
    from services.gateway import seating

    # The gateway names its bots by the very constant the notices leave out.
    # seating imports the constant for its own use, not to re-export it: looked up there.
    assert seating.BOT_PREFIX is n.BOT_PREFIX  # type: ignore[attr-defined]
    assert 'id=f"{BOT_PREFIX}' in inspect.getsource(Bots.seat)
