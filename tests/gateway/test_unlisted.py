"""An unlisted table: kept out of every lobby, found by whoever is given its link, and
among its players' own tables like any other."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.gateway.conftest import sign_in


async def tables_of(http: httpx.AsyncClient, who: dict[str, str]) -> dict[str, Any]:
    rows = (await http.get("/api/me/matches", headers=who)).json()
    return {row["match_id"]: row for row in rows}


async def listed_ids(http: httpx.AsyncClient, **query: str) -> list[str]:
    answer = await http.get("/api/matches", params=query)
    assert answer.status_code == 200, answer.text
    return [row["match_id"] for row in answer.json()]


async def test_an_unlisted_table_is_in_no_lobby_and_found_by_its_link(
    http: httpx.AsyncClient,
) -> None:
    ann, bea = await sign_in(http, "Ann"), await sign_in(http, "Bea")
    body = {"game": "chicken", "seats": 2, "unlisted": True}
    made = await http.post("/api/matches", json=body, headers=ann)
    assert made.status_code == 201, made.text
    hidden = made.json()["match_id"]
    shown = (await http.post("/api/matches", json={**body, "unlisted": False}, headers=ann)).json()
    for _ in range(400):  # the projector writes both: a bound, not a measure
        mine = {
            row["match_id"]: row for row in (await http.get("/api/me/matches", headers=ann)).json()
        }
        if hidden in mine and shown["match_id"] in mine:
            break
        await asyncio.sleep(0.05)
    assert mine[hidden]["unlisted"] is True and mine[shown["match_id"]]["unlisted"] is False
    for query in ({}, {"game": "chicken"}):
        assert await listed_ids(http, **query) == [shown["match_id"]]
    refused = await http.get("/api/matches", params={"game": "~"})
    assert refused.status_code == 400 and refused.json()["detail"] == "There is no game called ~."
    # Bea was given the link: she sits down, and the table shows it is unlisted.
    assert (await http.post(f"/api/matches/{hidden}/join", json={}, headers=bea)).status_code == 200
    table = (await http.get(f"/api/matches/{hidden}", headers=bea)).json()
    assert table["view"]["unlisted"] is True and table["seat"] == 1
    assert (
        await http.post(f"/api/matches/{hidden}/start", json={}, headers=ann)
    ).status_code == 200
    for _ in range(400):
        mine = {
            row["match_id"]: row for row in (await http.get("/api/me/matches", headers=bea)).json()
        }
        if mine.get(hidden, {}).get("status") == "playing":
            break
        await asyncio.sleep(0.05)
    assert mine[hidden]["status"] == "playing"
    assert hidden not in await listed_ids(http, status="playing")
