"""A rematch through the real streams: the finished match agrees on it, the rematch
process opens it, and a crash and retry never opens two. Real redis-server, the real
command service and projector."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest
import pytest_asyncio
from click.testing import CliRunner
from redis.asyncio import Redis

from domain import match as m
from domain.kernel import get_game
from events.keys import Keys, partition_of
from events.matches import load_match
from services import compose
from services.cli.main import main
from services.client.client import CommandRejected, TabletopClient
from services.commands.service import CommandService
from services.infra.config import Settings
from services.readside.readmodels import ReadModels
from services.rematch.service import Rematcher, opening

pytestmark = pytest.mark.redis

PARTITIONS = 4
TAKE_ALL = {"type": "countdown.take", "count": 3}


def settings(redis_server: str) -> Settings:
    return Settings(redis_url=redis_server, partitions=PARTITIONS, polling_ms=20, trust_seeds=True)


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


def rematcher(redis: Redis, redis_server: str, client: TabletopClient) -> Rematcher:
    return compose.rematcher(settings(redis_server), redis, client)


async def finished_match(client: TabletopClient, service: CommandService) -> str:
    """Ann and Bea play Countdown from 3; whoever goes first takes all and wins."""
    match_id = uuid.uuid4().hex[:16]
    await client.create("countdown", 2, {"start": 3}, match_id=match_id)
    await client.join(match_id, "ann")
    await client.join(match_id, "bea")
    await client.start(match_id, "ann", seed=4)
    live = await load_match(service.store, match_id)
    assert live is not None
    first = live.state.players[live.state.game_state.turn]
    assert first is not None
    await client.play(match_id, first, TAKE_ALL)
    return match_id


async def test_an_agreed_rematch_is_opened_with_the_seats_rotated_and_linked(
    redis: Redis,
    redis_server: str,
    service: CommandService,
    client: TabletopClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    old = await finished_match(client, service)
    # Ann offers, Bea accepts: the old match records the agreement, naming the rematch.
    await client.offer_rematch(old, "ann")
    reply = await client.accept_rematch(old, "bea")
    agreed = msgspec.json.decode(bytes(reply.events[-1]), type=m.RematchAgreed)
    new = agreed.match_id
    assert new == m.rematch_id(old) and agreed.players == ("bea", "ann")
    # The rematch process follows the log and opens it.
    process = rematcher(redis, redis_server, client)
    assert await process.pass_once() > 0
    assert process.opened == 1
    live = await load_match(service.store, new)
    assert live is not None
    assert live.state.status == "playing"
    assert live.state.players == ["bea", "ann"]
    assert live.state.options == {"start": 3}
    assert live.state.rematch_of == old
    # Both read models name the other match.
    projector = compose.projector(settings(redis_server), redis)
    await projector.catch_up()
    reads = ReadModels(redis, PARTITIONS)
    before, after = await reads.summary(old), await reads.summary(new)
    assert before is not None and after is not None
    assert (before.rematch, after.rematch_of) == (new, old)
    # `tabletop show` names the other match on either.
    monkeypatch.setenv("TABLETOP_REDIS_URL", redis_server)
    monkeypatch.setenv("TABLETOP_PARTITIONS", str(PARTITIONS))
    shown = await asyncio.to_thread(CliRunner().invoke, main, ["show", old])
    assert shown.exit_code == 0 and f"rematch: {new}" in shown.output
    shown = await asyncio.to_thread(CliRunner().invoke, main, ["show", new])
    assert shown.exit_code == 0 and f"rematch of: {old}" in shown.output
    # Nothing more to open: the checkpoints move past the agreement (and the rematch's
    # own opening events), and the rematch is opened once.
    while await process.pass_once():
        pass
    assert process.opened == 1


async def test_a_crash_and_retry_never_opens_two_rematches(
    redis: Redis, redis_server: str, service: CommandService, client: TabletopClient
) -> None:
    old = await finished_match(client, service)
    await client.offer_rematch(old, "bea")
    await client.accept_rematch(old, "ann")
    live = await load_match(service.store, old)
    assert live is not None and live.state.rematch is not None
    new = live.state.rematch.match_id
    # A first process crashes after creating the rematch and seating one player.
    agreed = m.RematchAgreed(
        match_id=new, game="countdown", options={"start": 3}, players=("bea", "ann")
    )
    for command_id, command in opening(old, agreed)[:2]:
        await client.send(new, command, command_id=command_id)
    # Its successor starts from the same checkpoint (none): the same commands again.
    process = rematcher(redis, redis_server, client)
    await process.pass_once()
    first = await load_match(service.store, new)
    assert first is not None and first.state.status == "playing"
    # Another process, or the same one restarted with its checkpoint lost, sends them all
    # once more: every one is answered duplicate, and the rematch is still the one match.
    await redis.delete(Keys(partition_of(old, PARTITIONS)).rematch_checkpoint)
    again = rematcher(redis, redis_server, client)
    await again.pass_once()
    second = await load_match(service.store, new)
    assert second is not None and second.state.version == first.state.version
    replies: Any = [
        await client.send(new, c, command_id=cid, check=False) for cid, c in opening(old, agreed)
    ]
    assert {r.status for r in replies} == {"duplicate"}


async def test_undo_through_the_streams_reads_in_every_history(
    redis: Redis, redis_server: str, service: CommandService, client: TabletopClient
) -> None:
    match_id = uuid.uuid4().hex[:16]
    await client.create("threethirteen", 2, match_id=match_id)
    await client.join(match_id, "ann")
    await client.join(match_id, "bea")
    await client.start(match_id, "ann", seed=7)
    live = await load_match(service.store, match_id)
    assert live is not None
    [seat] = get_game("threethirteen").to_act(live.state.game_state)
    player = ["ann", "bea"][seat]
    # Nobody has moved: nothing to take back, and the referee says why.
    with pytest.raises(CommandRejected) as err:
        await client.undo(match_id, player)
    assert err.value.code == "cannot_undo"
    await client.play(match_id, player, {"type": "threethirteen.take_discard"})
    reply = await client.undo(match_id, player)
    assert [msgspec.json.decode(bytes(e))["type"] for e in reply.events] == ["match.undone"]
    after = await load_match(service.store, match_id)
    assert after is not None
    codec = m.codec("threethirteen")
    assert codec.encode(after.state.game_state) == codec.encode(live.state.game_state)
    # The other player's history has the move and its taking back, never the marker.
    projector = compose.projector(settings(redis_server), redis)
    await projector.catch_up()
    lines = await ReadModels(redis, PARTITIONS).history(match_id, 1 - seat)
    types = [msgspec.json.decode(bytes(line.event))["type"] for line in lines]
    assert types[-2:] == ["threethirteen.discard_taken", "match.undone"]
    assert "match.undo_point" not in types
    assert lines[-1].text == f"{player} took back their move."
