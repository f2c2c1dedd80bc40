"""The tiles of Gatsby: characters, Cabaret tiles and Special Action tiles (data only).

Sources: seed 002 line 1337 ("Gamehelpgatsby", 2025-06-12) and rules-batch2.md, "14. Gatsby".
The page names the components and their counts; the suits, prestige values, circle layouts
and the eleven special tiles' effects are house-made (see the README).
"""

from __future__ import annotations

from typing import Final, Literal

TileId = str
Suit = Literal["flapper", "tycoon", "bootlegger", "starlet", "aviator"]
SpecialKind = Literal["cabaret_three", "influence_swap", "finance_and_race", "draw_and_choose"]

SUITS: Final[tuple[Suit, ...]] = ("flapper", "tycoon", "bootlegger", "starlet", "aviator")
PRESTIGE_BY_RANK: Final[tuple[int, ...]] = (1, 2, 3)
"""House-made: the three characters of a suit carry 1, 2 and 3 stars (prestige)."""

CHARACTERS: Final[dict[TileId, tuple[Suit, int]]] = {
    f"gb-{suit}-{stars}": (suit, stars) for suit in SUITS for stars in PRESTIGE_BY_RANK
}
"""15 Character tiles: 5 suits x 3."""

CABARET_TILES: Final[dict[TileId, tuple[tuple[int, int], ...]]] = {
    "gb-cabaret-a": ((0, 0), (0, 4), (2, 1), (2, 3)),
    "gb-cabaret-b": ((0, 1), (0, 3), (2, 0), (2, 4)),
    "gb-cabaret-c": ((0, 2), (1, 0), (1, 4), (2, 2)),
    "gb-cabaret-d": ((0, 2), (1, 1), (1, 3), (2, 2)),
}
"""House-made: each Cabaret tile shows the 4 circle spaces of one Cabaret section, as
(row, column) inside the section's 3 x 5 spaces."""

SPECIAL_TILES: Final[dict[TileId, SpecialKind]] = {
    "gb-special-01": "cabaret_three",
    "gb-special-02": "cabaret_three",
    "gb-special-03": "cabaret_three",
    "gb-special-04": "influence_swap",
    "gb-special-05": "influence_swap",
    "gb-special-06": "influence_swap",
    "gb-special-07": "finance_and_race",
    "gb-special-08": "finance_and_race",
    "gb-special-09": "finance_and_race",
    "gb-special-10": "draw_and_choose",
    "gb-special-11": "draw_and_choose",
}
"""11 Special Action tiles; their four kinds are the page's examples, the split house-made."""

SPECIAL_NAMES: Final[dict[SpecialKind, str]] = {
    "cabaret_three": "Place 3 tokens at the Cabaret",
    "influence_swap": "Swap Influence tokens with the opponent",
    "finance_and_race": "Advance in Finance and place in the Racetrack",
    "draw_and_choose": "Draw 2 Special Action tiles and choose one",
}
DRAW_AND_CHOOSE: Final = 2
"""Special Action tiles drawn by the second player at setup, and by `draw_and_choose`."""

INFLUENCE_TOKENS: Final = 20


def suit_of(character: TileId) -> Suit:
    return CHARACTERS[character][0]


def stars_of(character: TileId) -> int:
    return CHARACTERS[character][1]
