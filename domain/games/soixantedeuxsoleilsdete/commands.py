"""What a 62 Soleils d'été player may ask for, one Struct per command.

Every player writes the same roll at once: each command is one player's own step.
"""

from __future__ import annotations

import msgspec

from domain.games.soixantedeuxsoleilsdete.sheet import SlotId


class WriteNumber(
    msgspec.Struct,
    tag="soixantedeuxsoleilsdete.write_number",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Use the die showing the slot's pearl to choose the slot, write `value` (another
    die) in it; the third die goes to the sun row."""

    slot: SlotId
    value: int


class SunOnly(
    msgspec.Struct,
    tag="soixantedeuxsoleilsdete.sun_only",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """No slot can take these dice: add one of them (`die`, its value) to the sun row."""

    die: int


class CopyByCrab(
    msgspec.Struct,
    tag="soixantedeuxsoleilsdete.copy_by_crab",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The slot just filled has a crab: copy its value into this neighbouring slot."""

    slot: SlotId


class NoCopy(
    msgspec.Struct,
    tag="soixantedeuxsoleilsdete.no_copy",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Leave the crab's copy unused."""


class ChooseSun(
    msgspec.Struct,
    tag="soixantedeuxsoleilsdete.choose_sun",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """A sun hat was filled: add this value (1-6) to the sun row instead of the sun die."""

    value: int


class WriteBonus(
    msgspec.Struct,
    tag="soixantedeuxsoleilsdete.write_bonus",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The sun row gave a bonus number: write `value` (1-6) in an empty slot."""

    slot: SlotId
    value: int


class SkipBonus(
    msgspec.Struct,
    tag="soixantedeuxsoleilsdete.skip_bonus",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Leave the bonus number unwritten."""


Command = WriteNumber | SunOnly | CopyByCrab | NoCopy | ChooseSun | WriteBonus | SkipBonus
