"""A quick-play table's seats follow the table: a player who leaves before the start
frees their seat for the next one, a table everyone left is not filled with bots, and
a seat someone took by hand is skipped, not the end of the table. A leave the gateway
never heard of (a platform's own command on the streams) holds up nobody."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest_asyncio
from redis.asyncio import Redis

from domain import match as m
from events.keys import GATEWAY
from services.gateway.stack import Stack
from services.readside.notices import BOT_PREFIX
from tests.gateway.conftest import gateway, sign_in

ASK = {"game": "easypeasy", "seats": 3}


@pytest_asyncio.fixture
async def slow_bots(redis: Redis, redis_server: str) -> AsyncIterator[httpx.AsyncClient]:
    """Bots only after a minute: every seat here is taken by people, however slow."""
    async with gateway(redis_server, quickplay_wait=60, bot_delay=0) as (_, http):
        yield http


async def quick(http: httpx.AsyncClient, who: dict[str, str]) -> tuple[str, int]:
    seated = await http.post("/api/quickplay", json=ASK, headers=who)
    assert seated.status_code == 200, seated.text
    return seated.json()["match_id"], seated.json()["seat"]


async def status(http: httpx.AsyncClient, match_id: str, who: dict[str, str]) -> str:
    table = (await http.get(f"/api/matches/{match_id}", headers=who)).json()
    return str(table["view"]["status"])


async def test_a_seat_left_before_the_start_goes_to_the_next_player(
    slow_bots: httpx.AsyncClient,
) -> None:
    http = slow_bots
    ann, dan, bea, cy = [await sign_in(http, n) for n in ("Ann", "Dan", "Bea", "Cy")]
    match_id, ann_seat = await quick(http, ann)
    assert (await quick(http, dan))[0] == match_id
    assert (await http.post(f"/api/matches/{match_id}/leave", json={}, headers=ann)).is_success
    # Bea gets the seat Ann left; Cy the last one, and the table starts.
    assert await quick(http, bea) == (match_id, ann_seat)
    assert (await quick(http, cy))[0] == match_id
    assert await status(http, match_id, bea) == "playing"


async def test_a_table_everyone_left_is_not_filled_with_bots(
    stack: Stack, http: httpx.AsyncClient, redis: Redis
) -> None:
    ann = await sign_in(http, "Ann")
    match_id, _ = await quick(http, ann)
    assert (await http.post(f"/api/matches/{match_id}/leave", json={}, headers=ann)).is_success
    assert await redis.zscore(GATEWAY.quickplay_due, match_id) is None
    await asyncio.sleep(stack.server.app.state.gateway.config.quickplay_wait + 1)  # past its wait
    table = (await http.get(f"/api/matches/{match_id}", headers=ann)).json()
    assert table["view"]["status"] == "closed"  # its last player left
    assert table["view"]["players"] == [None, None, None]
    assert table["commands"] == []
    # The next to quick-play opens a table of their own.
    bea = await sign_in(http, "Bea")
    assert (await quick(http, bea))[0] != match_id


async def test_a_seat_taken_by_hand_is_skipped_and_the_table_fills_around_it(
    slow_bots: httpx.AsyncClient,
) -> None:
    http = slow_bots
    ann, zed, bea = [await sign_in(http, n) for n in ("Ann", "Zed", "Bea")]
    match_id, first = await quick(http, ann)
    # Zed sits down from the lobby in the seat quick play would give next.
    taken = first + 1
    joined = await http.post(f"/api/matches/{match_id}/join", json={"seat": taken}, headers=zed)
    assert joined.is_success
    assert await quick(http, bea) == (match_id, taken + 1)
    assert await status(http, match_id, bea) == "playing"


async def left_behind_the_gateways_back(stack: Stack, match_id: str, player: str) -> None:
    """The platform sends the leave on the command streams itself."""
    gateway = stack.server.app.state.gateway
    await gateway.client.send(match_id, m.LeaveMatch(player=player))


async def players(http: httpx.AsyncClient, match_id: str, who: dict[str, str]) -> list[str | None]:
    table = (await http.get(f"/api/matches/{match_id}", headers=who)).json()
    return list(table["view"]["players"])


async def test_a_seat_left_by_a_platforms_own_command_is_taken_by_a_bot_after_the_wait(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    ann, dan, bea = [await sign_in(http, n) for n in ("Ann", "Dan", "Bea")]
    match_id, ann_seat = await quick(http, ann)
    assert (await quick(http, dan))[0] == match_id
    await left_behind_the_gateways_back(stack, match_id, "dev-ann")
    # The queue still counts Ann: Bea takes the last seat, and the table waits with
    # Ann's empty, until a bot sits there.
    assert (await quick(http, bea))[0] == match_id
    assert await status(http, match_id, bea) == "lobby"
    wait = stack.server.app.state.gateway.config.quickplay_wait
    for _ in range(int(wait * 10) + 50):
        if await status(http, match_id, bea) == "playing":
            break
        await asyncio.sleep(0.1)
    seated = await players(http, match_id, bea)
    assert await status(http, match_id, bea) == "playing", seated
    assert str(seated[ann_seat]).startswith(BOT_PREFIX), seated


async def test_nobody_left_at_the_table_means_no_bots_however_they_left(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    ann = await sign_in(http, "Ann")
    match_id, _ = await quick(http, ann)
    await left_behind_the_gateways_back(stack, match_id, "dev-ann")
    quick_play = stack.server.app.state.gateway.quick
    await asyncio.sleep(stack.server.app.state.gateway.config.quickplay_wait + 1)  # past its wait
    assert quick_play.filled == 1  # its deadline came
    assert await players(http, match_id, ann) == [None, None, None]
    assert await status(http, match_id, ann) == "closed"  # its last player left
