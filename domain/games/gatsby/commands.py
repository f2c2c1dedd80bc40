"""What a Gatsby player may ask for, one Struct per command."""

from __future__ import annotations

import msgspec

from domain.games.gatsby.board import ActionSpace, Space
from domain.games.gatsby.tiles import TileId


class ChooseAction(
    msgspec.Struct,
    tag="gatsby.choose_action",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Move the Action token to an action space (not the last one used) and do what it shows."""

    space: ActionSpace


class UseSpecial(
    msgspec.Struct,
    tag="gatsby.use_special",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Before choosing your action, play the Special Action tile on your board (once)."""


class KeepSpecial(
    msgspec.Struct,
    tag="gatsby.keep_special",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Of the Special Action tiles drawn, keep this one on your board."""

    tile: TileId


class PlaceInCabaret(
    msgspec.Struct,
    tag="gatsby.place_in_cabaret",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """An Influence token on a Cabaret space (0-based row and column), next to another token."""

    row: int
    col: int


class PlaceInRacetrack(
    msgspec.Struct,
    tag="gatsby.place_in_racetrack",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """An Influence token on the leftmost free space of an open race line (0-based)."""

    line: int


class SwapCharacters(
    msgspec.Struct,
    tag="gatsby.swap_characters",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Bonus: swap the characters on two spaces (names sorted), face up or down as they lie."""

    spaces: tuple[Space, Space]


class SwapInfluence(
    msgspec.Struct,
    tag="gatsby.swap_influence",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Bonus or special: one of your Influence tokens and one of the opponent's change places
    (spots written `cabaret-R-C` or `racetrack-L-I`, 0-based)."""

    mine: str
    theirs: str


class Restrict(
    msgspec.Struct, tag="gatsby.restrict", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """Bonus: the opponent may not use this action space on their next turn either."""

    space: ActionSpace


class SkipBonus(
    msgspec.Struct,
    tag="gatsby.skip_bonus",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Let the bonus just gained go."""


Command = (
    ChooseAction
    | UseSpecial
    | KeepSpecial
    | PlaceInCabaret
    | PlaceInRacetrack
    | SwapCharacters
    | SwapInfluence
    | Restrict
    | SkipBonus
)
