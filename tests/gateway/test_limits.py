"""How fast one player may ask: a bucket per player that a burst empties and time fills,
a 429 that says how long to wait, and nobody else slowed by it."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import httpx
import pytest_asyncio
from redis.asyncio import Redis

from services.gateway.limits import Limits
from services.gateway.stack import Stack
from tests.gateway.conftest import gateway, sign_in
from tests.gateway.test_gateway import live, receive


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_empties_the_bucket_and_time_fills_it_again() -> None:
    clock = Clock()
    limits = Limits(rate=2, burst=3, clock=clock)
    assert [limits.wait("ann") for _ in range(3)] == [0, 0, 0]
    assert limits.wait("ann") == 0.5  # a token comes every half second
    clock.now += 0.5
    assert limits.wait("ann") == 0
    clock.now += 10  # saved up again, but never more than the burst
    assert [limits.wait("ann") for _ in range(4)] == [0, 0, 0, 0.5]


def test_one_players_burst_does_not_slow_another() -> None:
    limits = Limits(rate=1, burst=1, clock=Clock())
    assert limits.wait("ann") == 0
    assert limits.wait("ann") > 0
    assert limits.wait("bea") == 0


def test_a_rate_of_zero_limits_nothing() -> None:
    limits = Limits(rate=0, burst=1, clock=Clock())
    assert all(limits.wait("ann") == 0 for _ in range(1000))


def test_players_whose_buckets_are_full_again_are_forgotten() -> None:
    clock = Clock()
    limits = Limits(rate=1, burst=2, clock=clock, most=3)
    for player in ("a", "b", "c"):
        limits.wait(player)
    clock.now += 5  # every bucket is full again: as good as never used
    limits.wait("d")
    assert set(limits._buckets) == {"d"}


def test_the_refusal_says_the_limit_and_when_to_try_again_and_names_the_player() -> None:
    limits = Limits(rate=10 / 60, burst=10, what="tables opened")
    refusal = limits.refusal(4.2, "dev-ann")
    assert refusal.player == "dev-ann"  # for the operator's log line, not the answer
    assert refusal.status_code == 429
    assert refusal.detail == (
        "Slow down: at most 10 tables opened a minute (bursts of 10); try again in 4.2 s."
    )
    assert refusal.headers == {"Retry-After": "5"}


@pytest_asyncio.fixture
async def slow_gateway(
    redis: Redis, redis_server: str
) -> AsyncIterator[tuple[Stack, httpx.AsyncClient]]:
    """A gateway that lets a player ask once in two seconds, three at once, and open
    two tables a minute: slow enough that a machine under load cannot refill a bucket
    between two requests of a test."""
    limits = {"rate": 0.5, "burst": 3, "tables_per_minute": 2, "tables_burst": 2}
    async with gateway(redis_server, **limits) as both:
        yield both


@pytest_asyncio.fixture
async def slow(slow_gateway: tuple[Stack, httpx.AsyncClient]) -> httpx.AsyncClient:
    return slow_gateway[1]


async def test_a_player_who_asks_too_fast_is_told_to_slow_down_and_others_are_not(
    slow: httpx.AsyncClient,
) -> None:
    ann, bea = await sign_in(slow, "Ann"), await sign_in(slow, "Bea")
    answers = [await slow.get("/api/me", headers=ann) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    refused = answers[-1]
    assert refused.json()["detail"].startswith("Slow down: at most 30 requests a minute")
    assert refused.headers["retry-after"] == "2"
    assert "Traceback" not in refused.text
    assert (await slow.get("/api/me", headers=bea)).status_code == 200
    await asyncio.sleep(2.1)  # a token comes every two seconds
    assert (await slow.get("/api/me", headers=ann)).status_code == 200


async def test_a_move_past_the_limit_is_refused_before_anything_is_sent(
    slow: httpx.AsyncClient,
) -> None:
    ann, bea = await sign_in(slow, "Ann"), await sign_in(slow, "Bea")
    made = await slow.post("/api/matches", json={"game": "chicken", "seats": 2}, headers=ann)
    path = f"/api/matches/{made.json()['match_id']}/commands"
    body = {"command_id": uuid.uuid4().hex, "move": {"type": "chicken.reroll"}}
    answers = [(await slow.post(path, json=body, headers=bea)) for _ in range(4)]
    # The first three reach the referee (Bea has no seat there: refused by it); the
    # fourth is the gateway's, and the referee never hears of it.
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[0].json()["status"] == "rejected"
    assert answers[-1].headers["retry-after"] == "2"
    assert "Slow down" in answers[-1].json()["detail"]


async def test_opening_tables_has_a_limit_of_its_own(slow: httpx.AsyncClient) -> None:
    ann = await sign_in(slow, "Ann")
    opened = [
        await slow.post("/api/matches", json={"game": "chicken", "seats": 2}, headers=ann)
        for _ in range(3)
    ]
    assert [a.status_code for a in opened] == [201, 201, 429]
    assert "tables opened a minute" in opened[-1].json()["detail"]


async def open_table(http: httpx.AsyncClient, headers: dict[str, str]) -> str:
    made = await http.post("/api/matches", json={"game": "chicken", "seats": 2}, headers=headers)
    assert made.status_code == 201, made.text
    return str(made.json()["match_id"])


async def test_a_player_holds_only_so_many_sockets_open_and_others_are_not_counted(
    redis: Redis, redis_server: str
) -> None:
    async with gateway(redis_server, rate=0, sockets_per_player=2) as (stack, http):
        ann, bea = await sign_in(http, "Ann"), await sign_in(http, "Bea")
        match_id = await open_table(http, ann)
        async with (
            live(stack, match_id, ann, None) as first,
            live(stack, match_id, ann, None) as second,
        ):
            assert (await receive(first))["kind"] == (await receive(second))["kind"] == "hello"
            async with live(stack, match_id, ann, None) as third:
                message = await receive(third)
                await third.wait_closed()
            assert third.close_code == 4429
            assert message["kind"] == "error"
            assert message["message"].startswith("Too many open connections: one player holds")
            async with live(stack, match_id, bea, None) as theirs:
                assert (await receive(theirs))["kind"] == "hello"
        async with live(stack, match_id, ann, None) as again:  # the two closed: room again
            assert (await receive(again))["kind"] == "hello"


async def test_a_client_reconnecting_in_a_loop_is_slowed_like_one_asking_in_a_loop(
    slow_gateway: tuple[Stack, httpx.AsyncClient],
) -> None:
    stack, http = slow_gateway
    ann, bea = await sign_in(http, "Ann"), await sign_in(http, "Bea")
    match_id = await open_table(http, ann)  # Bea watches
    for _ in range(3):
        async with live(stack, match_id, bea, None) as socket:
            assert (await receive(socket))["kind"] == "hello"
    async with live(stack, match_id, bea, None) as socket:
        message = await receive(socket)
        await socket.wait_closed()
    assert socket.close_code == 4429
    assert message["kind"] == "error" and message["message"].startswith("Slow down")
