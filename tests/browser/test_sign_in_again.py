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


async def test_signing_out_ends_this_devices_token_and_everywhere_ends_them_all(
    stack: Stack, browser: Browser
) -> None:
    phone = await signed_in_page(browser, stack.url, "Ann")
    laptop = await signed_in_page(browser, stack.url, "Ann")
    tokens = [await p.evaluate("localStorage.getItem('tabletop.token')") for p in (phone, laptop)]

    async def signed_in() -> list[int]:
        async with httpx.AsyncClient(base_url=stack.url) as http:
            return [
                (await http.get("/api/me", headers={"authorization": f"Bearer {t}"})).status_code
                for t in tokens
            ]

    await phone.get_by_role("button", name="Sign out", exact=True).click()
    await phone.wait_for_selector("#signin")
    assert await signed_in() == [401, 200]  # a copy of the phone's token is useless
    await laptop.get_by_role("button", name="Sign out everywhere").click()
    await laptop.wait_for_selector("#signin")
    assert await signed_in() == [401, 401]
    assert phone.errors == [] and laptop.errors == []  # type: ignore[attr-defined]
