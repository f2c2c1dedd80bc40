"""The Visions deck (data). No public source gives the card list: rules-batch2.md §8
proposes 6 environments (colours) × 6 categories (symbols) × 2 copies = 72 cards, the
copies being what makes an Echo possible. Ids: `vi-<colour>-<symbol>-<copy>`."""

from __future__ import annotations

import msgspec

CardId = str

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple", "pink")
SYMBOLS: tuple[str, ...] = ("moon", "star", "key", "eye", "feather", "shell")
COPIES = 2


class Card(msgspec.Struct, frozen=True):
    colour: str
    symbol: str


CARDS: dict[CardId, Card] = {
    f"vi-{colour}-{symbol}-{copy}": Card(colour, symbol)
    for colour in COLOURS
    for symbol in SYMBOLS
    for copy in range(1, COPIES + 1)
}

HAND_SIZE = 3
RIVER_SIZE = 5
DREAMS = 2
TRACK_END = 10
"""The Reflection Track's last space (Wake-up): reaching it wins at once."""
POINTS_PER_STEP = 1
