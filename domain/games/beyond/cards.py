"""The cards and tokens of Beyond, and the numbers the rules count with: data only.

Sources: seed 002 line 1239 ("Gamehelpbeyond", 2025-06-12) and rules-batch2.md, "13. Beyond".
"""

from __future__ import annotations

from typing import Final, Literal

CardId = str
Spirit = Literal["turtle_snake", "vermilion_bird", "azure_dragon", "metal_tiger", "yellow_unicorn"]
Symbol = Literal["yin", "yang"]

SPIRITS: Final[tuple[Spirit, ...]] = (
    "turtle_snake",
    "vermilion_bird",
    "azure_dragon",
    "metal_tiger",
    "yellow_unicorn",
)
SPIRIT_NAMES: Final[dict[Spirit, str]] = {
    "turtle_snake": "Turtle Snake",
    "vermilion_bird": "Vermilion Bird",
    "azure_dragon": "Double Azure Dragon",
    "metal_tiger": "Double Metal Tiger",
    "yellow_unicorn": "Yellow Unicorn",
}
COLOUR: Final[dict[Spirit, str]] = {
    "turtle_snake": "blue",
    "vermilion_bird": "red",
    "azure_dragon": "green",
    "metal_tiger": "purple",
    "yellow_unicorn": "yellow",
}
PER_SPIRIT: Final = 16
"""80 Celestial Spirit cards: five spirits (colours) of 16."""
YIN_PER_SPIRIT: Final = 8
"""ASSUMPTION: 8 Yin and 8 Yang cards per colour (cards 01-08 Yin, 09-16 Yang)."""


def _symbol(number: int) -> Symbol:
    return "yin" if number <= YIN_PER_SPIRIT else "yang"


CARDS: Final[dict[CardId, tuple[Spirit, Symbol]]] = {
    f"by-{COLOUR[spirit]}-{n:02d}": (spirit, _symbol(n))
    for spirit in SPIRITS
    for n in range(1, PER_SPIRIT + 1)
}
"""Each card: the spirit on its spirit side, and its one Yin/Yang symbol, shown on the
capture side and in the spirit side's corner (ASSUMPTION: one symbol per card)."""

NIAN_SHOU: Final[tuple[CardId, ...]] = tuple(f"by-nian-{n}" for n in range(1, 7))
"""The six Nian Shou cards, in the centre of the table at the start."""

HAND_SIZE: Final = 4
STARTING_LOTUS: Final = 2
LOTUS_TOKENS: Final = 30
"""ASSUMPTION: 30 Lotus tokens in all; each player takes 2, the rest is the supply."""
STOCK_SLOTS: Final = 4
"""A Stock card holds at most 4 capture cards."""
MAX_REVEALED: Final = 5
"""At most 5 cards are revealed in one turn."""
PATTERN_SIZE: Final = 4
"""An enchanted spirit is a pattern of 4 spirit-side cards of its colour."""
ENCHANTED_SPIRITS_TO_END: Final = 3
NIAN_SHOU_TO_WIN: Final = 6

ENCHANTED_POINTS: Final[dict[Spirit, int]] = {
    "turtle_snake": 6,
    "vermilion_bird": 6,
    "azure_dragon": 9,
    "metal_tiger": 9,
    "yellow_unicorn": 12,
}
SPARE_SPIRIT_POINTS: Final = 1
NIAN_SHOU_POINTS: Final = 1
CAPTURE_CARD_POINTS: Final = 1
LOTUS_POINTS: Final = 1

TURTLE_SNAKE_LOOK: Final = 4
"""Summoning the Turtle Snake: choose 1 of the top 4 cards."""
AZURE_DRAGON_LOOK: Final = 2
"""Summoning the Double Azure Dragon: pick 1 of the top 2 cards."""


def spirit_of(card: CardId) -> Spirit:
    return CARDS[card][0]


def symbol_of(card: CardId) -> Symbol:
    return CARDS[card][1]
