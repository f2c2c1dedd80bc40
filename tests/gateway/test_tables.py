"""Undo and rematch over HTTP (issue 19), against a real command service, rematch
process, projector and Redis."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import msgspec

from domain import match as m
from tests.gateway.conftest import sign_in


async def table_of_two(
    http: httpx.AsyncClient, game: str, options: dict[str, Any] | None = None
) -> tuple[str, list[dict[str, str]]]:
    ann, bea = await sign_in(http, "Ann"), await sign_in(http, "Bea")
    made = await http.post(
        "/api/matches", json={"game": game, "seats": 2, "options": options or {}}, headers=ann
    )
    match_id = str(made.json()["match_id"])
    assert (await http.post(f"/api/matches/{match_id}/join", json={}, headers=bea)).is_success
    assert (await http.post(f"/api/matches/{match_id}/start", json={}, headers=ann)).is_success
    return match_id, [ann, bea]


async def table(http: httpx.AsyncClient, match_id: str, who: dict[str, str]) -> dict[str, Any]:
    return dict((await http.get(f"/api/matches/{match_id}", headers=who)).json())


async def acting(
    http: httpx.AsyncClient, match_id: str, players: list[dict[str, str]]
) -> tuple[dict[str, str], dict[str, str], dict[str, Any]]:
    """The player who may act, the other, and the table as the first sees it."""
    for i, who in enumerate(players):
        seen = await table(http, match_id, who)
        if seen["commands"]:
            return who, players[1 - i], seen
    raise AssertionError("nobody may act")


async def won_at_once(
    http: httpx.AsyncClient,
) -> tuple[str, dict[str, str], dict[str, str], dict[str, Any]]:
    """Ann and Bea at a countdown from 3, won by whoever moves first taking all three:
    the match, its winner, its loser, and the table as the winner saw it before."""
    match_id, players = await table_of_two(http, "countdown", {"start": 3})
    winner, loser, seen = await acting(http, match_id, players)
    body = {"command_id": uuid.uuid4().hex, "move": {"type": "countdown.take", "count": 3}}
    moved = await http.post(f"/api/matches/{match_id}/commands", json=body, headers=winner)
    assert moved.json()["status"] == "accepted", moved.text
    return match_id, winner, loser, seen


async def test_undo_over_http_takes_the_move_back_and_tells_the_other_player(
    http: httpx.AsyncClient,
) -> None:
    match_id, players = await table_of_two(http, "threethirteen")
    mover, other, before = await acting(http, match_id, players)
    # Nothing played yet: the referee refuses, saying why.
    early = await http.post(f"/api/matches/{match_id}/undo", json={}, headers=mover)
    assert early.status_code == 409 and early.json()["detail"].startswith("cannot_undo:")
    # The mover takes the face-up discard: the view offers them the take-back.
    body = {"command_id": uuid.uuid4().hex, "move": {"type": "threethirteen.take_discard"}}
    took = await http.post(f"/api/matches/{match_id}/commands", json=body, headers=mover)
    assert took.json()["status"] == "accepted"
    assert (await table(http, match_id, mover))["view"]["undo"] == before["seat"]
    # The other player may not take it back; the refusal names the mover by name.
    theirs = await http.post(f"/api/matches/{match_id}/undo", json={}, headers=other)
    assert theirs.status_code == 409
    assert "dev-" not in theirs.json()["detail"] and "only " in theirs.json()["detail"]
    # The mover does: the table is as it was.
    assert (await http.post(f"/api/matches/{match_id}/undo", json={}, headers=mover)).is_success
    after = await table(http, match_id, mover)
    assert after["view"]["table"] == before["view"]["table"]
    assert after["view"]["undo"] is None
    # The other player's history reads it, by name.
    history = (await http.get(f"/api/matches/{match_id}/history", headers=other)).json()
    mover_name = after["view"]["names"][before["seat"]]
    assert history["lines"][-1]["text"] == f"{mover_name} took back their move."


async def test_a_rematch_over_http_is_offered_accepted_and_opened_with_seats_rotated(
    http: httpx.AsyncClient,
) -> None:
    match_id, first, second, _ = await won_at_once(http)
    # The loser offers a rematch; accepting twice, or declining nothing, is refused.
    assert (await http.post(f"/api/matches/{match_id}/rematch", json={}, headers=second)).is_success
    again = await http.post(f"/api/matches/{match_id}/rematch/accept", json={}, headers=second)
    assert again.status_code == 409 and again.json()["detail"].startswith("already_accepted:")
    # The winner accepts: the view names the rematch.
    url = f"/api/matches/{match_id}/rematch/accept"
    assert (await http.post(url, json={}, headers=first)).is_success
    old = await table(http, match_id, first)
    new = old["view"]["rematch"]["match_id"]
    assert new == m.rematch_id(match_id)
    # The rematch process opens it: the same players, seats rotated, linked back.
    for _ in range(400):  # a bound on waiting, not a measure of speed
        got = await http.get(f"/api/matches/{new}", headers=first)
        if got.status_code == 200 and got.json()["view"]["status"] == "playing":
            break
        await asyncio.sleep(0.05)
    view = got.json()["view"]
    assert view["status"] == "playing" and view["rematch_of"] == match_id
    assert view["players"] == list(reversed(old["view"]["players"]))


async def test_the_player_offered_a_rematch_is_told_who_offers_it_by_name(
    http: httpx.AsyncClient,
) -> None:
    match_id, winner, loser, _ = await won_at_once(http)
    assert (await http.post(f"/api/matches/{match_id}/rematch", json={}, headers=loser)).is_success
    me = (await http.get("/api/me", headers=loser)).json()
    for _ in range(400):  # the notice comes from the projector: a bound, not a measure
        told = [
            n
            for n in (await http.get("/api/me/notices", headers=winner)).json()
            if n["kind"] == "rematch_offered" and n["match_id"] == match_id
        ]
        if told:
            break
        await asyncio.sleep(0.05)
    assert told[0]["by"] == me["player_id"]
    # The notice names the offerer by id for platforms; the gateway, by name.
    assert told[0]["text"] == f"{me['name']} offers a rematch of Countdown: accept or decline it."


async def test_a_declined_rematch_is_off(http: httpx.AsyncClient) -> None:
    match_id, players = await table_of_two(http, "countdown", {"start": 3})
    first, second, _ = await acting(http, match_id, players)
    # Before the end there is nothing to offer.
    early = await http.post(f"/api/matches/{match_id}/rematch", json={}, headers=first)
    assert early.status_code == 409 and early.json()["detail"].startswith("match_not_finished:")
    body = {"command_id": uuid.uuid4().hex, "move": {"type": "countdown.take", "count": 3}}
    await http.post(f"/api/matches/{match_id}/commands", json=body, headers=first)
    await http.post(f"/api/matches/{match_id}/rematch", json={}, headers=first)
    url = f"/api/matches/{match_id}/rematch/decline"
    assert (await http.post(url, json={}, headers=second)).is_success
    talk = (await table(http, match_id, first))["view"]["rematch"]
    assert talk["declined"] == (await table(http, match_id, second))["seat"]
    assert talk["match_id"] == ""
    history = (await http.get(f"/api/matches/{match_id}/history", headers=first)).json()
    assert history["lines"][-1]["text"].endswith("declined the rematch.")


async def wait_for(http: httpx.AsyncClient, match_id: str, who: dict[str, str], test: Any) -> Any:
    """The table as `who` sees it once `test` holds of it (a bound on waiting, not a
    measure of speed: a loaded machine may take many seconds)."""
    for _ in range(1200):
        got = await http.get(f"/api/matches/{match_id}", headers=who)
        if got.status_code == 200 and test(got.json()):
            return got.json()
        await asyncio.sleep(0.05)
    raise AssertionError(f"{match_id}: never so")


async def test_a_bot_accepts_the_rematch_and_plays_it(http: httpx.AsyncClient) -> None:
    ann = await sign_in(http, "Ann")
    made = await http.post(
        "/api/matches", json={"game": "countdown", "seats": 2, "options": {"start": 3}}, headers=ann
    )
    match_id = str(made.json()["match_id"])
    assert (await http.post(f"/api/matches/{match_id}/bots", json={}, headers=ann)).is_success
    assert (await http.post(f"/api/matches/{match_id}/start", json={}, headers=ann)).is_success
    # Whoever moves first takes all three: Ann when it is her turn, else the bot (at
    # random, perhaps fewer: then Ann finishes).
    while (seen := await table(http, match_id, ann))["view"]["status"] == "playing":
        if seen["commands"]:
            left = seen["view"]["table"]["left"]
            move = {"type": "countdown.take", "count": min(3, left)}
            body = {"command_id": uuid.uuid4().hex, "move": move}
            await http.post(f"/api/matches/{match_id}/commands", json=body, headers=ann)
        await asyncio.sleep(0.05)
    # Ann offers a rematch: the bot, still at the table, accepts it.
    assert (await http.post(f"/api/matches/{match_id}/rematch", json={}, headers=ann)).is_success
    old = await wait_for(http, match_id, ann, lambda t: t["view"]["rematch"]["match_id"])
    new = old["view"]["rematch"]["match_id"]
    bot = next(p for p in old["view"]["players"] if p.startswith("bot-"))
    assert sorted(old["view"]["rematch"]["accepted"]) == [0, 1]
    # In the rematch the bot plays its turns: a move is made that Ann did not make.
    # Seats rotate, so the bot may move first and take all three before anyone looks:
    # the rematch has begun once it is playing or already over.
    started = await wait_for(http, new, ann, lambda t: t["view"]["status"] != "lobby")
    assert bot in started["view"]["players"]
    if started["commands"]:  # Ann's turn first: she takes one, leaving the bot two
        move = {"type": "countdown.take", "count": 1}
        body = {"command_id": uuid.uuid4().hex, "move": move}
        await http.post(f"/api/matches/{new}/commands", json=body, headers=ann)
    moved = await wait_for(
        http, new, ann, lambda t: t["commands"] or t["view"]["status"] != "playing"
    )
    name = moved["view"]["names"][moved["view"]["players"].index(bot)]
    history = (await http.get(f"/api/matches/{new}/history", headers=ann)).json()
    assert any(line["text"].startswith(f"{name} took") for line in history["lines"]), history


def test_every_event_that_carries_a_player_id_is_named_for_its_sentence() -> None:
    from domain.clock import TimeRanOut
    from services.gateway.tables import _NAMING, named

    kinds: list[type[msgspec.Struct]] = [*m.MATCH_EVENT_TYPES, TimeRanOut]
    carrying = {cls for cls in kinds if {"player", "players"} & set(cls.__struct_fields__)}
    assert carrying == _NAMING
    joined = m.PlayerJoined(player="p-1", seat=0)
    assert named(joined, {"p-1": "Ann"}).player == "Ann"
