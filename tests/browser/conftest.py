"""A gateway (with the command service and projector) on the test Redis, and Debian's
chromium driven by Playwright (its own browser download is not reachable here)."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest
import pytest_asyncio
from playwright.async_api import Browser, ConsoleMessage, Page, WebSocket, async_playwright
from redis.asyncio import Redis

from services.gateway.app import GatewayConfig
from services.gateway.stack import Stack
from services.infra.config import Settings

CHROMIUM = os.environ.get("TABLETOP_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# TABLETOP_SCREENSHOTS=docs/screenshots refreshes the README's pictures; by default
# a run leaves the tree as it was.
SCREENSHOTS = Path(
    os.environ.get("TABLETOP_SCREENSHOTS") or Path(tempfile.gettempdir()) / "tabletop-screenshots"
)
SCREENSHOTS.mkdir(parents=True, exist_ok=True)

pytestmark = pytest.mark.browser


@pytest_asyncio.fixture
async def stack(
    redis: Redis, redis_server: str, request: pytest.FixtureRequest
) -> AsyncIterator[Stack]:
    settings = Settings(redis_url=redis_server, partitions=4, polling_ms=20)
    # Two people quick-playing one table must both sit down before bots fill it, however
    # slow the machine: a long wait, unless a test marks the short one it means to see run
    # out (`@pytest.mark.quickplay_wait(1.5)`).
    marked = request.node.get_closest_marker("quickplay_wait")
    # `@pytest.mark.unlimited`: no request or table limits, for a test that opens a table
    # of every game at once.
    unlimited = request.node.get_closest_marker("unlimited") is not None
    config = GatewayConfig(
        secret="browser-test-secret-0123456789ab",
        dev_signin=True,
        quickplay_wait=float(marked.args[0]) if marked else 60.0,
        bot_delay=0.0,
    )
    if unlimited:
        config = msgspec.structs.replace(config, rate=0, tables_per_minute=0)
    running = await Stack(settings, config).start()
    try:
        yield running
    finally:
        await running.stop()


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)")
    async with async_playwright() as p:
        launched = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()


async def signed_in_page(browser: Browser, base: str, name: str, width: int = 1100) -> Page:
    context = await browser.new_context(viewport={"width": width, "height": 900})
    page = await context.new_page()
    errors: list[str] = []

    def blocked(message: ConsoleMessage) -> None:
        # Anything the gateway's Content-Security-Policy blocks (a script, a style, the
        # live socket) is a page that does not work as served.
        if "Content Security Policy" in message.text:
            errors.append(message.text)

    def opened(socket: WebSocket) -> None:
        # A token in a socket's address would reach the access logs of any proxy.
        if "token" in socket.url:
            errors.append(f"token in {socket.url}")

    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", blocked)
    page.on("websocket", opened)
    page.errors = errors  # type: ignore[attr-defined]
    await page.goto(base + "/")
    await page.fill("#name", name)
    await page.click("#signin button")
    await page.wait_for_selector("#quick-play")
    return page


async def quick_play(page: Page, game: str, seats: int) -> None:
    await page.select_option("#quick-game", game)
    await page.fill("#quick-seats", str(seats))
    await page.click("#quick-play")
    await page.wait_for_url("**/table?match=*")
    await page.wait_for_selector(".live.on")


async def open_a_table(page: Page, game: str = "chicken", unlisted: bool = False) -> str:
    """Open a table of `game` from the lobby's form, with its default options; the
    match id, once the page is at the table."""
    await page.select_option("#create-game", game)
    if unlisted:
        await page.check("#create-unlisted")
    await page.click("#create button:has-text('Open a table')")
    await page.wait_for_url("**/table?match=*")
    return match_of(page)


def match_of(page: Page) -> str:
    found = re.search(r"match=([A-Za-z0-9_-]+)", page.url)
    assert found
    return found.group(1)


async def add_a_bot_and_start(page: Page) -> None:
    await page.click("text=Add a bot")
    await page.wait_for_selector("text=Robo")
    await page.click("text=Start the match")
    await page.wait_for_selector("text=playing")
