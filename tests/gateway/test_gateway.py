"""The gateway against a real command service, projector and Redis: sign-in, acting
only as oneself, play over HTTP, live pushes, quick play and bots, replay."""

from __future__ import annotations

import json
import logging
import time
import uuid
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from services.gateway.seating import bot_name
from services.gateway.stack import Stack
from services.gateway.tokens import Player, Tokens
from tests.gateway.conftest import SECRET, sign_in


def ws_url(stack: Stack, match_id: str, since: int | None = None) -> str:
    tail = f"?since={since}" if since is not None else ""
    return f"ws://{stack.server.host}:{stack.server.port}/api/matches/{match_id}/live{tail}"


def live(
    stack: Stack, match_id: str, headers: dict[str, str], since: int | None, **options: Any
) -> connect:
    """A match's socket, signed in by the Authorization header (never the address)."""
    return connect(ws_url(stack, match_id, since), additional_headers=headers, **options)


async def receive(socket: ClientConnection) -> dict[str, Any]:
    return dict(json.loads(await socket.recv(decode=True)))


async def table_of_two(
    http: httpx.AsyncClient, game: str = "chicken"
) -> tuple[str, list[dict[str, str]]]:
    ann, bea = await sign_in(http, "Ann"), await sign_in(http, "Bea")
    made = await http.post("/api/matches", json={"game": game, "seats": 2}, headers=ann)
    match_id = made.json()["match_id"]
    assert (
        await http.post(f"/api/matches/{match_id}/join", json={}, headers=bea)
    ).status_code == 200
    assert (
        await http.post(f"/api/matches/{match_id}/start", json={}, headers=ann)
    ).status_code == 200
    return match_id, [ann, bea]


async def who_may_act(
    http: httpx.AsyncClient, match_id: str, players: list[dict[str, str]], acting: bool = True
) -> dict[str, str]:
    for headers in players:
        table = (await http.get(f"/api/matches/{match_id}", headers=headers)).json()
        if bool(table["commands"]) == acting:
            return headers
    raise AssertionError("no such player")


async def one_move(http: httpx.AsyncClient, match_id: str, players: list[dict[str, str]]) -> int:
    """Whoever may act plays their first legal command: the version after it, or 0 once
    the match is over."""
    for headers in players:
        table = (await http.get(f"/api/matches/{match_id}", headers=headers)).json()
        if table["view"]["status"] == "finished":
            return 0
        if table["commands"]:
            move = table["commands"][0]["legal"][0]
            body = {"command_id": uuid.uuid4().hex, "move": move}
            reply = await http.post(f"/api/matches/{match_id}/commands", json=body, headers=headers)
            assert reply.json()["status"] == "accepted", reply.text
            return int(reply.json()["version"])
    raise AssertionError("nobody may act in a match in play")


async def test_the_platform_signs_players_in_with_the_shared_secret_only(
    http: httpx.AsyncClient,
) -> None:
    body = {"player_id": "p-1001", "name": "Ann"}
    refused = await http.post("/api/signin", json=body, headers={"x-gateway-secret": "guess"})
    assert refused.status_code == 401
    assert "secret" in refused.json()["detail"]
    signed = await http.post("/api/signin", json=body, headers={"x-gateway-secret": SECRET})
    token = signed.json()["token"]
    me = await http.get("/api/me", headers={"authorization": f"Bearer {token}"})
    assert me.json() == {"player_id": "p-1001", "name": "Ann"}


async def test_no_token_a_forged_one_or_an_expired_one_is_refused_with_a_clear_message(
    http: httpx.AsyncClient,
) -> None:
    missing = await http.get("/api/me")
    assert missing.status_code == 401 and "Sign in" in missing.json()["detail"]
    forged = Tokens("another-secret-entirely-0000-0000").issue(Player("p-1", "Ann"))
    bad = await http.get("/api/me", headers={"authorization": f"Bearer {forged}"})
    assert bad.status_code == 401 and "not one this gateway issued" in bad.json()["detail"]
    old = Tokens(SECRET, ttl_seconds=60).issue(Player("p-1", "Ann"), now=time.time() - 3600)
    expired = await http.get("/api/me", headers={"authorization": f"Bearer {old}"})
    assert expired.status_code == 401 and "expired" in expired.json()["detail"]


