"""What a farmer may say at the table: one Struct per move of the rules page."""

from __future__ import annotations

import msgspec

from domain.games.chicken.dice import DieId


class _Move(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, frozen=True):
    """Shared config: tagged on "type", strict, comparable by value."""


class GoForIt(_Move, tag="chicken.go_for_it", frozen=True):
    """Start of turn: roll every die passed to you."""


class ChickenOut(_Move, tag="chicken.chicken_out", frozen=True):
    """Start of turn: give the coloured dice back, lose 1 point, roll the 4 white dice."""


class HatchFromCoop(_Move, tag="chicken.hatch_from_coop", frozen=True):
    """Eggspansion: for one egg, hatch this visible die from the Coop."""

    die: DieId


class HatchFromBag(_Move, tag="chicken.hatch_from_bag", frozen=True):
    """Eggspansion: for one egg, hatch a die drawn blind from the Seed Bag."""


class Reroll(_Move, tag="chicken.reroll", frozen=True):
    """The one reroll of the turn: every die left in the middle."""


class CountChickens(_Move, tag="chicken.count_chickens", frozen=True):
    """Stop: score the chickens and pass all the dice on."""


Command = GoForIt | ChickenOut | HatchFromCoop | HatchFromBag | Reroll | CountChickens
