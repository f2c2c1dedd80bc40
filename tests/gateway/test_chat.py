"""Table chat through the gateway: the seated players talk, whoever watches reads, each
line is pushed once to every socket of the table, and a line is one line of text."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis
from websockets.asyncio.client import ClientConnection, connect

from events.keys import Keys
from services.gateway.app import GatewayConfig
from services.gateway.chat import MAX_CHARS, RECENT, SAY_LUA, cleaned
from services.gateway.stack import Stack
from services.infra.config import ConfigError
from tests.gateway.conftest import SECRET, gateway, sign_in
from tests.gateway.test_gateway import table_of_two


def chat_socket(stack: Stack, headers: dict[str, str], match_id: str) -> Any:
    url = f"ws://{stack.server.host}:{stack.server.port}/api/matches/{match_id}/chat/live"
    return connect(url, additional_headers=headers)


async def receive(socket: ClientConnection) -> dict[str, Any]:
    # A bound on a wait that a broken push would make endless, not a measure of speed.
    return dict(json.loads(await asyncio.wait_for(socket.recv(decode=True), 60)))


async def say(http: httpx.AsyncClient, match_id: str, who: dict[str, str], text: str) -> Any:
    return await http.post(f"/api/matches/{match_id}/chat", json={"text": text}, headers=who)


async def test_the_players_at_a_table_talk_and_a_spectator_reads_but_may_not_talk(
    http: httpx.AsyncClient,
) -> None:
    match_id, (ann, bea) = await table_of_two(http)
    said = await say(http, match_id, ann, "Good luck!")
    assert said.status_code == 201, said.text
    line = said.json()
    assert (line["seat"], line["name"], line["text"], line["player"]) == (
        0,
        "Ann",
        "Good luck!",
        "dev-ann",
    )
    assert line["id"] and line["at"] > 0
    assert (await say(http, match_id, bea, "You too")).status_code == 201
    cid = await sign_in(http, "Cid")
    for reader in (ann, bea, cid):
        read = (await http.get(f"/api/matches/{match_id}/chat", headers=reader)).json()
        assert [(x["name"], x["text"]) for x in read] == [("Ann", "Good luck!"), ("Bea", "You too")]
    refused = await say(http, match_id, cid, "psst, Ann holds the rooster")
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Only the players seated at this table may talk here."
    assert len((await http.get(f"/api/matches/{match_id}/chat", headers=cid)).json()) == 2


async def test_a_line_is_pushed_once_to_every_socket_and_a_reconnect_gets_the_latest(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    match_id, (ann, bea) = await table_of_two(http)
    assert (await say(http, match_id, ann, "first")).status_code == 201
    cid = await sign_in(http, "Cid")
    async with (
        chat_socket(stack, bea, match_id) as bea_socket,
        chat_socket(stack, cid, match_id) as cid_socket,
    ):
        for socket in (bea_socket, cid_socket):
            hello = await receive(socket)
            assert hello["kind"] == "hello"
            assert [x["text"] for x in hello["lines"]] == ["first"]
        assert (await say(http, match_id, ann, "second")).status_code == 201
        assert (await say(http, match_id, bea, "third")).status_code == 201
        for socket in (bea_socket, cid_socket):
            pushed = [await receive(socket), await receive(socket)]
            assert [(m["kind"], m["line"]["text"]) for m in pushed] == [
                ("line", "second"),
                ("line", "third"),
            ]
    async with chat_socket(stack, ann, match_id) as again:
        hello = await receive(again)
    assert [x["text"] for x in hello["lines"]] == ["first", "second", "third"]
    ids = [x["id"] for x in hello["lines"]]
    assert ids == sorted(ids, key=lambda i: tuple(map(int, i.split("-"))))


async def test_the_platform_takes_a_line_back_from_the_table_and_its_sockets(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    match_id, (ann, bea) = await table_of_two(http)
    rude = (await say(http, match_id, bea, "something rude")).json()
    assert (await say(http, match_id, ann, "let's play")).status_code == 201
    url = f"/api/matches/{match_id}/chat/{rude['id']}"
    async with chat_socket(stack, ann, match_id) as socket:
        hello = await receive(socket)
        assert [x["text"] for x in hello["lines"]] == ["something rude", "let's play"]
        # Only the platform may: a player, or a wrong secret, is refused.
        assert (await http.delete(url, headers=ann)).status_code == 401
        assert (await http.delete(url, headers={"x-gateway-secret": "guess"})).status_code == 401
        taken = await http.delete(url, headers={"x-gateway-secret": SECRET})
        assert taken.status_code == 204, taken.text
        assert await receive(socket) == {"kind": "removed", "id": rude["id"]}
    read = (await http.get(f"/api/matches/{match_id}/chat", headers=bea)).json()
    assert [x["text"] for x in read] == ["let's play"]
    again = await http.delete(url, headers={"x-gateway-secret": SECRET})
    assert again.status_code == 404
    assert again.json()["detail"] == f"The table {match_id} keeps no line {rude['id']}."


async def test_a_line_is_one_line_of_text_and_not_too_long(http: httpx.AsyncClient) -> None:
    match_id, (ann, _) = await table_of_two(http)
    for empty in ("", "   ", "\n\t"):
        refused = await say(http, match_id, ann, empty)
        assert refused.status_code == 400
        assert refused.json()["detail"] == "Say something: the line is empty."
    too_long = await say(http, match_id, ann, "a" * (MAX_CHARS + 1))
    assert too_long.status_code == 400
    assert too_long.json()["detail"] == f"A line of chat holds at most {MAX_CHARS} characters."
    said = await say(http, match_id, ann, "  well\r\nplayed\x00 <b>!</b>  ")
    assert said.json()["text"] == "well played <b>!</b>"  # the page shows it as text
    missing = await say(http, "no-such-match", ann, "hello?")
    assert missing.status_code == 404
    # A separator breaks like a new line; a direction override goes; a joiner stays.
    assert cleaned("a\u200db\u2028c\u202ed") == "a\u200db cd"


async def test_a_chatty_player_is_slowed(http: httpx.AsyncClient) -> None:
    match_id, (ann, bea) = await table_of_two(http)
    answers = [(await say(http, match_id, ann, f"line {i}")).status_code for i in range(8)]
    assert answers[:5] == [201] * 5 and 429 in answers[5:]
    assert (await say(http, match_id, bea, "my turn to talk")).status_code == 201


async def test_a_table_keeps_its_latest_lines(redis: Redis) -> None:
    k = Keys(0)
    for i in range(RECENT + 5):
        line = {"match_id": "m1", "seat": 0, "player": "p", "name": "P", "text": str(i)}
        await redis.eval(SAY_LUA, 2, k.chat, k.chat_recent, "m1", json.dumps(line), RECENT, 10)
    raw: Any = await redis.hget(k.chat_recent, "m1")
    kept = json.loads(raw)
    assert len(kept) == RECENT
    assert [json.loads(body)["text"] for _, body in kept] == [str(i) for i in range(5, RECENT + 5)]
    streamed: Any = await redis.xrange(k.chat)
    assert [entry_id for entry_id, _ in kept] == [e.decode() for e, _ in streamed[-RECENT:]]


async def test_an_operator_may_turn_table_chat_off(redis: Redis, redis_server: str) -> None:
    async with gateway(redis_server, chat=False) as (stack, http):
        match_id, (ann, _) = await table_of_two(http)
        refused = await say(http, match_id, ann, "hello")
        assert refused.status_code == 404
        assert refused.json()["detail"] == "Table chat is off here."
        async with chat_socket(stack, ann, match_id) as socket:
            closing = await receive(socket)
            assert closing == {"kind": "error", "message": "Table chat is off here."}


@pytest.mark.parametrize("value", ["yes", "Off", "0"])
def test_a_chat_setting_other_than_on_or_off_is_refused(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("TABLETOP_CHAT", value)
    with pytest.raises(ConfigError, match="TABLETOP_CHAT is"):
        GatewayConfig.from_env()
    monkeypatch.setenv("TABLETOP_CHAT", "off")
    assert GatewayConfig.from_env().chat is False


def sample(text: str, name: str) -> float:
    """A sample's value in a Prometheus scrape (0 when it is not there yet)."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


async def test_the_operator_counts_the_lines_and_the_open_chat_sockets(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    said = 'tabletop_chat_lines_total{action="said"}'
    sockets = 'tabletop_gateway_sockets{kind="chat"}'
    refused = 'tabletop_gateway_refusals_total{status="403"}'
    match_id, (ann, _) = await table_of_two(http)
    before = (await http.get("/metrics")).text
    async with chat_socket(stack, ann, match_id) as socket:
        await receive(socket)
        assert (await say(http, match_id, ann, "counted")).status_code == 201
        await receive(socket)
        cid = await sign_in(http, "Cid")
        assert (await say(http, match_id, cid, "me too")).status_code == 403
        during = (await http.get("/metrics")).text
    assert sample(during, said) == sample(before, said) + 1
    assert sample(during, sockets) == sample(before, sockets) + 1
    assert sample(during, refused) == sample(before, refused) + 1
    for _ in range(100):  # the socket's end is counted once the gateway sees it close
        after = (await http.get("/metrics")).text
        if sample(after, sockets) == sample(before, sockets):
            break
        await asyncio.sleep(0.05)
    assert sample(after, sockets) == sample(before, sockets)
