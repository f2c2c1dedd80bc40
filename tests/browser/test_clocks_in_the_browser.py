"""The web table shows a clocked match's clocks: every seat's time, the running one
counting down in the page from the server's numbers."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.async_api import Browser

from services.gateway.stack import Stack
from tests.browser.conftest import SCREENSHOTS, signed_in_page

pytestmark = pytest.mark.browser


async def test_the_table_shows_each_seats_clock_and_the_running_one_counts_down(
    stack: Stack, browser: Browser
) -> None:
    page = await signed_in_page(browser, stack.url, "Ann")
    async with httpx.AsyncClient(base_url=stack.url, timeout=30) as http:
        headers = {}
        for name in ("Ann", "Bea"):
            token = (await http.post("/api/signin/dev", json={"name": name})).json()["token"]
            headers[name] = {"authorization": f"Bearer {token}"}
        clock = {"kind": "move", "seconds": 300, "expiry": "bot"}
        body = {"game": "chicken", "seats": 2, "clock": clock}
        created = await http.post("/api/matches", json=body, headers=headers["Ann"])
        match_id = created.json()["match_id"]
        await http.post(f"/api/matches/{match_id}/join", json={}, headers=headers["Bea"])
        await http.post(f"/api/matches/{match_id}/start", json={}, headers=headers["Ann"])
    await page.goto(f"{stack.url}/table?match={match_id}")
    await page.wait_for_selector(".clock.running")
    # One clock a seat; the one that runs shows at most the 5 minutes of a move.
    assert await page.locator(".seat .clock").count() == 2
    shown = await page.inner_text(".clock.running")
    assert re.fullmatch(r"[0-5]:\d\d", shown), shown
    assert await page.inner_text(".clock:not(.running)") == "5:00"
    # It counts down in the page, with no new event from the server.
    await page.wait_for_function(
        "shown => document.querySelector('.clock.running').textContent !== shown", arg=shown
    )
    later = await page.inner_text(".clock.running")
    assert re.fullmatch(r"[0-4]:\d\d", later) and later < shown, (shown, later)
    await page.screenshot(path=str(SCREENSHOTS / "table-clocks.png"), full_page=True)
    assert not page.errors  # type: ignore[attr-defined]
