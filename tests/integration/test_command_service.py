"""The command service end to end: real redis-server, real streams, real consumer groups."""

from __future__ import annotations

import asyncio
import inspect
import uuid
from collections.abc import AsyncIterator

import msgspec
import pytest
import pytest_asyncio
from faststream.redis.subscriber.usecases import StreamBatchSubscriber
from redis.asyncio import Redis

from domain import match as m
from events.keys import Keys, partition_of, reply_stream
from events.matches import fold_envelopes, load_match
from services import compose
from services.client.bots import play_match
from services.client.client import CommandRejected, TabletopClient
from services.commands.service import CommandService
from services.contracts.messages import ENCODER, REPLY_DECODER, CommandMessage
from services.infra.config import Settings
from tests.support.countdown import Take

pytestmark = pytest.mark.redis


@pytest_asyncio.fixture
async def service(redis: Redis, redis_server: str) -> AsyncIterator[CommandService]:
    svc = compose.command_service(
        Settings(
            trust_seeds=True, redis_url=redis_server, partitions=4, snapshot_every=5, polling_ms=20
        )
    )
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


@pytest_asyncio.fixture
async def client(redis_server: str) -> AsyncIterator[TabletopClient]:
    async with TabletopClient.from_url(redis_server, partitions=4, timeout=10) as c:
        yield c


async def seated_match(client: TabletopClient, seed: int = 3, start: int = 30) -> str:
    match_id = await client.create("countdown", 2, {"start": start})
    await client.join(match_id, "ann")
    await client.join(match_id, "bea")
    await client.start(match_id, "ann", seed=seed)
    return match_id


async def test_a_whole_match_is_played_through_the_streams(
    service: CommandService, client: TabletopClient
) -> None:
    match_id, live = await play_match(
        client, service.store, "countdown", seats=3, seed=5, options={"start": 25}
    )
    assert live.state.status == "finished"
    assert live.state.outcome is not None and min(live.state.outcome.ranks) == 1
    stored = await service.store.load(match_id)
    assert [e.version for e in stored] == list(range(1, live.state.version + 1))


async def test_an_accepted_command_answers_with_the_events_redacted_for_its_sender(
    service: CommandService, client: TabletopClient
) -> None:
    match_id = await client.create("countdown", 2)
    await client.join(match_id, "ann")
    await client.join(match_id, "bea")
    reply = await client.start(match_id, "bea", seed=11)
    assert reply.status == "accepted"
    dealt = [msgspec.json.decode(e) for e in reply.events if b"countdown.dealt" in bytes(e)]
    # Bea sits in seat 1: the secret die is hidden from her.
    assert dealt and dealt[0]["secret"] is None


async def test_a_command_out_of_turn_is_rejected_and_changes_nothing(
    service: CommandService, client: TabletopClient
) -> None:
    match_id = await seated_match(client)
    live = await load_match(service.store, match_id)
    assert live is not None
    waiting = "bea" if live.state.game_state.turn == 0 else "ann"
    with pytest.raises(CommandRejected) as err:
        await client.play(match_id, waiting, Take(count=1))
    assert err.value.code == "not_your_turn"
    assert "turn" in err.value.reply.message
    after = await load_match(service.store, match_id)
    assert after is not None and after.state.version == live.state.version


async def test_the_same_command_id_twice_appends_once_and_answers_the_same(
    service: CommandService, client: TabletopClient
) -> None:
    match_id = await seated_match(client)
    live = await load_match(service.store, match_id)
    assert live is not None
    player = live.state.players[live.state.game_state.turn]
    assert player is not None
    move = m.PlayMove(player=player, move=msgspec.Raw(b'{"type":"countdown.take","count":2}'))
    first = await client.send(match_id, move, command_id="once")
    again = await client.send(match_id, move, command_id="once")
    assert first.status == "accepted"
    assert again.status == "duplicate" and again.original_status == "accepted"
    assert again.version == first.version
    assert len(await service.store.load(match_id)) == first.version


async def test_a_command_that_cannot_be_decoded_gets_a_rejection_not_a_crash(
    service: CommandService, client: TabletopClient
) -> None:
    bad = b'{"command_id":"b1","match_id":"zz","reply_to":"%s","command":{"type":"match.nope"}}'
    reply = await client.send_bytes("zz", "b1", bad % client.reply_stream.encode())
    assert reply.status == "rejected" and reply.code == "malformed_command"
    # Total garbage has nobody to answer: it is kept in the dead-letter stream.
    p = partition_of("zz", 4)
    await client.redis.xadd(Keys(p).commands, {"c": b"\xff\x00 not json"})
    for _ in range(100):
        if await client.redis.xlen(f"tt:{{{p}}}:dead"):
            break
        await asyncio.sleep(0.05)
    assert await client.redis.xlen(f"tt:{{{p}}}:dead") == 1
    # The service goes on serving.
    match_id = await seated_match(client)
    assert (await load_match(service.store, match_id)) is not None


async def test_a_bad_move_gets_a_referees_code(
    service: CommandService, client: TabletopClient
) -> None:
    match_id = await seated_match(client)
    live = await load_match(service.store, match_id)
    assert live is not None
    player = live.state.players[live.state.game_state.turn]
    assert player is not None
    with pytest.raises(CommandRejected) as err:
        await client.play(match_id, player, Take(count=9))
    assert err.value.code == "bad_count"
    with pytest.raises(CommandRejected) as err:
        await client.play(match_id, player, {"type": "countdown.take", "count": 1, "x": 1})
    assert err.value.code == "unknown_command"


