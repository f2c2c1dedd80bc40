"""What a Kokeshi player may ask for, one Struct per command."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.kokeshi.tiles import TileId
from domain.games.kokeshi.workshop import Animal, Doll


class MoveKokeshi(
    msgspec.Struct,
    tag="kokeshi.move_kokeshi",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The turn: move one of your dolls up 1 space and resolve where it lands."""

    doll: Doll


class ChooseHalf(
    msgspec.Struct,
    tag="kokeshi.choose_half",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """A slashed tile: resolve its first (0) or second (1) half."""

    half: int


class ChooseKokeshi(
    msgspec.Struct,
    tag="kokeshi.choose_kokeshi",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The doll a `leap` moves up 2, or a `shift` moves one track `left` or `right`."""

    doll: Doll
    direction: Literal["left", "right"] | None = None


class ChooseAnimal(
    msgspec.Struct,
    tag="kokeshi.choose_animal",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The animal an `animal:any` effect moves 1 step."""

    animal: Animal


class PlaceTile(
    msgspec.Struct,
    tag="kokeshi.place_tile",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Put a gained tile on an empty space of its track: `track` 0-based, `row` 1 for the
    bottom space (a starting tile goes on row 1 of any track)."""

    tile: TileId
    track: int
    row: int


Command = MoveKokeshi | ChooseHalf | ChooseKokeshi | ChooseAnimal | PlaceTile
