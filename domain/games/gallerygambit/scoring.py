"""The page's scoring: each full wall scores its cards by the best line it meets."""

from __future__ import annotations

from domain.games.gallerygambit.cards import (
    CARDS,
    JUST_SAME_SUIT,
    PLAIN_RUN,
    SAME_GROUP,
    SUITED_RUN,
    CardId,
)
from domain.games.gallerygambit.state import FirstLine, ScoreSheet, WallScore


def is_run(wall: list[CardId]) -> bool:
    """Consecutive numbers, in any hanging order (10 does not wrap to 1)."""
    numbers = sorted(CARDS[c].number for c in wall)
    return all(b == a + 1 for a, b in zip(numbers, numbers[1:], strict=False))


def one_suit(wall: list[CardId]) -> bool:
    return len({CARDS[c].suit for c in wall}) == 1


def one_number(wall: list[CardId]) -> bool:
    return len({CARDS[c].number for c in wall}) == 1


def wall_score(wall: list[CardId], first_line: FirstLine) -> WallScore:
    """The page's four lines, the best one met: a suited run 2 each, a same group 2 each
    (one number; or, read literally, one suit), a plain run 1 each, just one suit 1 each."""
    size = len(wall)
    if size > 1 and is_run(wall) and one_suit(wall):
        return WallScore("suited_run", SUITED_RUN * size)
    grouped = one_number(wall) if first_line == "same_number" else one_suit(wall)
    if size > 1 and grouped:
        return WallScore("same_group", SAME_GROUP * size)
    if size > 1 and is_run(wall):
        return WallScore("plain_run", PLAIN_RUN * size)
    if size > 1 and one_suit(wall):
        return WallScore("same_suit", JUST_SAME_SUIT * size)
    return WallScore("none", 0)


def score_sheet(walls: list[list[CardId]], first_line: FirstLine) -> ScoreSheet:
    scores = tuple(wall_score(wall, first_line) for wall in walls)
    return ScoreSheet(walls=scores, total=sum(s.points for s in scores))
