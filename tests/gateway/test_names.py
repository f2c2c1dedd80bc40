"""A display name is something every player can read, and never passes for another:
hidden characters go, spaces fold, and "You" is the table's own word for each reader."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from services.gateway.stack import Stack
from services.gateway.tokens import BadName, display_name
from tests.gateway.conftest import SECRET, sign_in
from tests.gateway.test_gateway import live, receive
from tests.gateway.test_live import until


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("  Ann  ", "Ann"),
        ("Ann\nBea", "Ann Bea"),  # a line break would split a sentence in two
        ("Ann\u200b", "Ann"),  # zero-width: "Ann" twice, two players
        ("\u202eAnn", "Ann"),  # right-to-left override: would turn the sentence around
        ("a\x00b\x1b[31m", "ab[31m"),
        ("Ａｎｎ", "Ann"),  # full-width letters are letters
        ("Zoë 🐔", "Zoë 🐔"),
        ("🐔", "🐔"),
    ],
)
def test_a_name_is_shown_as_it_reads(given: str, shown: str) -> None:
    assert display_name(given) == shown


@pytest.mark.parametrize("given", ["   ", "\u200b", "\u202e\u202c", "...", "\x07"])
def test_a_name_with_nothing_to_read_is_refused(given: str) -> None:
    with pytest.raises(BadName, match="at least one letter"):
        display_name(given)


@pytest.mark.parametrize("given", ["You", "you", " YOU ", "Ｙｏｕ", "Yo\u200bu"])
def test_nobody_is_named_you(given: str) -> None:
    with pytest.raises(BadName, match="what the table calls each reader"):
        display_name(given)


async def test_both_sign_ins_keep_the_name_readable(http: httpx.AsyncClient) -> None:
    dev = await http.post("/api/signin/dev", json={"name": "Ann\u200b\u202e"})
    assert dev.status_code == 200
    assert (dev.json()["name"], dev.json()["player_id"]) == ("Ann", "dev-ann")
    platform = await http.post(
        "/api/signin",
        json={"player_id": "p-7", "name": " Bea\n"},
        headers={"x-gateway-secret": SECRET},
    )
    assert platform.json()["name"] == "Bea"
    for answer in (
        await http.post("/api/signin/dev", json={"name": "you"}),
        await http.post(
            "/api/signin",
            json={"player_id": "p-8", "name": "\u200b"},
            headers={"x-gateway-secret": SECRET},
        ),
    ):
        assert answer.status_code == 400
        assert "name" in answer.json()["detail"]


async def test_two_players_named_alike_are_told_apart_by_their_seats(
    http: httpx.AsyncClient,
) -> None:
    async def platform(player_id: str) -> dict[str, str]:
        answer = await http.post(
            "/api/signin",
            json={"player_id": player_id, "name": "Ann"},
            headers={"x-gateway-secret": SECRET},
        )
        return {"authorization": f"Bearer {answer.json()['token']}"}

    first, second = await platform("p-1"), await platform("p-2")
    made = await http.post("/api/matches", json={"game": "chicken", "seats": 2}, headers=first)
    url = f"/api/matches/{made.json()['match_id']}"
    assert (await http.post(f"{url}/join", json={}, headers=second)).is_success
    assert (await http.post(f"{url}/start", json={}, headers=first)).is_success
    table = (await http.get(url, headers=second)).json()
    assert table["view"]["names"] == ["Ann (seat 1)", "Ann (seat 2)"]
    history = (await http.get(f"{url}/history", headers=second)).json()
    seated = [line["text"] for line in history["lines"] if "sat down" in line["text"]]
    assert seated == ["Ann (seat 1) sat down in seat 1.", "You sat down in seat 2."]
    # The lobby's rows come from the projector, a moment behind.
    for _ in range(200):
        rows = (await http.get("/api/matches", params={"status": "playing"})).json()
        listed = [r["names"] for r in rows if r["match_id"] == made.json()["match_id"]]
        if listed:
            break
        await asyncio.sleep(0.05)
    assert listed == [["Ann (seat 1)", "Ann (seat 2)"]]


async def test_a_player_who_left_is_still_named_by_name_in_the_history_and_live(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    ann, bea = await sign_in(http, "Ann"), await sign_in(http, "Bea Smith")
    made = await http.post("/api/matches", json={"game": "chicken", "seats": 3}, headers=ann)
    match_id = made.json()["match_id"]
    url = f"/api/matches/{match_id}"
    async with live(stack, match_id, ann, None) as socket:
        hello = await receive(socket)
        assert (await http.post(f"{url}/join", json={}, headers=bea)).is_success
        assert (await http.post(f"{url}/leave", json={}, headers=bea)).is_success
        pushed = [
            line["text"] for m in await until(socket, hello["version"] + 2) for line in m["events"]
        ]
    assert pushed == ["Bea Smith sat down in seat 2.", "Bea Smith left the table."]
    history = (await http.get(f"{url}/history", headers=ann)).json()
    told = [line["text"] for line in history["lines"]]
    assert told[-2:] == pushed, "the seat is empty now; the sentence still names her"
    # A socket that reconnects after the leave is told the same.
    async with live(stack, match_id, ann, hello["version"]) as again:
        missed = await receive(again)
    assert [line["text"] for line in missed["events"]] == pushed
