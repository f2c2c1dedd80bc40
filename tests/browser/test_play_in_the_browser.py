"""People play in a real browser: quick play, clicking moves, reloads, replay, and
no page ever showing a card its seat may not see."""

from __future__ import annotations

import random
import re
from pathlib import Path

import msgspec
import pytest
from playwright.async_api import Browser, Page

from domain import match as m
from domain.kernel import get_game
from services import compose
from services.gateway import tables
from services.gateway.stack import Stack
from tests.browser.conftest import (
    SCREENSHOTS,
    add_a_bot_and_start,
    match_of,
    quick_play,
    signed_in_page,
)

pytestmark = pytest.mark.browser


async def shown_version(page: Page) -> int:
    found = re.search(r"version (\d+)", await page.inner_text(".panel.status"))
    assert found, "the status panel shows the version"
    return int(found.group(1))


async def status_of(page: Page) -> str:
    return await page.inner_text(".panel.status")


async def click_a_move(page: Page, rng: random.Random) -> bool:
    """Click one of the offered moves (a button, or a form's Play); False if none."""
    buttons = page.locator("#actions .choice button.move")
    forms = page.locator("#actions form.command-form")
    n, f = await buttons.count(), await forms.count()
    if n + f == 0:
        return False
    pick = rng.randrange(n + f)
    before = await shown_version(page)
    if pick < n:
        await buttons.nth(pick).click()
    else:
        await forms.nth(pick - n).locator("button[type=submit]").click()
    # The push of what the move did, or a rejection (a stale button) in the notice.
    await page.wait_for_function(
        "v => !document.querySelector('#notice').hidden"
        " || !/version "
        + str(before)
        + r"\b/.test(document.querySelector('.panel.status').innerText)",
        arg=before,
        timeout=30_000,
    )
    return True


async def assert_no_hidden_card(stack: Stack, page: Page, match_id: str, seat: int | None) -> None:
    """The page's HTML names no component the seat may not identify at the version the
    page shows."""
    # One read of the page, so the HTML, the text and the version are of one moment.
    html, text, status = await page.evaluate(
        "() => [document.documentElement.outerHTML, document.body.innerText,"
        " document.querySelector('.panel.status').innerText]"
    )
    found_version = re.search(r"version (\d+)", status)
    assert found_version
    version = int(found_version.group(1))
    store = compose.event_store(stack.settings, stack.redis)
    found = await tables.recorded(store, match_id)
    assert found is not None
    state = found.state_at(version)
    if state.status == "lobby":
        return
    game = get_game(state.game)
    for component in game.hidden(state.game_state, seat):
        at = html.find(component)
        assert at < 0, (
            f"seat {seat} sees {component} at version {version}: {html[at - 300 : at + 80]}"
        )
        pretty = re.sub(r"^[a-z]{2,3}-", "", component).replace("-", " ").replace("_", " ")
        assert not re.search(rf"\b{re.escape(pretty)}\b", text), (seat, component, version)


async def test_two_people_quick_play_chicken_to_the_end_reload_and_replay(
    stack: Stack, browser: Browser
) -> None:
    ann = await signed_in_page(browser, stack.url, "Ann")
    bea = await signed_in_page(browser, stack.url, "Bea")
    await quick_play(ann, "chicken", 2)
    # Bea's lobby lists Ann's table; the form offers Chicken!'s option.
    await bea.select_option("#create-game", "chicken")
    await bea.click("text=Refresh tables")
    await bea.wait_for_selector("text=Sit down")
    assert await bea.locator("fieldset.options input[name=eggspansion]").count() == 1
    await bea.screenshot(path=str(SCREENSHOTS / "lobby.png"), full_page=True)
    await quick_play(bea, "chicken", 2)
    assert match_of(ann) == match_of(bea)
    rng = random.Random(3)
    await ann.wait_for_selector("text=playing")
    reloaded = False
    for turn in range(600):
        if "finished" in await status_of(ann) and "finished" in await status_of(bea):
            break
        moved = [await click_a_move(p, rng) for p in (ann, bea)]
        if not any(moved):
            await ann.wait_for_timeout(100)
        if turn == 6 and not reloaded:
            await ann.screenshot(path=str(SCREENSHOTS / "table-chicken.png"), full_page=True)
            # Ann reloads mid-match and carries on from where the table is.
            before = await shown_version(ann)
            await ann.reload()
            await ann.wait_for_selector(".live.on")
            assert await shown_version(ann) >= before
            reloaded = True
    else:
        raise AssertionError("the match did not end")
    assert reloaded
    assert "rank 1" in await ann.inner_text(".outcome")
    history = await ann.inner_text("#history")
    assert "The match is over" in history
    # The history after the reload has every line once.
    versions = await ann.eval_on_selector_all(
        "#history li", "els => els.map(e => e.dataset.version)"
    )
    assert len(versions) == len(set(versions))
    # Back in the lobby, Bea finds the match among her tables and in her ratings (once
    # the projectors have folded it: she looks again), and both players on the board,
    # her own row marked.
    for _ in range(60):
        await bea.goto(stack.url)
        await bea.wait_for_selector("#my-ratings li")
        await bea.wait_for_selector("#my-tables li")
        finished = await bea.locator("#my-tables li[data-status=finished]").count()
        if finished and "Chicken!" in await bea.inner_text("#my-ratings"):
            break
        await bea.wait_for_timeout(500)
    replay = bea.locator("#my-tables li[data-status=finished] a")
    assert await replay.get_attribute("href") == f"/replay?match={match_of(ann)}"
    await bea.wait_for_function(
        "() => document.querySelectorAll('#standings tbody tr').length == 2"
    )
    assert "Bea" in await bea.locator("#standings tr.mine").inner_text()
    # The replay, stepped through.
    await ann.click("text=Open the replay")
    await ann.wait_for_selector("#sentence")
    assert "version 1 of" in await ann.inner_text("#at")
    for expected in (2, 3, 4):
        await ann.click("#next")
        await ann.wait_for_function(
            "v => document.querySelector('#at').textContent.startsWith('version ' + v + ' ')",
            arg=expected,
        )
    assert "The match started" in await ann.inner_text("#sentence")
    await ann.click("#last")
    await ann.wait_for_function("() => /finished/.test(document.body.innerText)")
    await ann.screenshot(path=str(SCREENSHOTS / "replay.png"), full_page=True)
    assert not ann.errors and not bea.errors  # type: ignore[attr-defined]


