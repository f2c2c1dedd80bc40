"""The web table reads a field as a seat (and shows the player's name) when the game
annotates it `Seat`, or when its name says so (`player`, `winner`, `target`...). A
number named like a seat but counting something else was shown as one: EpiZodiak's
score target of 7 read "seat 8". So every field named like a seat that holds a number
must be annotated `Seat`, and the page's guess by name is never wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.kernel import games
from services.gateway import tables

RENDER = Path(tables.__file__).parent / "static" / "render.js"


def seat_named() -> re.Pattern[str]:
    """The page's own pattern, read from render.js so the two never drift apart."""
    found = re.search(r"const SEAT_NAMED = /(.+)/;", RENDER.read_text())
    assert found, "render.js names its seat pattern SEAT_NAMED"
    return re.compile(found.group(1))


# An annotation that holds a number and does not say `Seat` (`int`, `int | None`...).
A_NUMBER = re.compile(r"^(?!.*\bSeat\b).*\bint\b")


def numbers_named_like_seats(game: str) -> list[str]:
    pattern = seat_named()
    return [f for f in tables._fields_written_as(game, A_NUMBER) if pattern.search(f)]


@pytest.mark.parametrize("game", sorted(games()))
def test_a_number_named_like_a_seat_is_a_seat_and_says_so(game: str) -> None:
    assert numbers_named_like_seats(game) == []


def test_the_pattern_is_the_pages() -> None:
    assert seat_named().search("winner") and not seat_named().search("target_score")
