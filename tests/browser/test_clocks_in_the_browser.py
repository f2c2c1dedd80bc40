"""The web table shows a clocked match's clocks: every seat's time, the running one
counting down in the page from the server's numbers."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.async_api import Browser

from domain.clock import TimeControl
from events.matches import load_match
from services import compose
from services.gateway.stack import Stack
from tests.browser.conftest import SCREENSHOTS, signed_in_page

pytestmark = pytest.mark.browser


async def test_the_table_shows_each_seats_clock_and_the_running_one_counts_down(
    stack: Stack, browser: Browser
) -> None:
    page = await signed_in_page(browser, stack.url, "Ann")
    # Ann opens the table from the lobby's form: a limit of 5 minutes a move, and a bot
    # to move for a seat that runs out (Chicken! may also pass the dice on: skip).
    await page.select_option("#create-game", "chicken")
    assert await page.locator("#clock-seconds").is_hidden()
    await page.select_option("#clock-kind", "move")
    assert await page.locator("#clock-increment").is_hidden()
    assert await page.locator("#clock-expiry option").all_inner_texts() == [
        "the seat loses",
        "a bot plays the move",
        "the turn is skipped",
    ]
    # EpiZodiak has no way to skip a turn: its form does not offer one.
    await page.select_option("#create-game", "epizodiak")
    await page.select_option("#clock-kind", "bank")
    assert await page.locator("#clock-increment").is_visible()
    assert "skipped" not in await page.inner_text("#clock-expiry")
    await page.select_option("#create-game", "chicken")
    await page.select_option("#clock-kind", "move")
    await page.fill("#clock-seconds", "5")
    await page.select_option("#clock-unit", label="minutes")
    await page.select_option("#clock-expiry", "bot")
    await page.click("#create button:has-text('Open a table')")
    await page.wait_for_url("**/table?match=*")
    match_id = page.url.split("match=")[1]
    store = compose.event_store(stack.settings, stack.redis)
    found = await load_match(store, match_id)
    assert found is not None and found.state.clock is not None
    assert found.state.clock.control == TimeControl(kind="move", seconds=300, expiry="bot")
    async with httpx.AsyncClient(base_url=stack.url, timeout=30) as http:
        token = (await http.post("/api/signin/dev", json={"name": "Bea"})).json()["token"]
        bea = {"authorization": f"Bearer {token}"}
        await http.post(f"/api/matches/{match_id}/join", json={}, headers=bea)
    await page.click("text=Start the match")
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
