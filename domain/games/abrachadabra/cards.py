"""The magic cards of the four piles, the diplomas of day and night, the feather: data only.

Sources: the seed page (seed 002 line 1996, "Gamehelpabrachadabra", 2025-05-02) names the
card kinds and the four piles; rules-batch2.md section 10 gives the diplomas (day 4-8,
night 3-11, odd). The mix of each pile is not published anywhere we could read: the
four mixes below are house-made (ASSUMPTION), printed on the backs so every player
knows them.
"""

from __future__ import annotations

from typing import Final, Literal

CardId = str
PileName = Literal["burrow", "moonlight", "cauldron", "library"]
Kind = Literal["rabbit", "cat", "wool", "potion", "grimoire"]
Time = Literal["day", "night"]

PILES: Final[tuple[PileName, ...]] = ("burrow", "moonlight", "cauldron", "library")
"""The four piles of magic cards; the names are ours (the page only counts them)."""

MIX: Final[dict[PileName, tuple[tuple[str, int], ...]]] = {
    # (face, how many): a face is a kind, "rabbit1".."rabbit3" for one to three rabbits.
    "burrow": (("rabbit1", 9), ("rabbit2", 3), ("wool", 1), ("cat", 1), ("potion", 1)),
    "moonlight": (("rabbit1", 2), ("rabbit2", 3), ("rabbit3", 4), ("cat", 5), ("grimoire", 1)),
    "cauldron": (("rabbit1", 3), ("rabbit2", 2), ("cat", 2), ("wool", 4), ("potion", 4)),
    "library": (
        ("rabbit1", 4),
        ("rabbit2", 3),
        ("rabbit3", 2),
        ("cat", 2),
        ("potion", 1),
        ("grimoire", 3),
    ),
}
"""Fifteen cards a pile (ASSUMPTION, house-made): a safe pile of single rabbits, a
risky one of big rabbits and cats, a brewing one of potions and wool balls, and the
library with most of the grimoires."""


def _cards() -> dict[CardId, tuple[PileName, str]]:
    out: dict[CardId, tuple[PileName, str]] = {}
    for pile in PILES:
        n = 0
        for face, count in MIX[pile]:
            for _ in range(count):
                n += 1
                out[f"ab-{pile}-{n:02d}-{face}"] = (pile, face)
    return out


CARDS: Final[dict[CardId, tuple[PileName, str]]] = _cards()
"""Every card by id ("ab-burrow-03-rabbit1"): its pile (its back) and its face."""

PILE_OF: Final[dict[CardId, PileName]] = {card: pile for card, (pile, _) in CARDS.items()}
FACES: Final[dict[str, tuple[Kind, int]]] = {
    "rabbit1": ("rabbit", 1),
    "rabbit2": ("rabbit", 2),
    "rabbit3": ("rabbit", 3),
    "cat": ("cat", 0),
    "wool": ("wool", 0),
    "potion": ("potion", 0),
    "grimoire": ("grimoire", 0),
}
"""Each face: its kind and the rabbits it shows (ASSUMPTION: one to three)."""
KIND_OF: Final[dict[CardId, Kind]] = {card: FACES[face][0] for card, (_, face) in CARDS.items()}
RABBITS: Final[dict[CardId, int]] = {card: FACES[face][1] for card, (_, face) in CARDS.items()}

FEATHER: Final = "ab-feather"
"""The one feather: whoever draws a grimoire takes it, from the supply or from a player."""
FEATHER_POINTS: Final = 3
CAT_POINTS: Final = 1
CATS_TO_LOSE: Final = 3
"""Rule: three black cats not taken up by wool balls lose the exam."""

DIPLOMAS: Final[dict[Time, tuple[int, ...]]] = {
    "day": (4, 5, 6, 7, 8),
    "night": (3, 5, 7, 9, 11),
}
"""One diploma of each value per exam; a diploma is worth its value in points."""

FIRST_TIME: Final[Time] = "day"
NEXT_TIME: Final[dict[Time, Time]] = {"day": "night", "night": "day"}

WINNING_POINTS: Final = 22
"""Rule (page): the game ends when a player has more than 22 points."""
