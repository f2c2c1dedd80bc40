"""The referee's refusals reach a person as sentences spoken to them: the caller is
"You", the others go by their names, and no player id shows through."""

from __future__ import annotations

import httpx

from tests.gateway.conftest import sign_in
from tests.gateway.test_gateway import table_of_two, who_may_act


def said(answer: httpx.Response) -> str:
    assert answer.status_code == 409, answer.text
    detail: str = answer.json()["detail"]
    assert "dev-" not in detail
    return detail


async def test_someone_without_a_seat_is_told_they_have_none(http: httpx.AsyncClient) -> None:
    match_id, _ = await table_of_two(http)
    cy = await sign_in(http, "Cy")
    for route in ("concede", "undo", "leave"):
        answer = await http.post(f"/api/matches/{match_id}/{route}", json={}, headers=cy)
        detail = said(answer)
        assert "Cy" not in detail, route
        assert detail in (
            "not_seated: You have no seat at this table.",
            "match_started: This match has already started: concede to leave it.",
        ), route


async def test_joining_twice_is_told_you_have_a_seat_already(http: httpx.AsyncClient) -> None:
    ann = await sign_in(http, "Ann")
    made = await http.post("/api/matches", json={"game": "chicken", "seats": 3}, headers=ann)
    # Whoever opens a table sits at it.
    again = await http.post(f"/api/matches/{made.json()['match_id']}/join", json={}, headers=ann)
    assert said(again) == "already_seated: You have a seat at this table already."


async def test_a_move_out_of_turn_is_told_whose_turn_it_is_not(http: httpx.AsyncClient) -> None:
    match_id, players = await table_of_two(http)
    waiting = await who_may_act(http, match_id, players, acting=False)
    body = {"command_id": "early", "move": {"type": "chicken.go_for_it"}}
    url = f"/api/matches/{match_id}/commands"
    reply = (await http.post(url, json=body, headers=waiting)).json()
    assert reply["status"] == "rejected" and reply["code"] == "not_your_turn"
    assert reply["message"] == "It is not your turn."


async def test_a_player_who_conceded_is_told_they_have_left(http: httpx.AsyncClient) -> None:
    ann, bea, cy = [await sign_in(http, name) for name in ("Ann", "Bea", "Cy")]
    made = await http.post("/api/matches", json={"game": "chicken", "seats": 3}, headers=ann)
    url = f"/api/matches/{made.json()['match_id']}"
    for player in (bea, cy):
        assert (await http.post(f"{url}/join", json={}, headers=player)).is_success
    assert (await http.post(f"{url}/start", json={}, headers=ann)).is_success
    # Three seats: the match goes on without Ann.
    assert (await http.post(f"{url}/concede", json={}, headers=ann)).is_success
    again = await http.post(f"{url}/concede", json={}, headers=ann)
    assert said(again) == "conceded: You have already left this match."


async def test_a_games_refusal_names_the_seats_it_numbers(http: httpx.AsyncClient) -> None:
    """The rules count seats ("Seat 2's discard pile is empty."); a person reads names."""
    match_id, players = await table_of_two(http, game="pandapanda")
    url = f"/api/matches/{match_id}/commands"
    acting = await who_may_act(http, match_id, players)
    me = players.index(acting)
    replies = {}
    for pile in (0, 1):
        body = {
            "command_id": f"take-{pile}",
            "move": {"type": "pandapanda.take_discard", "pile": pile},
        }
        replies[pile] = (await http.post(url, json=body, headers=acting)).json()
    other = "Bea" if me == 0 else "Ann"
    assert replies[me]["message"] == "Your discard pile is empty."
    assert replies[1 - me]["message"] == f"{other}'s discard pile is empty."
