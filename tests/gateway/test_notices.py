"""A player's turns and notices through the gateway, from a real command service and
projector: the list of matches waiting for them, the pushes, the inbox on reconnect."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from services.gateway.stack import Stack
from tests.gateway.conftest import sign_in
from tests.gateway.test_gateway import one_move, table_of_two, who_may_act


def notices(stack: Stack, headers: dict[str, str] | None) -> connect:
    """The player's notices socket, signed in by the Authorization header."""
    url = f"ws://{stack.server.host}:{stack.server.port}/api/me/notices/live"
    return connect(url, additional_headers=headers or {"authorization": "Bearer nonsense"})


async def receive(socket: ClientConnection) -> dict[str, Any]:
    # A bound on a wait that a broken push would make endless, not a measure of speed:
    # generous, for a machine that runs Redis Clusters beside this test.
    return dict(json.loads(await asyncio.wait_for(socket.recv(decode=True), 240)))


async def next_notice(socket: ClientConnection, kind: str, match_id: str) -> dict[str, Any]:
    """The next notice of that kind about that match (others are skipped)."""
    while True:
        message = await receive(socket)
        assert message["kind"] == "notice", message
        notice: dict[str, Any] = message["notice"]
        if notice["kind"] == kind and notice["match_id"] == match_id:
            return notice


async def test_the_player_to_act_is_told_and_finds_the_match_among_their_turns(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    ann, bea = await sign_in(http, "Ann"), await sign_in(http, "Bea")
    async with (
        notices(stack, ann) as ann_socket,
        notices(stack, bea) as bea_socket,
    ):
        for socket in (ann_socket, bea_socket):
            hello = await receive(socket)
            assert hello["kind"] == "hello" and hello["notices"] == []
        match_id, players = await table_of_two(http)
        acting = await who_may_act(http, match_id, players)
        # By seat, not by headers: table_of_two signs Ann and Bea in again, and a token
        # issued in another second than this test's own is another string.
        first = players.index(acting)  # Ann sits first
        waiting = players[1 - first]
        told = await next_notice((ann_socket, bea_socket)[first], "your_turn", match_id)
        assert told["text"] == "Your turn at Chicken!"
        # The notice is written with the turns: once told, the list has the match.
        turns = (await http.get("/api/me/turns", headers=acting)).json()
        assert [row["match_id"] for row in turns] == [match_id]
        assert turns[0]["names"] == ["Ann", "Bea"] and turns[0]["since"] == told["at"]
        assert (await http.get("/api/me/turns", headers=waiting)).json() == []
        # Played to the end: both are told it is over, with their rank.
        while await one_move(http, match_id, players):
            pass
        finished = [
            await next_notice(socket, "match_finished", match_id)
            for socket in (ann_socket, bea_socket)
        ]
        assert sorted(n["rank"] for n in finished) == [1, 2]
    assert (await http.get("/api/me/turns", headers=ann)).json() == []
    # Back later, Ann gets her latest notices first, the finish last, none twice.
    async with notices(stack, ann) as socket:
        hello = await receive(socket)
    ids = [n["id"] for n in hello["notices"]]
    assert hello["notices"][-1]["id"] == finished[0]["id"] and len(ids) == len(set(ids))
    inbox = (await http.get("/api/me/notices", headers=ann)).json()
    assert [n["id"] for n in inbox] == ids


async def test_a_notice_socket_without_a_good_token_is_closed_with_the_reason(
    stack: Stack,
) -> None:
    async with notices(stack, None) as socket:
        try:
            await receive(socket)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4401
            assert closed.rcvd.reason, "the close says what was wrong"
        else:
            raise AssertionError("the socket stayed open")


async def test_turns_and_notices_need_a_signed_in_player(http: httpx.AsyncClient) -> None:
    for path in ("/api/me/turns", "/api/me/notices"):
        answer = await http.get(path)
        assert answer.status_code == 401 and "token" in answer.json()["detail"].lower()
