"""What a player of Aero may ask for, one Struct per command."""

from __future__ import annotations

import msgspec

from domain.games.aero.dice import Criminal, DieId


class RollDice(
    msgspec.Struct, tag="aero.roll_dice", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """Throw all eight dice to open your turn."""


class SetAside(
    msgspec.Struct, tag="aero.set_aside", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """Split at least one of the dice just rolled (ids sorted) and reroll the rest."""

    dice: tuple[DieId, ...]


class Arrest(
    msgspec.Struct, tag="aero.arrest", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """Arrest one of your unarrested criminals showing on a bandit die."""

    criminal: Criminal


class FlipCriminal(
    msgspec.Struct,
    tag="aero.flip_criminal",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """With none of your unarrested criminals showing, flip one of them over for 0 points."""

    criminal: Criminal


Command = RollDice | SetAside | Arrest | FlipCriminal