async def test_a_snapshot_plus_its_tail_equals_the_full_fold(
    service: CommandService, client: TabletopClient
) -> None:
    match_id, live = await play_match(
        client, service.store, "countdown", seats=2, seed=9, options={"start": 40}
    )
    snap = await service.store.load_snapshot(match_id)
    assert snap is not None and 0 < snap.version <= live.state.version
    from_snapshot = await load_match(service.store, match_id)
    full = fold_envelopes(await service.store.load(match_id))
    assert from_snapshot is not None and full is not None
    codec = m.codec("countdown")
    assert codec.encode_state(from_snapshot.state) == codec.encode_state(full.state)
    assert from_snapshot.last_hash == full.last_hash


async def test_a_command_left_pending_by_a_dead_worker_is_claimed(
    redis: Redis, redis_server: str, client: TabletopClient
) -> None:
    settings = Settings(
        trust_seeds=True, redis_url=redis_server, partitions=4, consumer="dead-worker"
    )
    from services.commands.service import create_groups

    await create_groups(redis, settings)
    match_id = uuid.uuid4().hex
    body = ENCODER.encode(
        CommandMessage(
            command_id="orphan",
            match_id=match_id,
            reply_to=client.reply_stream,
            command=m.CreateMatch(game="countdown", seats=2),
        )
    )
    stream = Keys(partition_of(match_id, 4)).commands
    await redis.xadd(stream, {"c": body})
    # The dead worker read it and never acked.
    await redis.xreadgroup(settings.group, "dead-worker", {stream: ">"}, count=10)
    rescuer = compose.command_service(
        Settings(trust_seeds=True, redis_url=redis_server, partitions=4, consumer="rescuer")
    )
    try:
        assert await rescuer.claim(partition_of(match_id, 4), min_idle_ms=0) == 1
        assert await redis.xpending(stream, settings.group) == {
            "pending": 0,
            "min": None,
            "max": None,
            "consumers": [],
        }
        assert len(await rescuer.store.load(match_id)) == 1
    finally:
        await rescuer.redis.aclose()


async def test_concurrent_matches_all_finish(
    service: CommandService, client: TabletopClient
) -> None:
    results = await asyncio.gather(
        *(
            play_match(client, service.store, "countdown", seats=2, seed=s, bot_seed=s)
            for s in range(20)
        )
    )
    assert all(live.state.status == "finished" for _, live in results)


async def test_services_with_partitions_of_their_own_each_take_only_theirs(
    redis: Redis, redis_server: str, client: TabletopClient
) -> None:
    def settings(owned: list[int]) -> Settings:
        return Settings(
            trust_seeds=True,
            redis_url=redis_server,
            partitions=4,
            polling_ms=20,
            command_partitions=owned,
        )

    evens, odds = (
        compose.command_service(settings([0, 2])),
        compose.command_service(settings([1, 3])),
    )
    await evens.start()
    await odds.start()
    try:
        results = await asyncio.gather(
            *(
                play_match(client, evens.store, "countdown", seats=2, seed=s, bot_seed=s)
                for s in range(12)
            )
        )
    finally:
        await evens.stop()
        await odds.stop()
    assert all(live.state.status == "finished" for _, live in results)
    sides = {partition_of(mid, 4) % 2 for mid, _ in results}
    assert sides == {0, 1}  # both services had matches to play
    for service, side in ((evens, 0), (odds, 1)):
        played = [mid for mid, _ in results if partition_of(mid, 4) % 2 == side]
        assert service.processor.stats["conflicts"] == 0
        # Its matches were played through this service, and the others' were not.
        assert service.processor.stats["accepted"] > 0
        assert all(service.processor.cache.get(mid) is not None for mid in played)
        others = [mid for mid, _ in results if mid not in played]
        assert all(service.processor.cache.get(mid) is None for mid in others)


async def test_the_faststream_app_answers_commands_sent_before_it_started(
    redis: Redis, redis_server: str
) -> None:
    # A command waits on its stream before any command service has run.
    match_id, replies = uuid.uuid4().hex, reply_stream("early-bird")
    body = ENCODER.encode(
        CommandMessage(
            command_id="early",
            match_id=match_id,
            reply_to=replies,
            command=m.CreateMatch(game="countdown", seats=2),
        )
    )
    await redis.xadd(Keys(partition_of(match_id, 4)).commands, {"c": body})
    app = compose.create_app(
        Settings(trust_seeds=True, redis_url=redis_server, partitions=4, polling_ms=20)
    )
    await app.start()
    try:
        found = await redis.xread({replies: "0-0"}, block=10_000, count=1)
    finally:
        await app.stop()
    assert isinstance(found, list)  # RESP2's reply: a [stream, entries] pair a stream
    [(_, [(_, fields)])] = found
    reply = REPLY_DECODER.decode(fields[b"r"])
    assert (reply.command_id, reply.status, reply.version) == ("early", "accepted", 1)


async def test_each_subscriber_works_out_its_subscription_once(
    service: CommandService, client: TabletopClient
) -> None:
    # FastStream deep-copies the subscription on every access; the service's copy is made
    # once, and is still the stream, group and consumer it was made for.
    streams = set()
    for sub in service.broker.subscribers:
        assert isinstance(sub, StreamBatchSubscriber)  # a batch of commands a read
        assert isinstance(inspect.getattr_static(type(sub).__mro__[1], "stream_sub"), property)
        first = sub.stream_sub
        assert sub.stream_sub is first
        assert (first.group, first.consumer) == (service.settings.group, service.settings.consumer)
        streams.add(first.name)
    assert streams == {Keys(p).commands for p in range(4)}
    # And it reads with it: a match is opened, joined and started.
    match_id = await seated_match(client)
    live = await load_match(service.store, match_id)
    assert live is not None and live.state.status == "playing"
