"""A player finds their tables again, closed browser or not: those they sit at, waiting
or in play, and those they played to the end, the latest change first; not one they
left before it started."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.gateway.conftest import sign_in
from tests.gateway.test_tables import won_at_once


async def tables_of(http: httpx.AsyncClient, who: dict[str, str]) -> list[dict[str, Any]]:
    answer = await http.get("/api/me/matches", headers=who)
    assert answer.status_code == 200, answer.text
    return list(answer.json())


async def test_my_tables_are_those_i_sit_at_and_played_the_latest_first(
    http: httpx.AsyncClient,
) -> None:
    ann = await sign_in(http, "Ann")
    waiting = await http.post("/api/matches", json={"game": "chicken", "seats": 2}, headers=ann)
    waiting_id = waiting.json()["match_id"]
    played_id, _, _, _ = await won_at_once(http)  # Ann and Bea
    # Ann sits down at Cid's table and gets up again before it starts.
    cid = await sign_in(http, "Cid")
    left = await http.post("/api/matches", json={"game": "chicken", "seats": 3}, headers=cid)
    left_id = left.json()["match_id"]
    assert (await http.post(f"/api/matches/{left_id}/join", json={}, headers=ann)).is_success
    assert (await http.post(f"/api/matches/{left_id}/leave", json={}, headers=ann)).is_success
    expected = [(played_id, "finished"), (waiting_id, "lobby")]
    for _ in range(400):  # the projector folds them: a bound, not a measure
        mine = [(t["match_id"], t["status"]) for t in await tables_of(http, ann)]
        # Ann's list reads the same before her join and leave are folded as after them;
        # Cid's table in Cid's own list says they are.
        theirs = [t["match_id"] for t in await tables_of(http, cid)]
        if mine == expected and theirs == [left_id]:
            break
        await asyncio.sleep(0.05)
    assert mine == expected
    assert theirs == [left_id]
    bea = await sign_in(http, "Bea")
    assert [t["match_id"] for t in await tables_of(http, bea)] == [played_id]
    names = (await tables_of(http, bea))[0]["names"]
    assert sorted(names) == ["Ann", "Bea"]
    assert (await http.get("/api/me/matches")).status_code == 401
