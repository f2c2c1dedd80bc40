"""Round scoring and the final ranking.

Rule (seed 002, Scoring): the player who went out scores 0; everyone else scores the
unmelded cards in hand: 2-10 face value, J 11, Q 12, K 13, A 15, an unusable wild 50.
ASSUMPTION (facts file): each hand is arranged by the table to leave the fewest points
(`melds.best_melding`), as a careful player would lay it down.
"""

from __future__ import annotations

from domain.kernel import Outcome, ranks_from_keys

from .cards import wild_rank_of
from .events import RoundScored, ScoredHand
from .melds import best_melding
from .state import State
from .table import active


def score_round(state: State) -> RoundScored:
    """Lay every hand still in play open and count it."""
    wild_rank = wild_rank_of(state.round)
    hands: list[ScoredHand] = []
    totals = list(state.totals)
    for seat in active(state):
        if seat == state.went_out:
            melds = tuple(tuple(m) for m in state.laid_down)
            hands.append(ScoredHand(seat=seat, melds=melds, deadwood=(), points=0))
            continue
        melding = best_melding(state.hands[seat], wild_rank, state.options.wild_melds)
        hands.append(
            ScoredHand(
                seat=seat, melds=melding.melds, deadwood=melding.deadwood, points=melding.points
            )
        )
        totals[seat] += melding.points
    return RoundScored(
        round=state.round, went_out=state.went_out, hands=tuple(hands), totals=tuple(totals)
    )


def outcome(state: State) -> Outcome | None:
    """Rule (seed 002, Winning): the lowest total after the last round wins; ties share.

    Players who conceded rank below everyone still playing, the earliest to leave last.
    """
    if state.phase != "game_over":
        return None
    keys = []
    for seat, total in enumerate(state.totals):
        if seat in state.conceded:
            keys.append((0, state.conceded.index(seat), -total))
        else:
            keys.append((1, 0, -total))
    return Outcome(scores=tuple(state.totals), ranks=ranks_from_keys(keys))
