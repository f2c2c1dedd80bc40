"""The Scripta deck and hand (house-made: the page gives only how a game is won).

Numbers 1 to 9 written in four inks, one card each: 36 cards, ids `sc-1-black` ...
`sc-9-green`. The ink has no effect; it tells the copies apart.
"""

from __future__ import annotations

CardId = str

CARDS: dict[CardId, int] = {
    "sc-1-black": 1,
    "sc-1-red": 1,
    "sc-1-blue": 1,
    "sc-1-green": 1,
    "sc-2-black": 2,
    "sc-2-red": 2,
    "sc-2-blue": 2,
    "sc-2-green": 2,
    "sc-3-black": 3,
    "sc-3-red": 3,
    "sc-3-blue": 3,
    "sc-3-green": 3,
    "sc-4-black": 4,
    "sc-4-red": 4,
    "sc-4-blue": 4,
    "sc-4-green": 4,
    "sc-5-black": 5,
    "sc-5-red": 5,
    "sc-5-blue": 5,
    "sc-5-green": 5,
    "sc-6-black": 6,
    "sc-6-red": 6,
    "sc-6-blue": 6,
    "sc-6-green": 6,
    "sc-7-black": 7,
    "sc-7-red": 7,
    "sc-7-blue": 7,
    "sc-7-green": 7,
    "sc-8-black": 8,
    "sc-8-red": 8,
    "sc-8-blue": 8,
    "sc-8-green": 8,
    "sc-9-black": 9,
    "sc-9-red": 9,
    "sc-9-blue": 9,
    "sc-9-green": 9,
}
"""Each card's number."""

HAND_SIZE = 5
"""Cards in a hand between turns: a turn draws one and discards one."""

# The page's three ways to win, checked on a hand of HAND_SIZE cards.
SAME_NUMBER = 4
"""Page: 4 cards of the same number."""
STRAIGHT = 5
"""Page: a 5-number straight."""
TARGET_SUM = 35
"""Page: a total sum of 35 points or more."""
