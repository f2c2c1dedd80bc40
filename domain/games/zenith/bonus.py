"""The 16 bonus tokens (rules-batch1.md, Appendix B; the seed lists the same)."""

from __future__ import annotations

from domain.games.zenith.effects import (
    Credits,
    Effect,
    ExileOpponent,
    Influence,
    Mobilize,
    TakeBadge,
    Transfer,
    Zenithium,
)

BonusId = str

_KINDS: tuple[tuple[str, Effect, int], ...] = (
    ("3 credits", Credits(3), 2),
    ("4 credits", Credits(4), 2),
    ("1 influence", Influence(1), 4),
    ("leader badge", TakeBadge(), 2),
    ("1 zenithium", Zenithium(1), 3),
    ("mobilize 2", Mobilize(2), 1),
    ("exile 2", ExileOpponent(2), 1),
    ("transfer 1", Transfer(1), 1),
)

BONUSES: dict[BonusId, tuple[str, Effect]] = {}
"""Every token by id (`zn-bonus-01` ... `zn-bonus-16`): its name and its effect."""
for _name, _effect, _copies in _KINDS:
    for _ in range(_copies):
        BONUSES[f"zn-bonus-{len(BONUSES) + 1:02d}"] = (_name, _effect)

ON_PLANETS = 5  # one face up on each planet
ON_TRACKS = 3  # one face up on level 2 of each technology board
