"""Live pushes from the one fold a gateway process keeps per match: every socket of a
match shares it, and each still gets only what its own seat may see."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from domain.kernel import get_game
from services import compose
from services.gateway import tables
from services.gateway.stack import Stack
from tests.gateway.test_gateway import live, one_move, receive, table_of_two, ws_url


async def until(socket: ClientConnection, version: int) -> list[dict[str, Any]]:
    """Every message up to the one at `version`."""
    out = [await receive(socket)]
    while out[-1]["version"] < version:
        out.append(await receive(socket))
    return out


async def test_sockets_of_one_match_share_a_fold_and_see_only_their_own_cards(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    match_id, players = await table_of_two(http, game="loveletter")
    gateway = stack.server.app.state.gateway
    store = compose.event_store(stack.settings, stack.redis)
    async with (
        live(stack, match_id, players[0], None) as ann,
        live(stack, match_id, players[1], None) as bea,
        live(stack, match_id, players[1], None) as bea_again,
    ):
        hellos = [await receive(s) for s in (ann, bea, bea_again)]
        assert [h["seat"] for h in hellos] == [0, 1, 1]
        assert gateway.feeds.following == 1  # three sockets, one fold
        pushed: dict[int, list[dict[str, Any]]] = {0: [hellos[0]], 1: [hellos[1]]}
        again: list[dict[str, Any]] = [hellos[2]]
        for _ in range(4):
            version = await one_move(http, match_id, players)
            if not version:
                break
            pushed[0] += await until(ann, version)
            pushed[1] += await until(bea, version)
            again += await until(bea_again, version)
    assert again == pushed[1], "two sockets of one seat get the same messages"
    assert pushed[0] != pushed[1]
    found = await tables.recorded(store, match_id)
    assert found is not None
    game = get_game("loveletter")
    for seat, messages in pushed.items():
        for message in messages:
            state = found.state_at(message["version"])
            text = json.dumps(message)
            for component in game.hidden(state.game_state, seat):
                assert component not in text, (seat, component, message["version"])
    versions = [line["version"] for m in pushed[0] for line in m["events"]]
    assert versions == sorted(set(versions)), "in order, none twice"


async def test_a_socket_for_a_match_that_does_not_exist_is_told_so(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    match_id, players = await table_of_two(http)
    async with live(stack, "no-such-match", players[0], None) as socket:
        message = await receive(socket)
        await socket.wait_closed()
    assert message == {"kind": "error", "message": "There is no match no-such-match."}
    assert socket.close_code == 4404


def test_a_table_without_secrets_is_rendered_once_and_reads_the_same_to_each_seat() -> None:
    from domain import match as m
    from services.gateway import feeds

    state = None
    for command in (
        m.CreateMatch(game="chicken", seats=2),
        m.JoinMatch(player="ann"),
        m.JoinMatch(player="bea"),
        m.StartMatch(player="ann", seed=7),
    ):
        state = m.decide_and_fold(state, command, now=1)[1]
    assert state is not None
    names = ["Ann", "Bea"]
    batch = feeds.Batch("hello", state, names)
    messages = {p: json.loads(batch.text_for(p)) for p in ("ann", "bea", "someone")}
    for player, seat in (("ann", 0), ("bea", 1), ("someone", None)):
        # What rendering the seat's view on its own gives.
        assert messages[player]["view"] == json.loads(
            json.dumps(tables.view_for(state, seat, names))
        )
        assert messages[player]["view"]["you"] == seat
    assert batch._table is not None  # the table was rendered for the batch, once


async def test_a_move_learns_its_seats_from_the_feed_that_follows_its_match(
    stack: Stack, http: httpx.AsyncClient, monkeypatch: Any
) -> None:
    from events.matches import load_match
    from services.gateway import app

    match_id, players = await table_of_two(http)
    gateway = stack.server.app.state.gateway
    loads: list[str] = []
    real = load_match  # the app's (it imports it from events.matches, and is patched below)

    async def counted(store: Any, match_id: str) -> Any:
        loads.append(match_id)
        return await real(store, match_id)

    monkeypatch.setattr(app, "load_match", counted)
    async with live(stack, match_id, players[0], None) as ann:
        hello = await receive(ann)
        seating = await gateway.seating(match_id)
    assert seating == ("chicken", hello["view"]["players"])
    assert loads == []  # the feed had the match folded: nothing read from Redis


@pytest.mark.parametrize("since", ["\u00b2", "9" * 5000, "-1", "1e3", "v3"])
async def test_a_since_that_is_not_a_version_is_refused_with_a_sentence(
    stack: Stack, http: httpx.AsyncClient, since: str
) -> None:
    """`since=²` passes str.isdigit and 5,000 nines pass it too, yet int() refuses both:
    each once closed the socket with an internal error."""
    match_id, players = await table_of_two(http)
    url = ws_url(stack, match_id) + f"?since={since}"
    async with connect(url, additional_headers=players[0]) as socket:
        message = await receive(socket)
        await socket.wait_closed()
    assert message["kind"] == "error"
    assert message["message"].startswith("since must be a version number")
    assert socket.close_code == 4400


async def test_a_reconnect_since_version_zero_reads_the_whole_match(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    match_id, players = await table_of_two(http)
    async with live(stack, match_id, players[0], 0) as socket:
        message = await receive(socket)
    assert message["kind"] == "update"
    assert [e["version"] for e in message["events"]][0] == 1


@pytest.mark.parametrize("token", [None, "abc", "x" * 5000])
async def test_a_match_socket_without_a_good_token_is_closed_with_the_reason(
    stack: Stack, http: httpx.AsyncClient, token: str | None
) -> None:
    """The close code 4401 and its reason reach the browser, which then asks the person to
    sign in again; an HTTP 403 before the socket opened told it nothing."""
    match_id, _ = await table_of_two(http)
    url = f"ws://{stack.server.host}:{stack.server.port}/api/matches/{match_id}/live"
    async with connect(url + (f"?token={token}" if token else "")) as socket:
        try:
            await receive(socket)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4401
            assert "sign" in closed.rcvd.reason.lower() or "token" in closed.rcvd.reason
        else:
            raise AssertionError("the socket stayed open")


async def test_a_client_sending_a_huge_frame_is_closed_and_the_others_play_on(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    """Clients have nothing to say on a socket: a 1 MiB frame, uvicorn would have read
    sixteen of, is refused as too big (1009) without the gateway holding it."""
    match_id, players = await table_of_two(http)
    async with (
        live(stack, match_id, players[0], None, max_size=None) as loud,
        live(stack, match_id, players[1], None) as quiet,
    ):
        await receive(loud)
        await receive(quiet)
        await loud.send("x" * 2**20)
        with pytest.raises(ConnectionClosed) as closed:
            async with asyncio.timeout(20):  # a socket left open fails here, not hangs
                while True:
                    await receive(loud)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        version = await one_move(http, match_id, players)
        pushed = await until(quiet, version)
        assert pushed[-1]["version"] == version
