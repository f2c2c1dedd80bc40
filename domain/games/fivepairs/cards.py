"""The Five Pairs deck and the game's numbers, as data.

The rules page (seed 002, "Gamehelpfivepairs") names no components and no public
source describes them, so most of this module is ASSUMPTION (facts file, section 5).
Every guessed number lives here, so a correction is a one-line change.
"""

from __future__ import annotations

from typing import Final

CardId = str

# --- ASSUMPTIONS: the deck -----------------------------------------------------------------

COLOURS: Final = ("red", "yellow", "green", "blue", "purple")
"""ASSUMPTION: five colours (their names are ours)."""
NUMBERS: Final = tuple(range(1, 10))
"""ASSUMPTION: numbers 1 to 9 in every colour."""
COPIES: Final = ("a", "b")
"""ASSUMPTION: two copies of each card (a pair matching colour AND number needs them)."""

COMMON_AREA_START: Final = 5
"""ASSUMPTION: the common area starts each round with five face-up cards, and has no limit."""

# --- from the rules page -------------------------------------------------------------------

HAND_SIZE: Final = 2
"""Hands are drawn back up to 2 cards at the end of a turn (and dealt 2, ASSUMPTION)."""
DRAW_COUNT: Final = 2
"""Not pairing: draw two cards, then discard one to the common area."""
EXTRA_TURN_NUMBER: Final = 3
"""A pair of 3s gives another turn."""
TOKEN_PAIRS: Final = 4
"""The first player to make a fourth pair takes the 5/15 token, 5 side up."""
ROUND_PAIRS: Final = 5
"""A fifth pair ends the round; the token holder making it flips the token to 15."""
TOKEN_LOW: Final = 5
TOKEN_HIGH: Final = 15
TARGET: Final = 200
"""The game ends after a round in which someone has MORE than 200 points."""
DOUBLE: Final = 2
"""A pair matching both colour and number scores double."""


def card_id(colour: str, number: int, copy: str) -> CardId:
    return f"fp-{colour}{number}-{copy}"


CARDS: Final[dict[CardId, tuple[str, int]]] = {
    card_id(colour, number, copy): (colour, number)
    for copy in COPIES
    for colour in COLOURS
    for number in NUMBERS
}
"""Every card's id, with its colour and number."""

DECK: Final[tuple[CardId, ...]] = tuple(CARDS)


def colour_of(card: CardId) -> str:
    return CARDS[card][0]


def number_of(card: CardId) -> int:
    return CARDS[card][1]


def label(card: CardId) -> str:
    """A card as players say it: "red 7"."""
    colour, number = CARDS[card]
    return f"{colour} {number}"
