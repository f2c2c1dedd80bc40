"""Two gateways on one Redis, as two processes would run: quick-play queues and bots are
shared, a table's bot fill happens once however the gateways race, and bots play on
when the gateway that seated them stops."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import cast

import httpx
import pytest_asyncio
from redis.asyncio import Redis

from events.keys import GATEWAY
from events.matches import load_match
from services.gateway.app import Gateway, GatewayConfig
from services.gateway.stack import Stack
from services.gateway.tokens import Player
from services.infra.config import Settings
from tests.gateway.conftest import SECRET, sign_in


def gateway_of(stack: Stack) -> Gateway:
    found: Gateway = stack.server.app.state.gateway
    return found


async def until(check: Callable[[], Awaitable[bool]], seconds: float = 30.0) -> None:
    """Wait for a condition (no timing is asserted: the limit only stops a hang)."""
    async with asyncio.timeout(seconds):
        while not await check():
            await asyncio.sleep(0.05)


@pytest_asyncio.fixture
async def pair(redis: Redis, redis_server: str) -> AsyncIterator[tuple[Stack, Stack]]:
    settings = Settings(redis_url=redis_server, partitions=4, polling_ms=20)

    def config(wait: float) -> GatewayConfig:
        return GatewayConfig(secret=SECRET, dev_signin=True, quickplay_wait=wait, bot_delay=0.0)

    # One stack runs the command service and projector too; the other is a gateway alone.
    # Bots come after 4 s: long enough for both players to ask on a busy machine.
    first = await Stack(settings, config(4.0)).start()
    second = await Stack(settings, config(4.0), commands=False, projector=False).start()
    try:
        yield first, second
    finally:
        await second.stop()
        await first.stop()


async def test_players_queued_on_two_gateways_land_at_one_table_and_bots_fill_it_once(
    pair: tuple[Stack, Stack], redis: Redis
) -> None:
    a, b = pair
    async with (
        httpx.AsyncClient(base_url=a.url, timeout=30) as on_a,
        httpx.AsyncClient(base_url=b.url, timeout=30) as on_b,
    ):
        ann, bea = await sign_in(on_a, "Ann"), await sign_in(on_b, "Bea")
        ask = {"game": "chicken", "seats": 4}
        # Ann asks the first gateway, Bea the second.
        first = (await on_a.post("/api/quickplay", json=ask, headers=ann)).json()
        second = (await on_b.post("/api/quickplay", json=ask, headers=bea)).json()
        assert first["match_id"] == second["match_id"]
        assert (first["seat"], second["seat"]) == (0, 1)
        match_id = first["match_id"]

        store = gateway_of(a).store

        async def started() -> bool:
            live = await load_match(store, match_id)
            return live is not None and live.state.status != "lobby"

        # Both gateways sweep for tables whose wait is over; one of them fills this one.
        await until(started)
        live = await load_match(store, match_id)
        assert live is not None
        players = live.state.players
        assert players[:2] == ["dev-ann", "dev-bea"]
        assert all(p is not None and p.startswith("bot-") for p in players[2:])
        filled = gateway_of(a).quick.filled + gateway_of(b).quick.filled
        assert filled == 1
        bots = {p for p in players if p and p.startswith("bot-")}
        assert len(bots) == 2
        # Every bot of the table is enlisted, and none other for it.
        enlisted = cast("dict[bytes, bytes]", await redis.hgetall(GATEWAY.bots))
        assert {k.decode() for k in enlisted} == bots


async def test_a_due_table_claimed_by_two_gateways_at_once_gets_its_bots_once(
    pair: tuple[Stack, Stack], redis: Redis
) -> None:
    a, b = pair
    ga, gb = gateway_of(a), gateway_of(b)
    # The sweepers stop; the two gateways then race for the table by hand.
    await ga.quick.stop()
    await gb.quick.stop()
    ga.quick.wait = 0.0

    found = await ga.quick.find(Player("dev-cid", "Cid"), "chicken", 3, {})
    await asyncio.gather(*(q.fill_due() for q in (ga.quick, gb.quick, ga.quick, gb.quick)))
    assert ga.quick.filled + gb.quick.filled == 1
    await asyncio.gather(*ga.quick._fills, *gb.quick._fills)

    async def started() -> bool:
        live = await load_match(ga.store, found.match_id)
        return live is not None and live.state.status == "playing"

    await until(started)
    live = await load_match(ga.store, found.match_id)
    assert live is not None
    assert [p is not None and p.startswith("bot-") for p in live.state.players] == [
        False,
        True,
        True,
    ]
    assert await redis.zcard(GATEWAY.quickplay_due) == 0


async def test_bots_play_on_when_the_gateway_that_seated_them_stops(
    pair: tuple[Stack, Stack],
) -> None:
    a, b = pair
    async with (
        httpx.AsyncClient(base_url=a.url, timeout=30) as on_a,
        httpx.AsyncClient(base_url=b.url, timeout=30) as on_b,
    ):
        ann = await sign_in(on_a, "Ann")
        on_b_ann = await sign_in(on_b, "Ann")
        made = await on_a.post("/api/matches", json={"game": "chicken", "seats": 3}, headers=ann)
        match_id = made.json()["match_id"]
        # Two bots sit down through the second gateway, which then stops.
        for _ in range(2):
            seated = await on_b.post(f"/api/matches/{match_id}/bots", json={}, headers=on_b_ann)
            assert seated.status_code == 200, seated.text
        assert len(gateway_of(b).bots.playing) == 2
    await b.stop()
    ga = gateway_of(a)

    async def adopted() -> bool:
        return ga.bots.adopted == 2

    await until(adopted)
    async with httpx.AsyncClient(base_url=a.url, timeout=30) as on_a:
        ann = await sign_in(on_a, "Ann")
        assert (await on_a.post(f"/api/matches/{match_id}/start", json={}, headers=ann)).is_success
        assert (
            await on_a.post(f"/api/matches/{match_id}/concede", json={}, headers=ann)
        ).is_success

    async def finished() -> bool:
        live = await load_match(ga.store, match_id)
        return live is not None and live.state.status == "finished"

    # Only the bots are left: they play the match to its end on the first gateway.
    await until(finished, 60)

    async def retired() -> bool:
        return ga.bots.playing == set()

    await until(retired)  # each bot sees the end and lets its lease go