async def test_a_love_letter_round_of_three_with_a_bot_shows_no_seat_anothers_card(
    stack: Stack, browser: Browser
) -> None:
    ann = await signed_in_page(browser, stack.url, "Ann")
    bea = await signed_in_page(browser, stack.url, "Bea", width=390)  # a phone's width
    await quick_play(ann, "loveletter", 3)
    await quick_play(bea, "loveletter", 3)
    match_id = match_of(ann)
    assert match_of(bea) == match_id
    await add_a_bot_and_start(ann)  # the bot takes seat 3
    rng = random.Random(5)
    for _ in range(300):
        for seat, page in enumerate((ann, bea)):
            await assert_no_hidden_card(stack, page, match_id, seat)
        history = await ann.inner_text("#history")
        if "The round ends" in history:
            break
        moved = [await click_a_move(p, rng) for p in (ann, bea)]
        if not any(moved):
            await ann.wait_for_timeout(100)
    else:
        raise AssertionError("the round did not end")
    await ann.screenshot(path=str(SCREENSHOTS / "table-loveletter.png"), full_page=True)
    await bea.screenshot(path=str(SCREENSHOTS / "table-loveletter-phone.png"), full_page=True)


async def test_a_board_game_table_is_drawn_and_playable(stack: Stack, browser: Browser) -> None:
    ann = await signed_in_page(browser, stack.url, "Ann")
    await quick_play(ann, "trektwelve", 2)
    await add_a_bot_and_start(ann)
    await ann.wait_for_selector("#actions button.move, #actions form.command-form")
    assert await click_a_move(ann, random.Random(1))
    await ann.screenshot(path=str(SCREENSHOTS / "table-trektwelve.png"), full_page=True)


# What each game's table calls a seat, as the labels read on the page: none may show a
# bare number (the JSON's 0-based seat); each shows a name. Written from the games'
# state and view docs, not from the renderer's rules.
SEAT_LABELS = {
    "player",
    "holder",
    "winner",
    "winners",
    "you",
    "reader",
    "starter",
    "next round starter",
    "turn",
    "to act",
    "current",
    "emptier",
    "owner",
    "dealer",
    "token holder",
    "went out",
    "overfilled",
    "initiator",
    "resolver",
    "declared",
    "seat",
    "conceded",
}
NOT_A_SEAT = {"aero": {"turn"}}  # Aero's turn counts turns


async def seat_labels_shown(page: Page) -> list[tuple[str, str]]:
    found: list[list[str]] = await page.eval_on_selector_all(
        "#view dl.facts > dt",
        "dts => dts.filter(dt => !dt.nextElementSibling.querySelector('dl'))"
        ".map(dt => [dt.textContent, dt.nextElementSibling.innerText])",
    )
    return [(k, v) for k, v in found]  # the leaves: a nested panel is checked by its own


# The games of domain/games (tests register small games of their own besides).
GAMES = sorted(
    p.parent.name for p in (Path(__file__).parents[2] / "domain" / "games").glob("*/__init__.py")
)


