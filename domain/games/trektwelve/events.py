"""What happened on the trek, as past-tense facts."""

from __future__ import annotations

import msgspec

from domain.games.trektwelve.sheet import OptionName
from domain.kernel import Seat


class DiceRolled(msgspec.Struct, tag="trektwelve.dice_rolled", tag_field="type", frozen=True):
    """Roll number `roll` (1-19): the 0-5 die and the 1-6 die."""

    roll: int
    zero_die: int
    one_die: int


class NumberWritten(msgspec.Struct, tag="trektwelve.number_written", tag_field="type", frozen=True):
    """A trekker used the roll as `option` and wrote `number` in `circle`.

    `frown` is true when the number was too big for the circle: a frown is drawn instead.
    """

    seat: Seat
    option: OptionName
    number: int
    circle: int
    frown: bool = False
    down: int | None = None
    up: int | None = None


class TrekkerLeft(msgspec.Struct, tag="trektwelve.trekker_left", tag_field="type", frozen=True):
    seat: Seat


class TrekFinished(msgspec.Struct, tag="trektwelve.trek_finished", tag_field="type", frozen=True):
    scores: tuple[int, ...]


Event = DiceRolled | NumberWritten | TrekkerLeft | TrekFinished
