"""A display name is something every player can read, and never passes for another:
hidden characters go, spaces fold, and "You" is the table's own word for each reader."""

from __future__ import annotations

import httpx
import pytest

from services.gateway.tokens import BadName, display_name
from tests.gateway.conftest import SECRET


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("  Ann  ", "Ann"),
        ("Ann\nBea", "Ann Bea"),  # a line break would split a sentence in two
        ("Ann\u200b", "Ann"),  # zero-width: "Ann" twice, two players
        ("\u202eAnn", "Ann"),  # right-to-left override: would turn the sentence around
        ("a\x00b\x1b[31m", "ab[31m"),
        ("Ａｎｎ", "Ann"),  # full-width letters are letters
        ("Zoë 🐔", "Zoë 🐔"),
        ("🐔", "🐔"),
    ],
)
def test_a_name_is_shown_as_it_reads(given: str, shown: str) -> None:
    assert display_name(given) == shown


@pytest.mark.parametrize("given", ["   ", "\u200b", "\u202e\u202c", "...", "\x07"])
def test_a_name_with_nothing_to_read_is_refused(given: str) -> None:
    with pytest.raises(BadName, match="at least one letter"):
        display_name(given)


@pytest.mark.parametrize("given", ["You", "you", " YOU ", "Ｙｏｕ", "Yo\u200bu"])
def test_nobody_is_named_you(given: str) -> None:
    with pytest.raises(BadName, match="what the table calls each reader"):
        display_name(given)


async def test_both_sign_ins_keep_the_name_readable(http: httpx.AsyncClient) -> None:
    dev = await http.post("/api/signin/dev", json={"name": "Ann\u200b\u202e"})
    assert dev.status_code == 200
    assert (dev.json()["name"], dev.json()["player_id"]) == ("Ann", "dev-ann")
    platform = await http.post(
        "/api/signin",
        json={"player_id": "p-7", "name": " Bea\n"},
        headers={"x-gateway-secret": SECRET},
    )
    assert platform.json()["name"] == "Bea"
    for answer in (
        await http.post("/api/signin/dev", json={"name": "you"}),
        await http.post(
            "/api/signin",
            json={"player_id": "p-8", "name": "\u200b"},
            headers={"x-gateway-secret": SECRET},
        ),
    ):
        assert answer.status_code == 400
        assert "name" in answer.json()["detail"]