async def test_a_command_that_names_another_player_is_refused(http: httpx.AsyncClient) -> None:
    match_id, (ann, _bea) = await table_of_two(http)
    body = {"command_id": "c1", "move": {"type": "chicken.go_for_it"}, "player": "dev-bea"}
    refused = await http.post(f"/api/matches/{match_id}/commands", json=body, headers=ann)
    assert refused.status_code == 403
    assert "only be sent as yourself" in refused.json()["detail"]
    conceding = await http.post(
        f"/api/matches/{match_id}/concede", json={"player": "dev-bea"}, headers=ann
    )
    assert conceding.status_code == 403
    table = (await http.get(f"/api/matches/{match_id}", headers=ann)).json()
    assert table["view"]["status"] == "playing"  # nothing was sent


async def test_overlong_names_and_fields_are_refused(http: httpx.AsyncClient) -> None:
    assert (await http.post("/api/signin/dev", json={"name": "x" * 33})).status_code == 400
    ann = await sign_in(http, "Ann")
    long_id = {"command_id": "c" * 65, "move": {"type": "chicken.go_for_it"}}
    assert (
        await http.post("/api/matches/m1/commands", json=long_id, headers=ann)
    ).status_code == 400
    long_text = {"command_id": "c1", "move": {"type": "x" * 101}}
    assert (
        await http.post("/api/matches/m1/commands", json=long_text, headers=ann)
    ).status_code == 400


async def test_a_malformed_move_is_answered_with_a_sentence_not_a_traceback(
    http: httpx.AsyncClient,
) -> None:
    match_id, (ann, _bea) = await table_of_two(http)
    before = (await http.get(f"/api/matches/{match_id}", headers=ann)).json()
    path = f"/api/matches/{match_id}/commands"
    unsigned = await http.post(path, json={"command_id": "c1", "move": {}})
    assert unsigned.status_code == 401 and "Sign in" in unsigned.json()["detail"]
    broken = await http.post(path, content=b"{not json", headers=ann)
    assert broken.status_code == 400 and "Validation failed" in broken.json()["detail"]
    no_move = await http.post(path, json={"command_id": "c1"}, headers=ann)
    assert no_move.status_code == 400 and "move" in no_move.json()["detail"]
    huge = {"command_id": "c1", "move": {"type": "chicken.go_for_it", "x": "y" * 17_000}}
    too_big = await http.post(path, json=huge, headers=ann)
    assert too_big.status_code == 413 and "at most" in too_big.json()["detail"]
    for answer in (unsigned, broken, no_move, too_big):
        assert "Traceback" not in answer.text
    table = (await http.get(f"/api/matches/{match_id}", headers=ann)).json()
    assert table["view"]["version"] == before["view"]["version"]  # nothing was sent


