"""Ending sign-ins: the platform (a ban, a copied token) or the player (sign out
everywhere) makes every token of theirs issued before then useless, a player signing
out on one device that device's token alone, in every gateway process, and the sockets
opened with them are closed."""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

import httpx
import jwt
import pytest
from redis.asyncio import Redis
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import Close

from events.keys import GATEWAY
from services.gateway import tokens as tokens_module
from services.gateway.signouts import Signouts
from services.gateway.stack import Stack
from tests.gateway.conftest import SECRET, sign_in
from tests.gateway.test_gateway import live, receive, table_of_two


async def platform_sign_in(http: httpx.AsyncClient, player_id: str) -> dict[str, str]:
    answer = await http.post(
        "/api/signin",
        json={"player_id": player_id, "name": "Ann"},
        headers={"x-gateway-secret": SECRET},
    )
    return {"authorization": f"Bearer {answer.json()['token']}"}


async def test_a_player_the_platform_signs_out_is_refused_until_signed_in_again(
    http: httpx.AsyncClient,
) -> None:
    ann = await platform_sign_in(http, "p-1")
    assert (await http.get("/api/me", headers=ann)).status_code == 200
    ended = await http.post("/api/players/p-1/signout", headers={"x-gateway-secret": SECRET})
    assert ended.status_code == 200 and ended.json()["player_id"] == "p-1"
    refused = await http.get("/api/me", headers=ann)
    assert refused.status_code == 401
    assert refused.json()["detail"] == "Your sign-in was ended; sign in again."
    move = await http.post(
        "/api/matches/m-1/commands", json={"command_id": "c", "move": {}}, headers=ann
    )
    assert move.status_code == 401  # the hot path reads the same tokens
    again = await platform_sign_in(http, "p-1")
    assert (await http.get("/api/me", headers=again)).status_code == 200


async def test_only_the_platform_may_end_a_players_sign_ins(http: httpx.AsyncClient) -> None:
    ann = await sign_in(http, "Ann")
    for headers in ({"x-gateway-secret": "a guess"}, ann):
        refused = await http.post("/api/players/dev-ann/signout", headers=headers)
        assert refused.status_code == 401
    assert (await http.get("/api/me", headers=ann)).status_code == 200


async def test_a_player_signing_out_everywhere_ends_every_sign_in_of_theirs(
    http: httpx.AsyncClient,
) -> None:
    phone, laptop = await sign_in(http, "Ann"), await sign_in(http, "Ann")
    bea = await sign_in(http, "Bea")
    assert (await http.post("/api/me/signout/everywhere", headers=phone)).status_code == 200
    for token in (phone, laptop):
        assert (await http.get("/api/me", headers=token)).status_code == 401
    assert (await http.get("/api/me", headers=bea)).status_code == 200


async def test_a_player_signing_out_on_one_device_stays_signed_in_on_the_others(
    http: httpx.AsyncClient,
) -> None:
    phone, laptop = await sign_in(http, "Ann"), await sign_in(http, "Ann")
    assert phone != laptop
    assert (await http.post("/api/me/signout", headers=phone)).status_code == 200
    assert (await http.get("/api/me", headers=phone)).status_code == 401
    assert (await http.get("/api/me", headers=laptop)).status_code == 200
    made = await http.post("/api/matches", json={"game": "chicken", "seats": 2}, headers=laptop)
    assert made.status_code == 201, made.text
    moved = await http.post(
        f"/api/matches/{made.json()['match_id']}/commands",
        json={"command": {"type": "Roll"}},
        headers=phone,
    )
    assert moved.status_code == 401  # the hot path reads the same ended sign-ins


async def closing(socket: ClientConnection) -> Close:
    """The close frame the gateway ends the socket with, what it pushes till then read."""
    with pytest.raises(ConnectionClosed) as closed:
        async with asyncio.timeout(10):
            while True:
                await receive(socket)
    assert closed.value.rcvd is not None
    return closed.value.rcvd


