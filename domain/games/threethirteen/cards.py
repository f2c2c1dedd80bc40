"""The 108 cards: two standard 52-card decks and four jokers. Data only.

A natural card is written as a code, `suit * 13 + (rank - 1)`, so that the cards of one
suit sit together in rank order (ace = rank 1 ... king = rank 13). Jokers have no code.
"""

from __future__ import annotations

from typing import Final

CardId = str

SUITS: Final = ("c", "d", "h", "s")
SUIT_SIGNS: Final = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RANK_LABELS: Final = ("a", "2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "q", "k")
RANK_NAMES: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_PLURALS: Final = (
    "Aces", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "Jacks", "Queens", "Kings",
)  # fmt: skip
COPIES: Final = ("a", "b")  # one per deck
JOKERS: Final = 4

ROUNDS: Final = 11
"""Round r deals r + 2 cards, and cards of rank r + 2 are wild (3s in round 1 ... Kings in 11)."""

WILD_PENALTY: Final = 50
"""An unmelded wild card (joker or the round's wild rank) costs 50."""

ACE_PENALTY: Final = 15
"""An unmelded ace costs 15; J, Q and K cost 11, 12 and 13; 2-10 their face value."""


def natural_id(suit: str, rank: int, copy: str) -> CardId:
    return f"tt-{suit}{RANK_LABELS[rank - 1]}-{copy}"


def joker_id(number: int) -> CardId:
    return f"tt-joker-{number}"


NATURALS: Final[dict[CardId, int]] = {
    natural_id(suit, rank, copy): s * 13 + rank - 1
    for copy in COPIES
    for s, suit in enumerate(SUITS)
    for rank in range(1, 14)
}
"""Every natural card's id and its code."""

DECK: Final[tuple[CardId, ...]] = (
    *NATURALS,
    *(joker_id(n) for n in range(1, JOKERS + 1)),
)
"""All 108 cards in a fixed (unshuffled) order."""


def rank_of(code: int) -> int:
    return code % 13 + 1


def suit_of(code: int) -> int:
    return code // 13


def is_joker(card: CardId) -> bool:
    return card not in NATURALS


def is_wild(card: CardId, wild_rank: int) -> bool:
    """Jokers are always wild; so is every card of the round's wild rank."""
    code = NATURALS.get(card)
    return code is None or rank_of(code) == wild_rank


def penalty(code: int) -> int:
    """What an unmelded natural card costs."""
    rank = rank_of(code)
    return ACE_PENALTY if rank == 1 else rank


def label(card: CardId) -> str:
    """A card as players write it: "7♥", "Q♠", "Joker"."""
    code = NATURALS.get(card)
    if code is None:
        return "Joker"
    return f"{RANK_NAMES[rank_of(code) - 1]}{SUIT_SIGNS[SUITS[suit_of(code)]]}"


def wild_rank_of(round_number: int) -> int:
    return round_number + 2


def hand_size_of(round_number: int) -> int:
    return round_number + 2
