"""Table chat in a real browser: the seated players talk and see each other's lines
pushed, a spectator reads without a box to type in, and a line is shown as text."""

from __future__ import annotations

import httpx
import pytest
from playwright.async_api import Browser, Page

from services.gateway.stack import Stack
from tests.browser.conftest import SCREENSHOTS, signed_in_page

pytestmark = pytest.mark.browser


async def headers_of(page: Page) -> dict[str, str]:
    token = await page.evaluate("localStorage.getItem('tabletop.token')")
    return {"authorization": f"Bearer {token}"}


async def test_the_players_talk_at_the_table_and_a_spectator_reads(
    stack: Stack, browser: Browser
) -> None:
    ann = await signed_in_page(browser, stack.url, "Ann")
    bea = await signed_in_page(browser, stack.url, "Bea", width=390)  # a phone's width
    cid = await signed_in_page(browser, stack.url, "Cid")
    async with httpx.AsyncClient(base_url=stack.url, timeout=10) as http:
        made = await http.post(
            "/api/matches", json={"game": "chicken", "seats": 2}, headers=await headers_of(ann)
        )
        match_id = made.json()["match_id"]
        joined = await http.post(
            f"/api/matches/{match_id}/join", json={}, headers=await headers_of(bea)
        )
        assert joined.status_code == 200
    for page in (ann, bea, cid):
        await page.goto(f"{stack.url}/table?match={match_id}")
        await page.wait_for_selector(".live.on")
    # Bea's phone shows the top of the table: the chat is out of sight, below.
    await bea.set_viewport_size({"width": 390, "height": 420})
    await bea.evaluate("() => window.scrollTo(0, 0)")
    await ann.fill("#chat-text", "Good luck! <b>bold?</b>")
    await ann.press("#chat-text", "Enter")
    await bea.wait_for_selector("#chat-unread >> text=Chat: 1 new")
    await bea.click("#chat-unread")  # to the chat, where the line is read
    await bea.wait_for_selector("#chat-unread", state="hidden")
    await bea.set_viewport_size({"width": 390, "height": 900})
    for page in (ann, bea, cid):
        await page.wait_for_selector("#chat-lines li >> text=Good luck!")
        line = await page.inner_text("#chat-lines li")
        assert "Ann: Good luck! <b>bold?</b>" in line  # the markup as typed, not as markup
        assert await page.locator("#chat-lines li b").all_inner_texts() == ["Ann"]
    assert await ann.input_value("#chat-text") == ""
    await bea.fill("#chat-text", "You too")
    await bea.click("#chat-form button")
    await ann.wait_for_selector("#chat-lines li >> text=You too")
    # Cid watches: he reads every line, and has no box to type in.
    assert not await cid.is_visible("#chat-form")
    assert await cid.is_visible("#chat-spectating")
    assert await cid.locator("#chat-lines li").count() == 2
    # A reload gets the latest lines, each once.
    await bea.reload()
    await bea.wait_for_selector("#chat-lines li >> text=You too")
    assert await bea.locator("#chat-lines li").count() == 2
    await bea.screenshot(path=str(SCREENSHOTS / "table-chat.png"), full_page=True)
    # A moderator of the platform takes Ann's line back: it leaves every page.
    first = await bea.get_attribute("#chat-lines li", "data-id")
    async with httpx.AsyncClient(base_url=stack.url, timeout=10) as http:
        taken = await http.delete(
            f"/api/matches/{match_id}/chat/{first}",
            headers={"x-gateway-secret": "browser-test-secret-0123456789ab"},  # conftest
        )
        assert taken.status_code == 204
    for page in (ann, bea, cid):
        await page.wait_for_function("() => document.querySelectorAll('#chat-lines li').length < 2")
        assert "You too" in await page.inner_text("#chat-lines")
    assert ann.errors == [] and bea.errors == [] and cid.errors == []  # type: ignore[attr-defined]


async def test_a_player_mutes_another_and_hears_them_again_when_she_likes(
    stack: Stack, browser: Browser
) -> None:
    """Muting hides a player's lines from me alone, on every table of this browser,
    across reloads; the table still hears them, and nobody is told."""
    ann = await signed_in_page(browser, stack.url, "Ann")
    bea = await signed_in_page(browser, stack.url, "Bea")
    async with httpx.AsyncClient(base_url=stack.url, timeout=10) as http:
        made = await http.post(
            "/api/matches", json={"game": "chicken", "seats": 2}, headers=await headers_of(ann)
        )
        match_id = made.json()["match_id"]
        await http.post(f"/api/matches/{match_id}/join", json={}, headers=await headers_of(bea))
    for page in (ann, bea):
        await page.goto(f"{stack.url}/table?match={match_id}")
        await page.wait_for_selector(".live.on")
    await ann.fill("#chat-text", "Hello")
    await ann.press("#chat-text", "Enter")
    await bea.fill("#chat-text", "Buy my coins at spam.example")
    await bea.press("#chat-text", "Enter")
    await ann.wait_for_selector("#chat-lines li >> text=spam.example")
    assert not await ann.is_visible("#chat-lines li:has-text('Hello') .mute")  # not herself
    await ann.click("button[aria-label='Mute Bea']")
    await ann.wait_for_selector("#chat-lines li:has-text('spam.example')", state="hidden")
    assert await ann.inner_text("#chat-muted") == "Muted: Bea Unmute"
    await bea.fill("#chat-text", "Still here")
    await bea.press("#chat-text", "Enter")
    await bea.wait_for_selector("#chat-lines li >> text=Still here")  # Bea sees her lines
    await ann.reload()
    await ann.wait_for_selector("#chat-lines li >> text=Hello")
    await ann.wait_for_selector("#chat-lines li:has-text('Still here')", state="attached")
    assert await ann.locator("#chat-lines li:visible").all_inner_texts() == [
        t for t in await ann.locator("#chat-lines li").all_inner_texts() if "Ann:" in t
    ]
    await ann.click("button[aria-label='Unmute Bea']")
    await ann.wait_for_selector("#chat-lines li >> text=Still here")
    assert await ann.locator("#chat-lines li:visible").count() == 3
    assert not await ann.is_visible("#chat-muted")
    assert ann.errors == [] and bea.errors == []  # type: ignore[attr-defined]
