"""A real Redis Cluster on loopback, from the shipped redis-server, and the services on it.

test_cluster.py is in the default run (about 20 s). Killing a master and moving slots
under load (test_failover.py, test_reshard.py, marked `cluster`) takes over a minute,
so `.ci/run` runs them on their own:
`TABLETOP_CLUSTER_TROUBLE=1 pytest -q -m cluster tests/cluster`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import msgspec
import pytest
from redis.asyncio import Redis

from domain import match as m
from domain.kernel import get_game
from events.keys import partition_of
from events.matches import load_match
from events.store import EventStore
from services import compose
from services.client.bots import NAMES, play_match
from services.client.client import TabletopClient
from services.commands.service import CommandService
from services.contracts.messages import ENCODER, Reply
from services.infra.cluster import EmbeddedCluster
from services.infra.config import Settings
from services.infra.redisconn import GONE
from services.readside.projector import Projector

collect_ignore_glob = (
    []
    if os.environ.get("TABLETOP_CLUSTER_TROUBLE") == "1"
    else ["test_failover.py", "test_reshard.py"]
)

P = 16  # the default: its tags spread over the three masters' slot ranges


@pytest.fixture(scope="module")
def cluster3(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedCluster]:
    """Three masters, no replicas, shared by a module's tests (each flushes it)."""
    cluster = EmbeddedCluster(tmp_path_factory.mktemp("cluster"), masters=3).start()
    try:
        yield cluster
    finally:
        cluster.stop()


async def until(check: Callable[[], bool], timeout: float = 60.0) -> None:
    """Wait for a condition, checked every 50 ms."""
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.05)


def ids_for_every_partition(per: int, partitions: int = P) -> list[str]:
    """`per` fresh match ids in each partition."""
    wanted = {p: per for p in range(partitions)}
    out: list[str] = []
    while wanted:
        mid = uuid.uuid4().hex[:16]
        p = partition_of(mid, partitions)
        if p in wanted:
            out.append(mid)
            wanted[p] -= 1
            if not wanted[p]:
                del wanted[p]
    return out


def settings(url: str, owned: list[int] | None = None, **kw: Any) -> Settings:
    return Settings(
        trust_seeds=True, redis_url=url, partitions=P, polling_ms=20, command_partitions=owned, **kw
    )


@contextlib.asynccontextmanager
async def deployment(
    url: str, *, services: int = 1, **kw: Any
) -> AsyncIterator[tuple[list[CommandService], Projector, Redis]]:
    """Command services (splitting the partitions when several), a projector following
    every partition, and a client of the services' kind: the whole of it, on `url`."""
    split = [list(range(i, P, services)) for i in range(services)] if services > 1 else [None]
    svcs = [compose.command_service(settings(url, owned, **kw)) for owned in split]
    for svc in svcs:
        await svc.start()
    redis = compose.redis_client(settings(url))
    projector = compose.projector(settings(url), redis)
    projector.start()
    try:
        yield svcs, projector, redis
    finally:
        await projector.stop()
        for svc in svcs:
            await svc.stop()
        await redis.aclose()


async def play_everywhere(
    client: TabletopClient, service: CommandService, ids: list[str]
) -> list[str]:
    """A whole countdown match under each id, all at once; the ids of those played."""
    done = await asyncio.gather(
        *(
            play_match(
                client,
                service.store,
                "countdown",
                seats=2 + i % 2,
                seed=i,
                bot_seed=i,
                options={"start": 9},
                match_id=mid,
            )
            for i, mid in enumerate(ids)
        )
    )
    return [mid for mid, _ in done]


class Load:
    """Bots that keep playing through trouble, and the tally of what was acknowledged.

    Each bot re-reads its match from the store before every command and drives it from
    whatever it finds (no match: create it; free seats: join; full: start; playing: a
    random legal move), so a write lost in a failover costs it a step, never the match.
    A command whose reply does not come is sent again under the same id (idempotent).
    `acked` holds every command answered `accepted`: afterwards, each must be in the
    store, else it was acknowledged and lost."""

    def __init__(self, client: TabletopClient, store: EventStore) -> None:
        self.client = client
        self.store = store
        self.acked: dict[str, str] = {}  # command id -> match id
        self.resent = 0
        self.moves = 0

    async def send(self, match_id: str, command: Any) -> Reply:
        command_id = uuid.uuid4().hex
        for _ in range(30):
            try:
                reply = await self.client.send(
                    match_id, command, command_id=command_id, check=False
                )
            except TimeoutError:
                self.resent += 1
                continue
            if reply.status == "accepted" or reply.original_status == "accepted":
                self.acked[command_id] = match_id
            return reply
        raise AssertionError(f"no reply for {command_id} in 30 tries")

    async def play(self, match_id: str, seed: int, seats: int = 2, start: int = 9) -> None:
        bot = random.Random(seed)
        names = NAMES[:seats]
        for _ in range(500):
            try:
                live = await load_match(self.store, match_id)
            except GONE:  # a master gone until its replica takes over: read again
                await asyncio.sleep(0.1)
                continue
            if live is None:
                await self.send(
                    match_id,
                    m.CreateMatch(game="countdown", seats=seats, options={"start": start}),
                )
                continue
            state = live.state
            if state.status == "finished":
                return
            if state.status == "lobby":
                missing = [n for n in names if n not in state.players]
                if missing:
                    await self.send(match_id, m.JoinMatch(player=missing[0], seat=None))
                else:
                    await self.send(match_id, m.StartMatch(player=names[0], seed=seed))
                continue
            game = get_game("countdown")
            seat = bot.choice(sorted(game.to_act(state.game_state)))
            move = bot.choice(list(game.legal(state.game_state, seat)))
            raw = msgspec.Raw(ENCODER.encode(move))
            await self.send(match_id, m.PlayMove(player=names[seat], move=raw))
            self.moves += 1
        raise AssertionError(f"match {match_id} did not finish")

    async def lost(self) -> list[str]:
        """The acknowledged commands the store does not have."""
        return [
            cid for cid, mid in self.acked.items() if await self.store.reply_for(mid, cid) is None
        ]