async def test_the_socket_of_the_device_signed_out_closes_and_the_others_stay(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    match_id, (ann, bea) = await table_of_two(http)
    laptop = await sign_in(http, "Ann")
    async with (
        live(stack, match_id, ann, None) as phones,
        live(stack, match_id, laptop, None) as laptops,
    ):
        await receive(phones)
        await receive(laptops)
        assert (await http.post("/api/me/signout", headers=ann)).status_code == 200
        assert (await closing(phones)).code == 4401
        await laptops.ping()  # the laptop's socket is still open
        assert (await http.get("/api/me", headers=laptop)).status_code == 200


async def test_the_sockets_of_an_ended_sign_in_are_closed_and_the_others_stay(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    match_id, (ann, bea) = await table_of_two(http)
    async with (
        live(stack, match_id, ann, None) as anns,
        live(stack, match_id, bea, None) as beas,
    ):
        await receive(anns)
        await receive(beas)
        assert (await http.post("/api/me/signout", headers=ann)).status_code == 200
        closed = await closing(anns)
        assert closed.code == 4401 and "ended" in closed.reason
        await beas.ping()  # Bea's socket is still open


async def test_another_gateway_process_learns_of_an_ended_sign_in_within_a_refresh(
    redis: Redis,
) -> None:
    here, there = Signouts(redis, keep_seconds=3600), Signouts(redis, keep_seconds=3600)
    issued = int(time.time() * 1000) - 5
    at = await here.end("dev-ann")
    assert here.ended("dev-ann", issued) and not there.ended("dev-ann", issued)
    await there.refresh()
    assert there.ended("dev-ann", issued)
    assert not there.ended("dev-ann", at + 1)  # signed in again since
    assert not there.ended("dev-bea", issued)


async def test_another_gateway_process_learns_of_one_sign_in_ended(redis: Redis) -> None:
    here, there = Signouts(redis, keep_seconds=3600), Signouts(redis, keep_seconds=3600)
    issued = int(time.time() * 1000) - 5
    await here.end("dev-ann", "phone-sign-in")
    await there.refresh()
    assert there.ended("dev-ann", issued, "phone-sign-in")
    assert not there.ended("dev-ann", issued, "laptop-sign-in")
    # What Redis keeps names the sign-in by its id, never by its token.
    kept = cast(list[tuple[bytes, dict[bytes, bytes]]], await redis.xrange(GATEWAY.signouts))
    assert kept[-1][1] == {b"p": b"dev-ann", b"s": b"phone-sign-in"}


async def test_an_entry_older_than_any_token_ends_nothing_and_is_trimmed(redis: Redis) -> None:
    signouts = Signouts(redis, keep_seconds=60)
    long_ago = int(time.time() * 1000) - 61_000
    await redis.xadd(GATEWAY.signouts, {"p": "dev-ann"}, id=f"{long_ago}-0")
    await signouts.refresh()
    assert not signouts.ended("dev-ann", long_ago - 1)
    await signouts.end("dev-bea")  # an append trims what is past the tokens' lifetime
    kept = cast(list[tuple[bytes, dict[bytes, bytes]]], await redis.xrange(GATEWAY.signouts))
    assert [fields[b"p"] for _, fields in kept] == [b"dev-bea"]


async def test_a_process_reads_only_what_was_ended_since_its_last_read(
    redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    here, there = Signouts(redis, keep_seconds=3600), Signouts(redis, keep_seconds=3600)
    issued = int(time.time() * 1000) - 5
    for n in range(2500):  # more than one read's worth
        await redis.xadd(GATEWAY.signouts, {"p": f"p-{n}"})
    await there.refresh()
    assert there.ended("p-0", issued) and there.ended("p-2499", issued)
    await here.end("p-late")
    read: list[Any] = []
    real: Any = redis.xrange

    async def counted(*args: Any, **kwargs: Any) -> Any:
        found = await real(*args, **kwargs)
        read.extend(found)
        return found

    monkeypatch.setattr(redis, "xrange", counted)
    await there.refresh()
    assert len(read) == 1 and there.ended("p-late", issued)


class _Clock:
    """This process's clock, off by `skew` seconds (a host without NTP)."""

    def __init__(self, skew: float) -> None:
        self.skew = skew

    def time(self) -> float:
        return time.time() + self.skew


async def test_a_gateway_whose_clock_is_slow_still_takes_a_sign_in_made_after_an_end(
    http: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ends are timed on Redis's clock, and so are sign-ins: a gateway five minutes
    slow would otherwise refuse every sign-in of a player's for five minutes after an
    end, as if issued before it."""
    monkeypatch.setattr(tokens_module, "time", _Clock(-300.0))
    ann = await platform_sign_in(http, "p-1")
    await http.post("/api/players/p-1/signout", headers={"x-gateway-secret": SECRET})
    assert (await http.get("/api/me", headers=ann)).status_code == 401
    again = await platform_sign_in(http, "p-1")
    assert (await http.get("/api/me", headers=again)).status_code == 200


async def test_a_gateway_whose_clock_is_fast_stamps_its_tokens_on_redis_time(
    http: httpx.AsyncClient, redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five minutes fast, its tokens would otherwise outlive an end made in the five
    minutes after them: a ban would spare them."""
    monkeypatch.setattr(tokens_module, "time", _Clock(300.0))
    before = await redis.time()
    ann = await platform_sign_in(http, "p-1")
    after = await redis.time()
    token = ann["authorization"].split()[1]
    t = jwt.decode(token, options={"verify_signature": False})["t"]
    assert before[0] * 1000 + before[1] // 1000 <= t <= after[0] * 1000 + after[1] // 1000
