"""The Bubblees as data: colours, how many of each, where they start, what each power does."""

from __future__ import annotations

from typing import Literal

Colour = Literal["red", "purple", "yellow", "blue", "green", "black", "orange", "white"]
BaseColour = Literal["red", "purple", "yellow", "blue", "green"]

BASE_COLOURS: tuple[BaseColour, ...] = ("red", "purple", "yellow", "blue", "green")
"""The five colours of the base game that match and give powers."""

PER_COLOUR = 16
"""Bubblees of each colour in the box (black included)."""

IN_SKY_PER_COLOUR = 2
"""At setup two of each matching colour are laid out in the sky."""

BLACK_ON_EACH_PLANET: tuple[int, ...] = (0, 2, 4)
"""Columns of the bottom row where each player starts with a black Bubblee."""

BLACK_IN_BAG = 3
"""Black Bubblees mixed into the bag; the remaining ones stay in the box."""

LINE = 3
"""Three of a colour in a row or column make a match."""

UNMATCHABLE: tuple[Colour, ...] = ("black",)
"""Black never matches."""

POWERS: dict[Colour, str] = {
    "blue": "one Bubblee of the opponent's side of the sky falls onto your planet",
    "purple": "send one uncovered Bubblee of your planet to the opponent's planet",
    "yellow": "move one uncovered Bubblee of your planet to your scoring area",
    "red": "swap two adjacent Bubblees on the opponent's planet",
    "green": "swap two adjacent Bubblees on your planet",
    "orange": "take one uncovered Bubblee of the opponent's planet or scoring area",
    "white": "push a black Bubblee in at the bottom of one of the opponent's columns",
}


def bubblee_id(colour: Colour, number: int) -> str:
    """The id of one Bubblee: `bp-red-07` (numbers 01-16 within a colour)."""
    return f"bp-{colour}-{number:02d}"


def colour_of(bubblee: str) -> Colour:
    colour = bubblee.split("-")[1]
    assert colour in POWERS or colour == "black", bubblee
    return colour  # type: ignore[return-value]
