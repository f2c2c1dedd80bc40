"""Easy Peasy's number cards, and the table's fixed sizes, as data.

Every guess lives in this file (rules-batch2.md, Easy Peasy): correct it here.
"""

from __future__ import annotations

from typing import Literal

Colour = Literal["red", "yellow", "green", "blue", "purple", "orange"]
COLOURS: tuple[Colour, ...] = ("red", "yellow", "green", "blue", "purple", "orange")
"""Six colours of ten cards (sourced). ASSUMPTION: their names, and that the last ones
listed are the colours put back in the box for fewer players."""

VALUES: tuple[int, ...] = tuple(range(1, 11))
"""ASSUMPTION: each colour holds one card of each value 1 to 10."""

Pile = Literal["left", "right"]
PILES: tuple[Pile, ...] = ("left", "right")

Arrow = Literal["up", "down"]

ROW_STACKS = 2
"""Each row: two face-down cards, each covered by one face-up card."""
HAND_SIZE = 4
DRAW_SIZE = 2


def colours_for(seats: int) -> tuple[Colour, ...]:
    """Sourced: 2-3 players use 4 colours (40 cards), 4 players 5 (50), 5-6 players all 6."""
    count = 4 if seats <= 3 else 5 if seats == 4 else 6
    return COLOURS[:count]


def card_id(colour: Colour, value: int) -> str:
    """The component id of one card: "ep-red-5"."""
    return f"ep-{colour}-{value}"


def deck_for(seats: int) -> tuple[str, ...]:
    return tuple(card_id(colour, value) for colour in colours_for(seats) for value in VALUES)


COLOUR_OF: dict[str, Colour] = {
    card_id(colour, value): colour for colour in COLOURS for value in VALUES
}
VALUE_OF: dict[str, int] = {card_id(colour, value): value for colour in COLOURS for value in VALUES}
