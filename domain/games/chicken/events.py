"""What happened at the table, in the past tense. Every die rolled and drawn is written here."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.chicken.dice import DieId, Face
from domain.kernel import Seat


class _Fact(msgspec.Struct, tag_field="type", frozen=True):
    """Shared config: tagged on "type", immutable."""


class Roll(msgspec.Struct, frozen=True):
    """One die and the face it came up on."""

    die: DieId
    face: Face


class StartingPlayerChosen(_Fact, tag="chicken.starting_player_chosen", frozen=True):
    """Setup: the starting player, drawn at random, takes the 4 white dice."""

    seat: Seat


class CoopRefilled(_Fact, tag="chicken.coop_refilled", frozen=True):
    """Eggspansion: these dice were drawn from the Seed Bag into the Coop."""

    dice: tuple[DieId, ...]


class ChickenedOut(_Fact, tag="chicken.chickened_out", frozen=True):
    """The farmer chickened out, losing `points_lost` (0 on the starting space)."""

    seat: Seat
    points_lost: int


class DiceReturned(_Fact, tag="chicken.dice_returned", frozen=True):
    """Coloured dice went back to the Coop (base game) or the Seed Bag (Eggspansion)."""

    seat: Seat
    dice: tuple[DieId, ...]
    to: Literal["coop", "bag"]


class DiceRolled(_Fact, tag="chicken.dice_rolled", frozen=True):
    """Dice were rolled (the turn's first roll, or the one reroll) and came up so."""

    seat: Seat
    rolls: tuple[Roll, ...]
    reroll: bool


class Busted(_Fact, tag="chicken.busted", frozen=True):
    """Three or more foxes not scared off: the turn scores nothing."""

    seat: Seat
    foxes: int
    barks: int


class DieHatched(_Fact, tag="chicken.die_hatched", frozen=True):
    """An egg hatched this die from the Coop or the Seed Bag; it shows blank until rolled."""

    seat: Seat
    die: DieId
    source: Literal["coop", "bag"]


class EggsUnhatched(_Fact, tag="chicken.eggs_unhatched", frozen=True):
    """These eggs hatched nothing: no die was left to take."""

    seat: Seat
    eggs: int


class ChickensCounted(_Fact, tag="chicken.chickens_counted", frozen=True):
    """The turn ended safely: `points` scored, the farmer now has `score`."""

    seat: Seat
    points: int
    score: int


class DicePassed(_Fact, tag="chicken.dice_passed", frozen=True):
    """The dice went clockwise to the next farmer, whose turn it now is."""

    seat: Seat
    to: Seat
    dice: tuple[DieId, ...]


class PlayerConceded(_Fact, tag="chicken.player_conceded", frozen=True):
    """The farmer left the game; their turns are skipped from now on."""

    seat: Seat


class GameWon(_Fact, tag="chicken.game_won", frozen=True):
    """The game ended at once: 25 points reached, or everyone else left."""

    seat: Seat
    reason: Literal["goal", "last_player"]


Event = (
    StartingPlayerChosen
    | CoopRefilled
    | ChickenedOut
    | DiceReturned
    | DiceRolled
    | Busted
    | DieHatched
    | EggsUnhatched
    | ChickensCounted
    | DicePassed
    | PlayerConceded
    | GameWon
)
