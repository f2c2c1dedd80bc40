"""Undo and rematch by clicking (issue 19): a move taken back at the web table, which the
other player's history reads, and a finished match played again with the seats rotated."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, Page

from services.gateway.stack import Stack
from tests.browser.conftest import SCREENSHOTS, match_of, signed_in_page

pytestmark = pytest.mark.browser


async def table_of_two(stack: Stack, browser: Browser, game: str) -> tuple[Page, Page, str]:
    """Ann opens a table of `game` from the lobby, Bea joins it from its link, Ann starts."""
    ann = await signed_in_page(browser, stack.url, "Ann")
    bea = await signed_in_page(browser, stack.url, "Bea")
    await ann.select_option("#create-game", game)
    if game == "countdown":
        await ann.fill("#opt-start", "3")  # one move can end it
    await ann.click("#create button:has-text('Open a table')")
    await ann.wait_for_url("**/table?match=*")
    match_id = match_of(ann)
    await bea.goto(f"{stack.url}/table?match={match_id}")
    await bea.click("text=Join this table")
    await ann.click("text=Start the match")
    for page in (ann, bea):
        await page.wait_for_selector(".panel.status >> text=playing")
    return ann, bea, match_id


async def offered(page: Page, move: str) -> bool:
    return await page.locator(f"#actions button.move:has-text('{move}')").count() > 0


async def acting(ann: Page, bea: Page, move: str) -> tuple[Page, Page]:
    """The page offered `move` (the player to act), and the other page."""
    for _ in range(100):  # a bound on waiting for the live view, not a measure of speed
        if await offered(ann, move):
            return ann, bea
        if await offered(bea, move):
            return bea, ann
        await ann.wait_for_timeout(100)
    raise AssertionError("nobody is offered " + move)


async def test_a_move_taken_back_by_clicking_undo_is_read_by_the_other_player(
    stack: Stack, browser: Browser
) -> None:
    ann, bea, _ = await table_of_two(stack, browser, "threethirteen")
    mover, other = await acting(ann, bea, "Take Discard")
    assert await mover.locator("#undo").count() == 0  # nothing to take back yet
    await mover.click("#actions button.move:has-text('Take Discard')")
    # Everyone saw the discard and nothing was drawn: the mover may take it back.
    await mover.wait_for_selector("#undo")
    assert await other.locator("#undo").count() == 0
    await mover.click("#undo")
    await other.wait_for_selector("#history >> text=took back their move")
    await mover.wait_for_selector("#actions button.move:has-text('Take Discard')")
    assert await mover.locator("#undo").count() == 0
    await other.screenshot(path=str(SCREENSHOTS / "table-undone.png"), full_page=True)
    assert ann.errors == [] and bea.errors == []  # type: ignore[attr-defined]


async def test_a_finished_match_is_played_again_by_offering_and_accepting_a_rematch(
    stack: Stack, browser: Browser
) -> None:
    ann, bea, match_id = await table_of_two(stack, browser, "countdown")
    mover, other = await acting(ann, bea, "Take: count 3")
    await mover.click("#actions button.move:has-text('Take: count 3')")
    for page in (ann, bea):
        await page.wait_for_selector(".panel.status >> text=finished")
    # The loser offers a rematch; the winner's table shows the offer and accepts it.
    await other.click("#rematch-offer")
    await mover.click("#rematch-accept")
    for page in (ann, bea):
        await page.wait_for_selector("#rematch-link")
    await mover.screenshot(path=str(SCREENSHOTS / "table-rematch.png"), full_page=True)
    # Both go to the rematch: playing, linked back, the seats rotated.
    for page in (ann, bea):
        await page.click("#rematch-link")
        await page.wait_for_url("**/table?match=*")
        assert match_of(page) != match_id
        await page.wait_for_selector(".panel.status >> text=playing")
        await page.wait_for_selector(f"a[href='/table?match={match_id}']")
    assert match_of(ann) == match_of(bea)
    # Ann opened the first table in seat 1; the rematch seats Bea first.
    first = await ann.inner_text(".seat[data-seat='0'] h3")
    second = await ann.inner_text(".seat[data-seat='1'] h3")
    assert first.startswith("Bea") and second.startswith("Ann (you)"), (first, second)
    assert ann.errors == [] and bea.errors == []  # type: ignore[attr-defined]