async def test_a_refusal_is_one_log_line_for_the_operator_not_an_error_with_a_traceback(
    http: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    match_id, (ann, bea) = await table_of_two(http)
    with caplog.at_level(logging.INFO, logger="litestar"):
        missing = await http.get("/api/matches/no-such-match", headers=ann)
        assert missing.status_code == 404
        # Starting a table already under way: the referee's refusal, a 409.
        again = await http.post(f"/api/matches/{match_id}/start", json={}, headers=bea)
        assert again.status_code == 409
    errors = [
        r for r in caplog.records if r.name.startswith("litestar") and r.levelno >= logging.ERROR
    ]
    assert errors == [], [r.getMessage() for r in errors]


async def test_every_game_is_listed_with_the_json_schema_of_its_options(
    http: httpx.AsyncClient,
) -> None:
    listed = (await http.get("/api/games")).json()
    chicken = next(g for g in listed if g["name"] == "chicken")
    assert chicken["min_players"] == 2
    defs = chicken["options_schema"]["$defs"]
    assert "eggspansion" in next(iter(defs.values()))["properties"]


async def test_a_table_refuses_options_its_game_does_not_have(http: httpx.AsyncClient) -> None:
    ann = await sign_in(http, "Ann")
    body = {"game": "chicken", "seats": 2, "options": {"turbo": True}}
    refused = await http.post("/api/matches", json=body, headers=ann)
    assert refused.status_code == 409 and "bad_options" in refused.json()["detail"]


async def test_a_reused_command_id_answers_the_same_and_with_another_body_is_refused(
    http: httpx.AsyncClient,
) -> None:
    match_id, players = await table_of_two(http)
    acting = await who_may_act(http, match_id, players)
    body = {"command_id": "same", "move": {"type": "chicken.go_for_it"}}
    first = await http.post(f"/api/matches/{match_id}/commands", json=body, headers=acting)
    again = await http.post(f"/api/matches/{match_id}/commands", json=body, headers=acting)
    assert first.json()["status"] == "accepted"
    assert (
        again.json()["status"] == "duplicate" and again.json()["version"] == first.json()["version"]
    )
    other = {"command_id": "same", "move": {"type": "chicken.chicken_out"}}
    refused = await http.post(f"/api/matches/{match_id}/commands", json=other, headers=acting)
    assert refused.status_code == 409 and "already used" in refused.json()["detail"]


async def test_a_rejected_move_answers_with_its_code_and_the_players_name(
    http: httpx.AsyncClient,
) -> None:
    match_id, players = await table_of_two(http)
    waiting = await who_may_act(http, match_id, players, acting=False)
    body = {"command_id": "early", "move": {"type": "chicken.go_for_it"}}
    reply = (
        await http.post(f"/api/matches/{match_id}/commands", json=body, headers=waiting)
    ).json()
    assert reply["status"] == "rejected" and reply["code"] == "not_your_turn"
    assert "dev-" not in reply["message"]


async def test_live_pushes_every_event_in_order_with_no_gap_or_duplicate_across_reconnects(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    match_id, players = await table_of_two(http)
    ann = players[0]
    seen: list[int] = []
    async with live(stack, match_id, ann, None) as socket:
        hello = await receive(socket)
        assert hello["kind"] == "hello" and hello["seat"] == 0
        last = hello["version"]
        for _ in range(3):
            version = await one_move(http, match_id, players)
            assert version
            while last < version:  # the events of the move, with the view after them
                message = await receive(socket)
                assert message["kind"] == "update"
                seen += [line["version"] for line in message["events"]]
                assert all(line["text"] for line in message["events"])
                assert message["view"]["version"] == message["version"]
                last = message["version"]
    # Two moves while Ann is away, then she comes back from where she was.
    assert await one_move(http, match_id, players)
    assert await one_move(http, match_id, players)
    async with live(stack, match_id, ann, last) as socket:
        message = await receive(socket)
        assert message["kind"] == "update"  # what Ann missed, in one message
        seen += [line["version"] for line in message["events"]]
        now = message["version"]
    assert seen == sorted(set(seen)), "events in order, none twice"
    assert seen[-1] == now and set(range(hello["version"] + 1, now + 1)) >= set(seen)


async def test_a_finished_match_replays_at_any_version_as_any_seat(
    http: httpx.AsyncClient,
) -> None:
    match_id, players = await table_of_two(http)
    ann = players[0]
    early = await http.get(f"/api/matches/{match_id}/replay", headers=ann)
    assert early.status_code == 409  # not over yet
    assert (
        await http.post(f"/api/matches/{match_id}/concede", json={}, headers=ann)
    ).status_code == 200
    whole = (await http.get(f"/api/matches/{match_id}/replay?version=4&as=1", headers=ann)).json()
    assert whole["version"] == 4 and whole["seat"] == 1
    assert whole["line"]["type"] == "match.started"
    # Seats are 0-based here, as in every JSON document: the refusal says so, and never
    # "there is no seat 2", which a person counting from 1 would read as false.
    beyond = await http.get(f"/api/matches/{match_id}/replay?as=2", headers=ann)
    assert beyond.status_code == 404
    assert "seats are 0 to 1 (0-based)" in beyond.json()["detail"]
    last = (await http.get(f"/api/matches/{match_id}/replay", headers=ann)).json()
    assert last["version"] == last["last_version"] and last["view"]["status"] == "finished"
    history = (await http.get(f"/api/matches/{match_id}/history", headers=ann)).json()
    assert history["lines"][-1]["text"].startswith("The match is over")
    # Names, not ids; the reader is "You".
    assert history["lines"][1]["text"] == "You sat down in seat 1."
    assert history["lines"][2]["text"] == "Bea sat down in seat 2."


async def test_two_bots_at_one_table_never_share_a_name(http: httpx.AsyncClient) -> None:
    ann = await sign_in(http, "Ann")
    made = await http.post("/api/matches", json={"game": "chicken", "seats": 3}, headers=ann)
    match_id = made.json()["match_id"]
    for seat in (1, 2):  # each takes the first free seat, and says which
        added = await http.post(f"/api/matches/{match_id}/bots", json={}, headers=ann)
        assert added.status_code == 200, added.text
        assert added.json()["seat"] == seat
    names = (await http.get(f"/api/matches/{match_id}", headers=ann)).json()["view"]["names"]
    assert names[0] == "Ann" and names[1] != names[2]
    assert all(name.startswith("Robo ") for name in names[1:])


def test_a_bots_name_is_its_seats_own_at_any_table() -> None:
    for n in range(200):
        match_id = uuid.UUID(int=n).hex[:16]
        names = [bot_name(match_id, seat) for seat in range(12)]
        assert len(set(names)) == 12, names


async def test_quick_play_seats_players_together_and_bots_take_the_seats_left(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    ann, bea = await sign_in(http, "Ann"), await sign_in(http, "Bea")
    ask = {"game": "loveletter", "seats": 3}
    first = (await http.post("/api/quickplay", json=ask, headers=ann)).json()
    second = (await http.post("/api/quickplay", json=ask, headers=bea)).json()
    assert first["match_id"] == second["match_id"] and {first["seat"], second["seat"]} == {0, 1}
    match_id = first["match_id"]
    async with live(stack, match_id, ann, None) as socket:
        view = (await receive(socket))["view"]
        while view["status"] == "lobby":
            message = await receive(socket)
            if message["kind"] == "update":
                view = message["view"]
    assert view["players"][2].startswith("bot-") and view["names"][2].startswith("Robo")
    # Ann and Bea concede; the bot has played its turns through the command streams.
    for h in (ann, bea):
        await http.post(f"/api/matches/{match_id}/concede", json={}, headers=h)
    history = (await http.get(f"/api/matches/{match_id}/history", headers=ann)).json()
    assert history["lines"][-1]["type"] == "match.finished"


async def test_json_nested_too_deeply_is_refused_with_a_sentence_not_an_error(
    http: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Eight thousand brackets inside 16 KB once blew the decoder's recursion limit: a
    500, and an error-level traceback in the operator's log."""
    match_id, (ann, _bea) = await table_of_two(http)
    deep = b"[" * 8_000 + b"]" * 8_000
    move = b'{"command_id": "c1", "move": {"type": "chicken.go_for_it", "x": ' + deep + b"}}"
    options = b'{"game": "chicken", "seats": 2, "options": {"x": ' + deep[3000:-3000] + b"}}"
    with caplog.at_level(logging.INFO):
        answers = [
            await http.post(f"/api/matches/{match_id}/commands", content=move, headers=ann),
            await http.post("/api/matches", content=options, headers=ann),
        ]
    for answer in answers:
        assert answer.status_code == 400, answer.text
        assert answer.json()["detail"] == "The JSON is nested too deeply to be read."
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
