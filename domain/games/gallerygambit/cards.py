"""The deck and the gallery walls (house-made: the page names only the scoring).

Five suits (art media) of cards numbered 1 to 10, one card each: 50 cards, ids
`gg-oil-01` ... `gg-silk-10`.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Suit = Literal["oil", "ink", "clay", "glass", "silk"]
SUITS: tuple[Suit, ...] = ("oil", "ink", "clay", "glass", "silk")
CardId = str


class Card(msgspec.Struct, frozen=True):
    suit: Suit
    number: int


CARDS: dict[CardId, Card] = {
    "gg-oil-01": Card("oil", 1),
    "gg-oil-02": Card("oil", 2),
    "gg-oil-03": Card("oil", 3),
    "gg-oil-04": Card("oil", 4),
    "gg-oil-05": Card("oil", 5),
    "gg-oil-06": Card("oil", 6),
    "gg-oil-07": Card("oil", 7),
    "gg-oil-08": Card("oil", 8),
    "gg-oil-09": Card("oil", 9),
    "gg-oil-10": Card("oil", 10),
    "gg-ink-01": Card("ink", 1),
    "gg-ink-02": Card("ink", 2),
    "gg-ink-03": Card("ink", 3),
    "gg-ink-04": Card("ink", 4),
    "gg-ink-05": Card("ink", 5),
    "gg-ink-06": Card("ink", 6),
    "gg-ink-07": Card("ink", 7),
    "gg-ink-08": Card("ink", 8),
    "gg-ink-09": Card("ink", 9),
    "gg-ink-10": Card("ink", 10),
    "gg-clay-01": Card("clay", 1),
    "gg-clay-02": Card("clay", 2),
    "gg-clay-03": Card("clay", 3),
    "gg-clay-04": Card("clay", 4),
    "gg-clay-05": Card("clay", 5),
    "gg-clay-06": Card("clay", 6),
    "gg-clay-07": Card("clay", 7),
    "gg-clay-08": Card("clay", 8),
    "gg-clay-09": Card("clay", 9),
    "gg-clay-10": Card("clay", 10),
    "gg-glass-01": Card("glass", 1),
    "gg-glass-02": Card("glass", 2),
    "gg-glass-03": Card("glass", 3),
    "gg-glass-04": Card("glass", 4),
    "gg-glass-05": Card("glass", 5),
    "gg-glass-06": Card("glass", 6),
    "gg-glass-07": Card("glass", 7),
    "gg-glass-08": Card("glass", 8),
    "gg-glass-09": Card("glass", 9),
    "gg-glass-10": Card("glass", 10),
    "gg-silk-01": Card("silk", 1),
    "gg-silk-02": Card("silk", 2),
    "gg-silk-03": Card("silk", 3),
    "gg-silk-04": Card("silk", 4),
    "gg-silk-05": Card("silk", 5),
    "gg-silk-06": Card("silk", 6),
    "gg-silk-07": Card("silk", 7),
    "gg-silk-08": Card("silk", 8),
    "gg-silk-09": Card("silk", 9),
    "gg-silk-10": Card("silk", 10),
}

WALLS: tuple[int, ...] = (3, 3, 4)
"""Each player's gallery: three walls holding 3, 3 and 4 paintings."""
HAND_SIZE = 2
"""Cards dealt to each player's hand; a turn takes one and hangs one."""
MARKET_SIZE = 4
"""Face-up cards on offer beside the deck."""

# The page's scoring, points per card on a full wall, by category.
SUITED_RUN = 2
"""Page: "Matching suit in runs scores 2 each"."""
SAME_GROUP = 2
"""Page: "Cards of same suit scores 2 each" (read as the same number, see README)."""
PLAIN_RUN = 1
"""Page: "Plain run scores 1 each"."""
JUST_SAME_SUIT = 1
"""Page: "Just same suit scores 1 each"."""
