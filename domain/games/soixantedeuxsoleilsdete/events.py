"""What happened at a 62 Soleils d'été table, one Struct per event. Nothing is hidden:
the dice are shared and every sheet is open."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.soixantedeuxsoleilsdete.sheet import SlotId, ZoneName
from domain.kernel import Seat

How = Literal["dice", "crab", "bonus"]


class DiceRolled(
    msgspec.Struct, tag="soixantedeuxsoleilsdete.dice_rolled", tag_field="type", frozen=True
):
    round: int
    dice: tuple[int, ...]


class DiceAllotted(
    msgspec.Struct, tag="soixantedeuxsoleilsdete.dice_allotted", tag_field="type", frozen=True
):
    """How one player shares the roll out: `pearl` chose the slot, `value` is written in
    it (both None when no slot could take the dice), `sun` goes to the sun row."""

    seat: Seat
    pearl: int | None
    value: int | None
    sun: int


class NumberWritten(
    msgspec.Struct, tag="soixantedeuxsoleilsdete.number_written", tag_field="type", frozen=True
):
    """A value in a slot, from the dice, a crab's copy or a sun bonus; `pearl` when it
    equals the slot's pearl (+1 starfish); `crab` when the slot's crab may copy it on."""

    seat: Seat
    slot: SlotId
    value: int
    how: How
    pearl: bool
    crab: bool
    hat: bool


class CopyDeclined(
    msgspec.Struct, tag="soixantedeuxsoleilsdete.copy_declined", tag_field="type", frozen=True
):
    seat: Seat


class ZoneCompleted(
    msgspec.Struct, tag="soixantedeuxsoleilsdete.zone_completed", tag_field="type", frozen=True
):
    """Every slot of the zone is written: its banner pays at once."""

    seat: Seat
    zone: ZoneName
    starfish: int
    shellfish: int


class SunAdded(
    msgspec.Struct, tag="soixantedeuxsoleilsdete.sun_added", tag_field="type", frozen=True
):
    """The leftmost free sun holds the new total; `chosen` when a sun hat chose the value."""

    seat: Seat
    value: int
    total: int
    chosen: bool


class SunBonusWon(
    msgspec.Struct, tag="soixantedeuxsoleilsdete.sun_bonus_won", tag_field="type", frozen=True
):
    """The total hit a threshold exactly: a shellfish, starfish or a bonus number."""

    seat: Seat
    threshold: int
    starfish: int
    shellfish: int
    number: bool


class BonusDeclined(
    msgspec.Struct, tag="soixantedeuxsoleilsdete.bonus_declined", tag_field="type", frozen=True
):
    """The bonus number was not written (declined, or no empty slot could take one)."""

    seat: Seat


class PlayerLeft(
    msgspec.Struct, tag="soixantedeuxsoleilsdete.player_left", tag_field="type", frozen=True
):
    seat: Seat


class GameEnded(
    msgspec.Struct, tag="soixantedeuxsoleilsdete.game_ended", tag_field="type", frozen=True
):
    """After the 20th round or once a sun total reached 62: the shellfish majority is paid."""

    majority: tuple[Seat, ...]
    scores: tuple[int, ...]


Event = (
    DiceRolled
    | DiceAllotted
    | NumberWritten
    | CopyDeclined
    | ZoneCompleted
    | SunAdded
    | SunBonusWon
    | BonusDeclined
    | PlayerLeft
    | GameEnded
)
