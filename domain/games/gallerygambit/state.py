"""The Gallery Gambit table: the deck (secret), the face-up market, each player's hand
(secret from the others) and gallery walls."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.gallerygambit.cards import CARDS, WALLS, CardId
from domain.kernel import Seat

Phase = Literal["setup", "take", "hang", "over"]
"""take: the player takes a card (market or deck); hang: hangs one from hand."""

FirstLine = Literal["same_number", "same_suit"]


class GalleryOptions(msgspec.Struct, forbid_unknown_fields=True):
    first_line: FirstLine = "same_number"
    """How to read the page's "Cards of same suit scores 2 each": a wall of one number
    (default; the page's last line already scores a one-suit wall), or literally a wall of
    one suit (then the last line never applies)."""


class WallScore(msgspec.Struct, frozen=True):
    category: Literal["suited_run", "same_group", "plain_run", "same_suit", "none"]
    points: int


class ScoreSheet(msgspec.Struct, frozen=True):
    walls: tuple[WallScore, ...]
    total: int


class Table(msgspec.Struct):
    seats: int
    options: GalleryOptions
    deck: list[CardId]
    """Sorted; cards are drawn at random, so which is on top is unknown to all."""
    market: list[CardId]
    hands: list[list[CardId]]
    walls: list[list[list[CardId]]]
    """walls[seat][wall]: the cards hung there, in hanging order."""
    seen: list[CardId] = []
    """Cards in hands that everyone saw taken from the market (sorted)."""
    phase: Phase = "setup"
    player: Seat = 0
    conceded: list[Seat] = []
    sheets: list[ScoreSheet] = []


def initial(options: GalleryOptions, seats: int) -> Table:
    return Table(
        seats=seats,
        options=options,
        deck=sorted(CARDS),
        market=[],
        hands=[[] for _ in range(seats)],
        walls=[[[] for _ in WALLS] for _ in range(seats)],
    )
