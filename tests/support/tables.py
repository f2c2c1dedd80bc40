"""Tables set up over the gateway's HTTP API, for the tests that need a match played
before what they check (a rating, a replay, a finished table in a list)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx


async def countdown_against_a_bot(
    http: httpx.AsyncClient,
    me: dict[str, str],
    options: dict[str, Any] | None = None,
    pick: int = -1,
) -> str:
    """A Countdown table opened by `me`, a bot in the other seat, played to its end by
    taking `legal[pick]` at each of my turns: the match id."""
    body = {"game": "countdown", "seats": 2, "options": options or {}}
    made = await http.post("/api/matches", json=body, headers=me)
    assert made.status_code == 201, made.text
    match_id: str = made.json()["match_id"]
    assert (await http.post(f"/api/matches/{match_id}/bots", json={}, headers=me)).is_success
    assert (await http.post(f"/api/matches/{match_id}/start", json={}, headers=me)).is_success
    for _ in range(400):  # the limit only stops a hang
        seen = (await http.get(f"/api/matches/{match_id}", headers=me)).json()
        if seen["view"]["status"] == "finished":
            return match_id
        if seen["commands"]:
            move = {"command_id": uuid.uuid4().hex, "move": seen["commands"][0]["legal"][pick]}
            await http.post(f"/api/matches/{match_id}/commands", json=move, headers=me)
        await asyncio.sleep(0.05)
    raise AssertionError("the match did not end")
