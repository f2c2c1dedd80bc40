"""The pages checked by axe-core (tools/a11y, pinned) as a screen reader or a keyboard
user meets them: the sign-in page, the lobby at desktop and phone widths, a table of
every registered game in play, and a replay. Any fault axe finds, whatever its impact,
fails the test, named with the page and the elements it was found on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Page

from services.gateway.stack import Stack
from tests.browser.conftest import add_a_bot_and_start, quick_play, signed_in_page
from tests.browser.test_play_in_the_browser import shown_version
from tests.support.tables import countdown_against_a_bot

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "tools" / "a11y" / "node_modules" / "axe-core"


async def faults(page: Page) -> list[str]:
    """What axe finds wrong with the page as it stands, one line a rule."""
    if not (AXE / "axe.min.js").is_file():
        pytest.fail("axe-core is not installed: run npm ci --prefix tools/a11y")
    await page.add_script_tag(path=str(AXE / "axe.min.js"))
    found: dict[str, Any] = await page.evaluate("() => axe.run(document)")
    return [
        f"{v['impact']} {v['id']} ({v['help']}): {[n['html'][:120] for n in v['nodes'][:3]]}"
        for v in found["violations"]
    ]


async def page_of(browser: Browser, url: str, token: str | None = None, width: int = 1100) -> Page:
    """A page where axe may be injected (the pages' own policy runs no script but theirs),
    signed in with `token` when one is given."""
    context = await browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    if token:
        await context.add_init_script(f"localStorage.setItem('tabletop.token', '{token}')")
    page = await context.new_page()
    await page.goto(url)
    return page


async def table_in_play(http: httpx.AsyncClient, me: dict[str, str], game: dict[str, Any]) -> str:
    """A table of `game` with bots in the other seats, started."""
    seats = game["min_players"]
    made = await http.post("/api/matches", json={"game": game["name"], "seats": seats}, headers=me)
    assert made.status_code == 201, made.text
    match_id: str = made.json()["match_id"]
    for _ in range(seats - 1):
        added = await http.post(f"/api/matches/{match_id}/bots", json={}, headers=me)
        assert added.status_code == 200, added.text
    started = await http.post(f"/api/matches/{match_id}/start", json={}, headers=me)
    assert started.status_code == 200, started.text
    return match_id


@pytest.mark.unlimited
async def test_every_page_passes_axe(stack: Stack, browser: Browser) -> None:
    found: dict[str, list[str]] = {}
    welcome = await page_of(browser, stack.url + "/")
    await welcome.wait_for_selector("#signin")
    found["sign-in"] = await faults(welcome)
    async with httpx.AsyncClient(base_url=stack.url, timeout=30) as http:
        signed = await http.post("/api/signin/dev", json={"name": "Ann"})
        token = signed.json()["token"]
        me = {"authorization": f"Bearer {token}"}
        for width in (1100, 390):
            lobby = await page_of(browser, stack.url + "/", token, width)
            await lobby.wait_for_selector("#quick-play")
            await lobby.wait_for_selector("#my-ratings li")
            found[f"lobby at {width} px"] = await faults(lobby)
            await lobby.context.close()
        table = await page_of(browser, stack.url + "/", token)
        for game in (await http.get("/api/games")).json():
            match_id = await table_in_play(http, me, game)
            await table.goto(f"{stack.url}/table?match={match_id}")
            await table.wait_for_selector(".live.on")
            await table.wait_for_selector("#history li")
            found[f"table of {game['name']}"] = await faults(table)
        # A table where another player has talked: the lines, each with its Mute button.
        signed = await http.post("/api/signin/dev", json={"name": "Bea"})
        bea = {"authorization": f"Bearer {signed.json()['token']}"}
        made = await http.post("/api/matches", json={"game": "chicken", "seats": 2}, headers=me)
        match_id = made.json()["match_id"]
        await http.post(f"/api/matches/{match_id}/join", json={}, headers=bea)
        for who, text in ((bea, "Hello Ann"), (me, "Hi Bea")):
            said = await http.post(
                f"/api/matches/{match_id}/chat", json={"text": text}, headers=who
            )
            assert said.status_code == 201, said.text
        await table.goto(f"{stack.url}/table?match={match_id}")
        await table.wait_for_selector("button[aria-label='Mute Bea']")
        found["table with chat"] = await faults(table)
        match_id = await countdown_against_a_bot(http, me, pick=0)
        await table.goto(f"{stack.url}/replay?match={match_id}")
        await table.wait_for_selector("#sentence")
        found["replay"] = await faults(table)
    assert len(found) > 10
    wrong = {page: lines for page, lines in found.items() if lines}
    assert wrong == {}


async def test_a_player_plays_by_keyboard_her_move_in_focus_at_her_turn(
    stack: Stack, browser: Browser
) -> None:
    """Whenever the turn comes to Ann, her first move has the focus: Enter plays it, and
    she plays a whole match of Chicken! against a bot without the mouse."""
    ann = await signed_in_page(browser, stack.url, "Ann")
    await quick_play(ann, "chicken", 2)
    await add_a_bot_and_start(ann)
    played = 0
    for _ in range(600):
        if "finished" in await ann.inner_text(".panel.status"):
            break
        focused = await ann.evaluate(
            "() => document.activeElement && document.activeElement.matches('#actions button.move')"
        )
        if not focused:
            await ann.wait_for_timeout(50)
            continue
        before = await ann.inner_text(".panel.status")
        await ann.keyboard.press("Enter")
        await ann.wait_for_function(
            "b => document.querySelector('.panel.status').innerText !== b", arg=before
        )
        played += 1
    else:
        raise AssertionError("the match did not end")
    assert played > 3
    assert ann.errors == []  # type: ignore[attr-defined]


async def test_the_turn_coming_round_leaves_a_line_being_typed_where_it_is(
    stack: Stack, browser: Browser
) -> None:
    ann = await signed_in_page(browser, stack.url, "Ann")
    await quick_play(ann, "chicken", 2)
    await add_a_bot_and_start(ann)
    await ann.wait_for_selector("#actions button.move")
    await ann.click("#chat-text")
    await ann.keyboard.type("wait, I")
    # A move played without taking the focus (a click by script); the bot answers and
    # the turn comes back to Ann while she is typing.
    before = await shown_version(ann)
    await ann.evaluate("() => document.querySelector('#actions button.move').click()")
    await ann.wait_for_function(
        "v => !document.querySelector('.panel.status').innerText.includes('version ' + v + ' ')"
        " && document.querySelector('#actions button.move')",
        arg=before,
    )
    await ann.wait_for_timeout(300)  # the push's message handled to its end
    assert await ann.evaluate("() => document.activeElement.id") == "chat-text"
    assert await ann.input_value("#chat-text") == "wait, I"
