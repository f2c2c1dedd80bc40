"""The three technology boards, each double-sided, five levels (rules-batch1.md §3).

Advancing to a level costs that level in Zenithium and gives the effects of that level
and every level below it. Level 2 of each board holds a bonus token for the first
player to arrive there; the row bonus gives 1/2/3 influence the first time all three of
a player's tracks reach level 1/2/3.
"""

from __future__ import annotations

from domain.games.zenith.effects import (
    Cost,
    Credits,
    Effect,
    EveryPlanet,
    ExileOpponent,
    Faction,
    Influence,
    Mobilize,
    Neighbours,
    Optional,
    Sacrifice,
    Steal,
    TakeBadge,
    TakeBonus,
    Transfer,
)

LEVELS = 5
BONUS_LEVEL = 2
ROW_BONUS_LEVELS = (1, 2, 3)
"""Row bonus: all three tracks at one of these levels gives that much influence."""

MOBILIZE_THEN_INFLUENCE = Optional(
    cost=Cost(kind="mobilize_card"), reward=(Influence(1),), mandatory=True
)

BOARDS: dict[Faction, dict[str, tuple[tuple[Effect, ...], ...]]] = {
    "animod": {
        "S": (
            (Credits(2),),
            (Neighbours((1, 1)),),
            (Transfer(3),),
            (MOBILIZE_THEN_INFLUENCE, MOBILIZE_THEN_INFLUENCE, MOBILIZE_THEN_INFLUENCE),
            (Influence(2),),
        ),
        "D": (
            (ExileOpponent(1),),
            (Credits(5),),
            (TakeBonus(), Influence(1)),
            (EveryPlanet(1),),
            (Influence(2),),
        ),
    },
    "human": {
        "U": (
            (Influence(1),),
            (Mobilize(2),),
            (Steal(credits=3),),
            (Neighbours((1, 1, 1)),),
            (Influence(2),),
        ),
        "O": (
            (TakeBonus(),),
            (Steal(zenithium=1),),
            (Mobilize(3),),
            (Neighbours((2, 2)),),
            (Influence(2),),
        ),
    },
    "robot": {
        "N": (
            (Transfer(1),),
            (TakeBadge(),),
            (Influence(2, chain="start"), Influence(1, chain="different")),
            (Credits(20),),
            (Influence(2),),
        ),
        "P": (
            (Mobilize(1),),
            (Mobilize(1), Transfer(1), ExileOpponent(1)),
            (Credits(10),),
            (Sacrifice(2, chain="start"), Sacrifice(2, chain="different")),
            (Influence(2),),
        ),
    },
}
"""Per faction, per side, the effects of levels 1 to 5."""
