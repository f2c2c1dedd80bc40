"""The lobby in a real browser: a table opened with options other than the defaults,
chosen in the form its game's schema makes, and the matches waiting for me."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import pytest
from playwright.async_api import Browser, Page

from events.matches import load_match
from services import compose
from services.gateway.stack import Stack
from tests.browser.conftest import (
    SCREENSHOTS,
    add_a_bot_and_start,
    match_of,
    open_a_table,
    signed_in_page,
)
from tests.support.tables import countdown_against_a_bot

pytestmark = pytest.mark.browser


async def handed_the_turn(stack: Stack, page: Page, match_id: str, times: int) -> None:
    """Play the page's player's first legal move whenever it is theirs, until they have
    been told "your turn" at this match `times` times."""
    token = await page.evaluate("localStorage.getItem('tabletop.token')")
    me = {"authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=stack.url, timeout=10) as http:
        for _ in range(600):
            told = (await http.get("/api/me/notices", headers=me)).json()
            if sum(n["match_id"] == match_id and n["kind"] == "your_turn" for n in told) >= times:
                return
            table = (await http.get(f"/api/matches/{match_id}", headers=me)).json()
            if table["commands"]:
                move = table["commands"][0]["legal"][0]
                body = {"command_id": uuid.uuid4().hex, "move": move}
                await http.post(f"/api/matches/{match_id}/commands", json=body, headers=me)
            await asyncio.sleep(0.05)
    raise AssertionError(f"the turn did not come back {times} times")


async def test_a_table_opened_with_chosen_options_is_played_with_them(
    stack: Stack, browser: Browser
) -> None:
    ann = await signed_in_page(browser, stack.url, "Ann")
    await ann.select_option("#create-game", "carnuta")
    # Carnuta's options: a select for its enum, a number input within its range.
    rounds = ann.locator("#opt-max_rounds")
    assert (await rounds.get_attribute("type"), await rounds.get_attribute("min")) == (
        "number",
        "5",
    )
    assert await rounds.get_attribute("max") == "60" and await rounds.input_value() == "30"
    assert await ann.locator("#opt-last_round option").all_inner_texts() == ["another", "finish"]
    # Out of range, the browser keeps the form from being sent.
    await rounds.fill("99")
    assert not await rounds.evaluate("e => e.checkValidity()")
    await rounds.fill("12")
    await ann.select_option("#opt-last_round", label="finish")
    await ann.screenshot(path=str(SCREENSHOTS / "lobby-options.png"), full_page=True)
    await ann.click("#create button:has-text('Open a table')")
    await ann.wait_for_url("**/table?match=*")
    shown = await ann.wait_for_selector("#table-options")
    assert shown is not None
    assert "max rounds: 12" in await shown.inner_text()
    assert "last round: finish" in await shown.inner_text()
    # The match holds them, as the command service checked them.
    store = compose.event_store(stack.settings, stack.redis)
    found = await load_match(store, match_of(ann))
    assert found is not None
    assert found.state.options["max_rounds"] == 12
    assert found.state.options["last_round"] == "finish"
    assert ann.errors == []  # type: ignore[attr-defined]


async def test_a_checked_box_opens_chicken_with_its_eggspansion_and_my_turn_is_listed(
    stack: Stack, browser: Browser
) -> None:
    ann = await signed_in_page(browser, stack.url, "Ann")
    await ann.wait_for_selector("#my-turns >> text=No match is waiting for you.")
    await ann.select_option("#create-game", "chicken")
    assert not await ann.is_checked("#opt-eggspansion")
    await ann.check("#opt-eggspansion")
    await ann.click("#create button:has-text('Open a table')")
    await ann.wait_for_url("**/table?match=*")
    match_id = match_of(ann)
    assert "eggspansion: yes" in await ann.inner_text("#table-options")
    await add_a_bot_and_start(ann)
    # Ann plays on over the API until the bot has handed her the turn three times.
    await handed_the_turn(stack, ann, match_id, times=3)
    # Back in the lobby: the bot plays its turns, and then the match waits for Ann.
    await ann.goto(stack.url + "/")
    await ann.wait_for_selector(f"#my-turns a[href='/table?match={match_id}']")
    await ann.wait_for_selector("#my-notices >> text=Your turn at Chicken!")
    # However many turns the bot handed back, the match has one line: its newest notice.
    links = await ann.eval_on_selector_all("#my-notices li a", "as => as.map(a => a.href)")
    assert sum(link.endswith(f"match={match_id}") for link in links) == 1, links
    await ann.screenshot(path=str(SCREENSHOTS / "lobby-turns.png"), full_page=True)
    assert ann.errors == []  # type: ignore[attr-defined]


async def test_the_lobby_hears_of_my_tables_without_asking_again(
    stack: Stack, browser: Browser
) -> None:
    """With the lobby's timers stopped, a table started and played to the end elsewhere
    moves on in "Your tables", and its rating shows, by the pushed notices alone."""
    ann = await signed_in_page(browser, stack.url, "Ann")
    await ann.add_init_script("window.setInterval = () => 0;")  # no panel polls
    await ann.reload()
    await ann.wait_for_selector("#my-tables >> text=You sit at no table yet.")
    token = await ann.evaluate("localStorage.getItem('tabletop.token')")
    me = {"authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=stack.url, timeout=10) as http:
        # Ann takes all she may until the bot or she has won.
        match_id = await countdown_against_a_bot(http, me, {"start": 3})
    await ann.wait_for_selector(f"#my-tables li[data-status=finished] a[href$='{match_id}']")
    await ann.wait_for_selector("#my-ratings >> text=Countdown", timeout=20_000)
    # The board turns to Countdown, and says how strong its bots play, off the board.
    await ann.wait_for_selector("#bots-rating >> text=/Bots play at rating -?[0-9.]+ \\(1 played/")
    assert ann.errors == []  # type: ignore[attr-defined]


async def test_a_table_opened_unlisted_is_found_by_its_link_alone(
    stack: Stack, browser: Browser
) -> None:
    ann = await signed_in_page(browser, stack.url, "Ann")
    bea = await signed_in_page(browser, stack.url, "Bea")
    match_id = await open_a_table(ann, unlisted=True)
    link = await ann.input_value("#invite-link")
    assert link == f"{stack.url}/table?match={match_id}"
    assert "lobby · unlisted" in await ann.inner_text(".panel.status")
    # Once projected (it is among Ann's own tables), Bea's lobby still does not list it.
    await ann.goto(stack.url + "/")
    await ann.wait_for_selector(f"#my-tables a[href$='{match_id}']")
    await bea.click("text=Refresh tables")
    await bea.wait_for_selector("text=No tables.")
    assert match_id not in await bea.content()
    # Given the link, she sits down.
    await ann.goto(link)
    await bea.goto(link)
    await bea.click("text=Join this table")
    await ann.wait_for_selector(".seat >> text=Bea")
    assert ann.errors == [] and bea.errors == []  # type: ignore[attr-defined]


async def test_a_lobby_row_names_who_sits_and_counts_the_free_seats(
    stack: Stack, browser: Browser
) -> None:
    """An empty seat is no player: the row names Ann alone and says one seat is free."""
    ann = await signed_in_page(browser, stack.url, "Ann")
    bea = await signed_in_page(browser, stack.url, "Bea")
    match_id = await open_a_table(ann)
    await ann.goto(stack.url + "/")
    mine = ann.locator(f"#my-tables li:has(a[href$='{match_id}'])")
    await mine.wait_for()
    assert (await mine.inner_text()).endswith("with Ann: waiting, 1 seat free")
    await bea.click("text=Refresh tables")
    row = bea.locator(f"tr:has(a[href$='{match_id}'])")
    await row.wait_for()
    cells = await row.locator("td").all_inner_texts()
    assert cells[1:3] == ["Ann", "1 seat free"], cells
    assert ann.errors == [] and bea.errors == []  # type: ignore[attr-defined]


async def test_the_last_player_to_leave_a_waiting_table_closes_it(
    stack: Stack, browser: Browser
) -> None:
    """A table nobody waits at any more is closed: the page says so, and no lobby has it."""
    ann = await signed_in_page(browser, stack.url, "Ann")
    match_id = await open_a_table(ann)
    await ann.click("button:has-text('Leave')")
    await ann.wait_for_selector("#closed >> text=This table was closed before its match began.")
    assert "closed" in await ann.inner_text(".panel.status")
    assert "The table was closed: everyone had left." in await ann.inner_text("#history")
    assert not await ann.is_visible("button:has-text('Join this table')")
    await ann.screenshot(path=str(SCREENSHOTS / "table-closed.png"), full_page=True)
    await ann.click("text=Find another table")
    await ann.wait_for_selector("#my-tables >> text=You sit at no table yet.")
    await ann.click("text=Refresh tables")
    await ann.wait_for_selector("text=No tables.")
    assert match_id not in await ann.content()
    assert ann.errors == []  # type: ignore[attr-defined]
