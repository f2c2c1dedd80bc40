"""Pair points, the 5/15 token, the end of a round and the final ranking.

Rules (seed 002, Scoring): a pair scores the sum of its two numbers, doubled when colour
and number both match. The first player to make a fourth pair takes the 5/15 token (5 up);
if the holder makes a fifth pair it flips to 15. These scores go to the player's total.
ASSUMPTION (facts file): the token is worth its face to its holder at the round's end and
goes back to the middle for the next round.
"""

from __future__ import annotations

from typing import Literal

from domain.kernel import Outcome, ranks_from_keys

from .cards import DOUBLE, TARGET, TOKEN_HIGH, TOKEN_LOW, CardId, colour_of, number_of
from .events import RoundScored
from .state import State


def pair_points(hand_card: CardId, common_card: CardId) -> tuple[int, bool]:
    """The pair's score, and whether it was doubled for matching colour and number."""
    both = colour_of(hand_card) == colour_of(common_card) and number_of(hand_card) == number_of(
        common_card
    )
    points = number_of(hand_card) + number_of(common_card)
    return (points * DOUBLE, True) if both else (points, False)


def score_round(state: State, reason: Literal["fifth_pair", "stalemate"]) -> RoundScored:
    value = 0
    if state.token_holder is not None:
        value = TOKEN_HIGH if state.token_flipped else TOKEN_LOW
    totals = [
        total + points for total, points in zip(state.totals, state.round_points, strict=True)
    ]
    if state.token_holder is not None:
        totals[state.token_holder] += value
    return RoundScored(
        round=state.round,
        reason=reason,
        points=tuple(state.round_points),
        token_holder=state.token_holder,
        token_value=value,
        totals=tuple(totals),
    )


def game_ends(totals: tuple[int, ...] | list[int]) -> bool:
    """Rule (seed 002): the game ends when someone has more than 200 at a round's end."""
    return any(total > TARGET for total in totals)


def outcome(state: State) -> Outcome | None:
    """The highest total wins; ties share (ASSUMPTION). The conceded rank below the rest."""
    if state.phase != "game_over":
        return None
    keys = []
    for seat, total in enumerate(state.totals):
        if seat in state.conceded:
            keys.append((0, state.conceded.index(seat), total))
        else:
            keys.append((1, 0, total))
    return Outcome(scores=tuple(state.totals), ranks=ranks_from_keys(keys))
