"""Panda Panda's 32 lettered cards and its table of six winning hands, as data.

Every guess lives in this file (rules-batch2.md, Panda Panda): correct it here and
the rules, the README's table and the view follow.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Letter = Literal["A", "B", "C", "D", "E", "F", "G"]
LETTERS: tuple[Letter, ...] = ("A", "B", "C", "D", "E", "F", "G")

COPIES: dict[Letter, int] = {"A": 10, "B": 7, "C": 5, "D": 4, "E": 3, "F": 2, "G": 1}
"""Copies per letter. 10 A and a single G are sourced; B to F are an ASSUMPTION
(strictly decreasing, 32 cards in all)."""

PASSING_LETTER: Letter = "A"
"""Discarding this letter makes everyone pass a card left; it can never be taken back."""

HAND_SIZE = 5
"""Cards dealt to each player at the start of every round."""


class WinningHand(msgspec.Struct, frozen=True):
    """One line of the winning-hands table: the letters, sorted, and whether it is sourced."""

    letters: str
    sourced: bool


WINNING_HANDS: tuple[WinningHand, ...] = (
    WinningHand("DDD", sourced=True),
    WinningHand("AACCEE", sourced=True),
    WinningHand("BBCCDD", sourced=True),
    # ASSUMPTION: placeholders for the three unknown lines, none easier to hold than a
    # sourced one: longer than D-D-D and fewer ways to make it (3 against 4); as long as
    # the sourced pairs lines and fewer ways (945 against 1,260 and 1,350); longer than
    # any. (A lone G or F-F once won most rounds of random play: README, Win shares.)
    WinningHand("EEFF", sourced=False),
    WinningHand("AABBFF", sourced=False),
    WinningHand("AAAABBB", sourced=False),
)

WINNING_LETTERS: frozenset[str] = frozenset(hand.letters for hand in WINNING_HANDS)


def card_id(letter: Letter, copy: int) -> str:
    """The component id of one card: "pp-a-07" is the seventh A."""
    return f"pp-{letter.lower()}-{copy:02d}"


DECK: tuple[str, ...] = tuple(
    card_id(letter, copy) for letter in LETTERS for copy in range(1, COPIES[letter] + 1)
)

LETTER_OF: dict[str, Letter] = {
    card_id(letter, copy): letter for letter in LETTERS for copy in range(1, COPIES[letter] + 1)
}
