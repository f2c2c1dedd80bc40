"""A clocked table through the gateway: created with a time control, its view carries
the clocks (and the server's time, for the page to count down from)."""

from __future__ import annotations

import httpx
import pytest

from tests.gateway.conftest import sign_in
from tests.gateway.test_gateway import one_move

pytestmark = pytest.mark.redis


async def test_a_table_created_with_a_clock_shows_every_seats_time(
    http: httpx.AsyncClient,
) -> None:
    ann, bea = await sign_in(http, "Ann"), await sign_in(http, "Bea")
    clock = {"kind": "bank", "seconds": 300, "increment": 5, "expiry": "bot"}
    body = {"game": "chicken", "seats": 2, "clock": clock}
    created = await http.post("/api/matches", json=body, headers=ann)
    assert created.status_code in (200, 201), created.text
    match_id = created.json()["match_id"]
    await http.post(f"/api/matches/{match_id}/join", json={}, headers=bea)
    await http.post(f"/api/matches/{match_id}/start", json={}, headers=ann)
    table = (await http.get(f"/api/matches/{match_id}", headers=bea)).json()
    shown = table["view"]["clock"]
    assert (shown["kind"], shown["seconds"], shown["increment"]) == ("bank", 300, 5)
    assert shown["remaining"] == [300_000, 300_000]
    assert shown["running"] == table["view"]["to_act"]
    assert shown["server_now"] >= shown["since"] > 0
    [running] = shown["running"]
    assert shown["deadlines"] == {str(running): shown["since"] + 300_000}
    # A move: the clocks now run from that decision's time.
    assert await one_move(http, match_id, [ann, bea])
    after = (await http.get(f"/api/matches/{match_id}", headers=ann)).json()["view"]["clock"]
    assert after["since"] >= shown["since"]


async def test_a_clock_out_of_range_is_refused_with_its_reason(http: httpx.AsyncClient) -> None:
    ann = await sign_in(http, "Ann")
    body = {"game": "chicken", "seats": 2, "clock": {"kind": "move", "seconds": 0}}
    refused = await http.post("/api/matches", json=body, headers=ann)
    assert refused.status_code == 409 and "bad_clock" in refused.json()["detail"]
    skip = {"kind": "move", "seconds": 30, "expiry": "skip"}
    body = {"game": "loveletter", "seats": 2, "clock": skip}
    refused = await http.post("/api/matches", json=body, headers=ann)
    assert refused.status_code == 409 and "clock_cannot_skip" in refused.json()["detail"]
