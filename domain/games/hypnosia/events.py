"""What happened at the table, in the past tense. Every throw of the dice is written here."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.hypnosia.board import SpaceId
from domain.games.hypnosia.track import PawnId
from domain.kernel import Seat


class _Fact(msgspec.Struct, tag_field="type", frozen=True):
    """Shared config: tagged on "type", immutable."""


class StartingThrow(msgspec.Struct, frozen=True):
    """One player's throw of both dice to decide who begins."""

    seat: Seat
    dice: tuple[int, int]


class FirstPlayerChosen(_Fact, tag="hypnosia.first_player_chosen", frozen=True):
    """Setup: everybody threw both dice (the tied highest again) and `seat` begins."""

    rounds: tuple[tuple[StartingThrow, ...], ...]
    seat: Seat


class DiceRolled(_Fact, tag="hypnosia.dice_rolled", frozen=True):
    seat: Seat
    dice: tuple[int, int]


class PawnsMoved(_Fact, tag="hypnosia.pawns_moved", frozen=True):
    """One die used: a pawn (or a stack) went from one space to another."""

    seat: Seat
    pawns: tuple[PawnId, ...]
    pips: int
    start: SpaceId
    end: SpaceId
    crossed_bridge: bool


class PawnsCaptured(_Fact, tag="hypnosia.pawns_captured", frozen=True):
    """The mover ended on an opponent: those pawns left the game (+1 / -1 point each)."""

    seat: Seat
    victim: Seat
    pawns: tuple[PawnId, ...]
    space: SpaceId


class CentreEntered(_Fact, tag="hypnosia.centre_entered", frozen=True):
    """A 1 took pawns from a special space into the centre, scoring `points` in order.

    `left_behind` is the stack's second pawn when the centre had room for one only.
    """

    seat: Seat
    pawns: tuple[PawnId, ...]
    start: SpaceId
    points: tuple[int, ...]
    left_behind: tuple[PawnId, ...] = ()


class DiceForfeited(_Fact, tag="hypnosia.dice_forfeited", frozen=True):
    """No pawn could burn these dice exactly: they are lost."""

    seat: Seat
    dice: tuple[int, ...]


class TurnPassed(_Fact, tag="hypnosia.turn_passed", frozen=True):
    seat: Seat
    to: Seat


class PlayerConceded(_Fact, tag="hypnosia.player_conceded", frozen=True):
    """The player left: their pawns on the board were taken off (no points change)."""

    seat: Seat
    pawns: tuple[PawnId, ...]


class GameEnded(_Fact, tag="hypnosia.game_ended", frozen=True):
    reason: Literal["centre_full", "board_empty"]


Event = (
    FirstPlayerChosen
    | DiceRolled
    | PawnsMoved
    | PawnsCaptured
    | CentreEntered
    | DiceForfeited
    | TurnPassed
    | PlayerConceded
    | GameEnded
)
