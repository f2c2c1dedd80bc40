"""The planet board, the victory conditions and the resource tables (data)."""

from __future__ import annotations

from domain.games.zenith.effects import Faction, Planet

PLANETS: tuple[Planet, ...] = ("mercury", "venus", "terra", "mars", "jupiter")
"""The five planets in board order (neighbouring planets are next to each other here)."""
FACTIONS: tuple[Faction, ...] = ("animod", "human", "robot")

EDGE = 4
"""A disc that reaches 4 steps from the centre on your side is yours."""

ABSOLUTE = 3  # influence tokens of one planet
DEMOCRATIC = 4  # influence tokens of different planets
POPULAR = 5  # influence tokens in all

HAND_SIZE = {"none": 4, "silver": 5, "gold": 6}
"""Hand size by the side of the Leader Badge its holder shows."""

START_CREDITS = 12
START_ZENITHIUM = 1
START_HAND = 4
SECOND_PLAYER_START: tuple[Planet, int] = ("terra", 1)
"""Rule (seed, Beginning of the Game): player 2 gains 1 Terra influence."""

DIPLOMACY_BONUS = {"robot": ("zenithium", 1), "human": ("credits", 3), "animod": ("mobilize", 2)}
"""Rule (BGA help, rules-batch1.md Appendix B): with the Leader Badge, Robot gives 1
Zenithium, Human 3 credits, Animod mobilizes 2 cards."""
