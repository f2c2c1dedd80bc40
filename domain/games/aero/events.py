"""What happened at an Aero table, one Struct per event (all public)."""

from __future__ import annotations

import msgspec

from domain.games.aero.dice import Criminal, DieId, Face
from domain.kernel import Seat


class DieShowing(msgspec.Struct, frozen=True):
    """One die and the face it landed on."""

    die: DieId
    face: Face


class TurnBegan(msgspec.Struct, tag="aero.turn_began", tag_field="type", frozen=True):
    seat: Seat
    turn: int


class DiceRolled(msgspec.Struct, tag="aero.dice_rolled", tag_field="type", frozen=True):
    seat: Seat
    dice: tuple[DieShowing, ...]


class DiceSetAside(msgspec.Struct, tag="aero.dice_set_aside", tag_field="type", frozen=True):
    seat: Seat
    dice: tuple[DieId, ...]


class CriminalArrested(msgspec.Struct, tag="aero.criminal_arrested", tag_field="type", frozen=True):
    seat: Seat
    criminal: Criminal
    count: int
    value: int
    points: int


class CriminalFlipped(msgspec.Struct, tag="aero.criminal_flipped", tag_field="type", frozen=True):
    seat: Seat
    criminal: Criminal


class PlayerConceded(msgspec.Struct, tag="aero.player_conceded", tag_field="type", frozen=True):
    seat: Seat


class GameEnded(msgspec.Struct, tag="aero.game_ended", tag_field="type", frozen=True):
    scores: tuple[int, ...]


Event = (
    TurnBegan
    | DiceRolled
    | DiceSetAside
    | CriminalArrested
    | CriminalFlipped
    | PlayerConceded
    | GameEnded
)