async def components_shown_by_name(page: Page, game: str) -> None:
    """Each card on the table reads as the game names it ("Chaka (Mercury, Animod)"),
    not as its id ("agent 01")."""
    box = get_game(game).components
    if box is None:
        return
    names = box()
    chips = await page.evaluate(
        "() => [...document.querySelectorAll('.card[data-id]')]"
        ".map(c => [c.dataset.id, c.innerText.trim()])"
    )
    named = [(cid, text) for cid, text in chips if cid in names]
    assert all(text == names[cid] for cid, text in named), f"{game}: {named[:5]}"
    if game == "zenith":
        assert named, "Ann holds Agent cards"


@pytest.mark.quickplay_wait(1.5)
@pytest.mark.parametrize("game", GAMES)
async def test_every_games_table_shows_seats_by_name_never_by_the_jsons_number(
    stack: Stack, browser: Browser, game: str
) -> None:
    ann = await signed_in_page(browser, stack.url, "Ann")
    rules = get_game(game)
    await quick_play(ann, game, max(rules.min_players, min(3, rules.max_players)))
    # Nobody else comes: the quick-play wait runs out and bots take the seats.
    await ann.wait_for_selector("text=playing")
    rng = random.Random(7)
    for moves in range(4):
        shown = await seat_labels_shown(ann)
        wrong = [
            (label, text)
            for label, text in shown
            if label in SEAT_LABELS - NOT_A_SEAT.get(game, set()) and re.search(r"\b\d+\b", text)
        ]
        assert not wrong, f"{game}: seats shown as numbers: {wrong}"
        await ann.wait_for_function(
            "() => document.querySelector('#actions button.move, #actions form.command-form')"
            " || /finished/.test(document.querySelector('.panel.status').innerText)"
        )
        if moves == 1:
            await ann.screenshot(path=str(SCREENSHOTS / f"game-{game}.png"), full_page=True)
            await components_shown_by_name(ann, game)
        if not await click_a_move(ann, rng):
            break
    assert not ann.errors  # type: ignore[attr-defined]


@pytest.mark.quickplay_wait(1.5)
async def test_each_hand_and_wall_sits_in_its_players_panel(stack: Stack, browser: Browser) -> None:
    """Gallery Gambit's view holds every hand and every wall, one per seat (`BySeat`): the
    page draws each under its player's name, mine face up and the others face down."""
    ann = await signed_in_page(browser, stack.url, "Ann")
    await quick_play(ann, "gallerygambit", 3)
    await ann.wait_for_selector("text=playing")  # bots took the two seats left
    match_id = match_of(ann)
    await ann.wait_for_selector('.seat[data-seat="0"] .card[data-id]')
    store = compose.event_store(stack.settings, stack.redis)
    # The bots play on: read the page and the match at one version.
    for _ in range(20):
        version = await shown_version(ann)
        shown = await ann.evaluate(
            """() => [...document.querySelectorAll('.panel.seats .seat')].map(p => [
              p.querySelector('h3').innerText,
              [...p.querySelectorAll('.card[data-id]')].map(c => c.dataset.id).sort(),
              p.querySelectorAll('.card.back').length])"""
        )
        if await shown_version(ann) == version:
            break
    found = await tables.recorded(store, match_id)
    assert found is not None
    state = found.state_at(version)
    hands = state.game_state.hands
    # What seat 0 may know of each hand: its own, and the cards seen taken from the market.
    known = msgspec.to_builtins(m.view(state, 0))["table"]["hands"]
    assert len(shown) == 3
    assert shown[0][0].startswith("Ann (you)")
    assert shown[0][1] == sorted(hands[0]) and shown[0][2] == 0  # mine, face up in my panel
    for seat in (1, 2):  # theirs in theirs: what I saw taken face up, the rest face down
        assert shown[seat][1] == sorted(c for c in known[seat] if c is not None)
        assert (
            shown[seat][2]
            == sum(c is None for c in known[seat])
            == len(hands[seat]) - len(shown[seat][1])
        )
    # The per-seat lists left the table's own panel.
    table_terms = await ann.locator(".panel.table > dl.facts > dt").all_inner_texts()
    assert "hands" not in table_terms and "walls" not in table_terms
    await assert_no_hidden_card(stack, ann, match_id, 0)


@pytest.mark.quickplay_wait(1.5)
async def test_a_spectator_is_told_they_watch_and_sees_no_hidden_card(
    stack: Stack, browser: Browser
) -> None:
    ann = await signed_in_page(browser, stack.url, "Ann")
    await quick_play(ann, "loveletter", 3)
    await ann.wait_for_selector("text=playing")  # bots took the two seats left
    match_id = match_of(ann)
    sam = await signed_in_page(browser, stack.url, "Sam")
    await sam.goto(f"{stack.url}/table?match={match_id}")
    await sam.wait_for_selector(".live.on")
    assert await sam.inner_text("#actions h2") == "Watching"
    assert await sam.locator("#actions button.move").count() == 0
    await sam.wait_for_selector("#waiting >> text=You are watching")
    await assert_no_hidden_card(stack, sam, match_id, None)
    assert sam.errors == []  # type: ignore[attr-defined]
