"""The 100 Yokai cards, the two offering piles and the round counts: data only.

Source: rules-batch2.md, "Yokai Pagoda" (the seed page is only a picture).
"""

from __future__ import annotations

from typing import Final, Literal

CardId = str
Kind = str
Pile = Literal["left", "right"]

KINDS: Final[tuple[Kind, ...]] = (
    "kappa",
    "kitsune",
    "tanuki",
    "tengu",
    "oni",
    "yurei",
    "bakeneko",
    "rokurokubi",
    "karakasa",
    "nue",
)
"""Ten Yokai, told apart by art and colour; these names are ours (ASSUMPTION)."""

VALUES: Final[tuple[int, ...]] = tuple(range(1, 11))

CARDS: Final[tuple[CardId, ...]] = tuple(
    f"yp-{kind}-{value:02d}" for kind in KINDS for value in VALUES
)
KIND_OF: Final[dict[CardId, Kind]] = {f"yp-{k}-{v:02d}": k for k in KINDS for v in VALUES}
VALUE_OF: Final[dict[CardId, int]] = {f"yp-{k}-{v:02d}": v for k in KINDS for v in VALUES}

PILES: Final[tuple[Pile, ...]] = ("left", "right")
"""The two offering piles either side of the Pagoda deck."""
OTHER_PILE: Final[dict[Pile, Pile]] = {"left": "right", "right": "left"}

HAND_SIZE: Final = 7
END_LIMIT: Final = 3
"""Rule: a lower card lets you end the round if your hand is worth 3 or less."""

ROUNDS: Final[dict[int, int]] = {2: 4, 3: 3, 4: 3, 5: 3}
"""Three rounds, four with two players (boardseyeview review)."""
