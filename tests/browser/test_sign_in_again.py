"""A sign-in that has ended (the token expired) sends the person to sign in again, with
a line saying why, and back to the table they were at; it never leaves them on a page
whose every call fails."""

from __future__ import annotations

import httpx
from playwright.async_api import Browser

from services.gateway.stack import Stack
from services.gateway.tokens import Player, Tokens
from tests.browser.conftest import add_a_bot_and_start, signed_in_page


async def test_an_expired_sign_in_at_the_table_leads_back_to_the_table(
    stack: Stack, browser: Browser
) -> None:
    ann = await signed_in_page(browser, stack.url, "Ann")
    await ann.select_option("#create-game", "chicken")
    await ann.click("#create button")
    await ann.wait_for_url("**/table?match=*")
    await add_a_bot_and_start(ann)
    table = ann.url
    # Twelve hours on: Ann's token, signed with the gateway's own secret, has run out.
    expired = Tokens(stack.server.app.state.gateway.config.secret, ttl_seconds=-60)
    old = expired.issue(Player(id="dev-ann", name="Ann"))
    await ann.evaluate("t => localStorage.setItem('tabletop.token', t)", old)
    await ann.reload()
    await ann.wait_for_url("**/?signin=again&next=*")
    assert "sign in again" in await ann.inner_text("#notice")
    assert await ann.evaluate("localStorage.getItem('tabletop.token')") is None
    await ann.fill("#name", "Ann")
    await ann.click("#signin button")
    await ann.wait_for_url(table)
    await ann.wait_for_selector(".live.on")
    assert ann.errors == []  # type: ignore[attr-defined]


async def test_signing_out_ends_the_token_at_the_gateway_too(
    stack: Stack, browser: Browser
) -> None:
    ann = await signed_in_page(browser, stack.url, "Ann")
    token = await ann.evaluate("localStorage.getItem('tabletop.token')")
    await ann.click("text=Sign out")
    await ann.wait_for_selector("#signin")
    async with httpx.AsyncClient(base_url=stack.url) as http:
        copied = await http.get("/api/me", headers={"authorization": f"Bearer {token}"})
    assert copied.status_code == 401 and "ended" in copied.json()["detail"]
    assert ann.errors == []  # type: ignore[attr-defined]
