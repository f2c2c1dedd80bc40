"""The dice of Chicken! and the Eggspansion, as data.

Faces come from the rules page (seed 002, "Components") and from the facts gathered in
rules-batch2.md section 1. Three of them are assumptions, marked below, kept here so that
correcting a face is a one-line change.
"""

from __future__ import annotations

from typing import Literal

DieId = str
"""A die instance: "ch-white-1" ... "ch-orange-4", "ch-dog", "ch-hen"."""

Face = Literal["chicken", "double_chicken", "egg", "fox", "blank", "happy_dog", "bark", "chick"]

Colour = Literal["white", "yellow", "orange", "dog", "hen"]

FACES: dict[Colour, tuple[Face, ...]] = {
    "white": ("chicken", "chicken", "egg", "egg", "fox", "blank"),
    "yellow": ("chicken", "chicken", "chicken", "egg", "fox", "blank"),
    # ASSUMPTION: the page lists only five orange faces; the sixth is taken to be an egg.
    "orange": ("chicken", "double_chicken", "egg", "fox", "fox", "blank"),
    # ASSUMPTION: Blue the Dog shows Happy Dog on three faces and Bark! on three.
    "dog": ("happy_dog", "happy_dog", "happy_dog", "bark", "bark", "bark"),
    # ASSUMPTION: Mother Hen shows Chick on three faces and Double Chicken on three.
    "hen": ("chick", "chick", "chick", "double_chicken", "double_chicken", "double_chicken"),
}

WHITE_DICE: tuple[DieId, ...] = ("ch-white-1", "ch-white-2", "ch-white-3", "ch-white-4")
YELLOW_DICE: tuple[DieId, ...] = ("ch-yellow-1", "ch-yellow-2", "ch-yellow-3", "ch-yellow-4")
ORANGE_DICE: tuple[DieId, ...] = ("ch-orange-1", "ch-orange-2", "ch-orange-3", "ch-orange-4")
BLUE_THE_DOG: DieId = "ch-dog"
MOTHER_HEN: DieId = "ch-hen"

BASE_COOP: tuple[DieId, ...] = YELLOW_DICE + ORANGE_DICE
"""The Coop at the start of the base game: yellow dice, then orange dice."""

EGGSPANSION_BAG: tuple[DieId, ...] = BASE_COOP + (BLUE_THE_DOG, MOTHER_HEN)
"""Every non-white die: the Seed Bag before setup with the Eggspansion."""

ALL_DICE: tuple[DieId, ...] = WHITE_DICE + EGGSPANSION_BAG
"""Every die, in the order the table lists them (whites, yellows, oranges, Blue, Mother Hen)."""

COLOUR: dict[DieId, Colour] = {
    **{die: "white" for die in WHITE_DICE},
    **{die: "yellow" for die in YELLOW_DICE},
    **{die: "orange" for die in ORANGE_DICE},
    BLUE_THE_DOG: "dog",
    MOTHER_HEN: "hen",
}

ORDER: dict[DieId, int] = {die: i for i, die in enumerate(ALL_DICE)}
"""Where each die sorts: every list of dice in the state and in events keeps this order."""

POINTS: dict[Face, int] = {"chicken": 1, "double_chicken": 2, "happy_dog": 1, "chick": 1}
"""What a face showing at Count Your Chickens is worth; faces not listed score nothing."""

SET_ASIDE_RIGHT: frozenset[Face] = frozenset({"chicken", "double_chicken"})
"""Chickens go to the right and are not rerolled."""

SET_ASIDE_LEFT: frozenset[Face] = frozenset({"fox", "bark"})
"""Foxes go to the left; Blue's Bark! joins them and scares one away."""

HATCHES: frozenset[Face] = frozenset({"egg", "chick"})
"""Faces that hatch one die each (a Chick is an egg that also scores)."""

GOAL = 25
"""Ending a turn with this many points wins at once."""

COOP_SIZE = 5
"""With the Eggspansion, the Coop is refilled to this many dice after a bust or Chicken Out."""
