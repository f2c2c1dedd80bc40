"""What a player may ask: swap in the sky, let two fall, use or skip a power.

Pairs of Bubblees are given as their two ids in sorted order.
"""

from __future__ import annotations

import msgspec

from domain.games.bubbleepop.bubblees import Colour


class SwapSky(
    msgspec.Struct, tag="bubbleepop.swap_sky", tag_field="type", forbid_unknown_fields=True,
    frozen=True,
):  # fmt: skip
    bubblees: tuple[str, str]


class DropBubblees(
    msgspec.Struct, tag="bubbleepop.drop_bubblees", tag_field="type", forbid_unknown_fields=True,
    frozen=True,
):  # fmt: skip
    bubblees: tuple[str, str]


class UseBlue(
    msgspec.Struct, tag="bubbleepop.use_blue", tag_field="type", forbid_unknown_fields=True,
    frozen=True,
):  # fmt: skip
    bubblee: str


class UsePurple(
    msgspec.Struct, tag="bubbleepop.use_purple", tag_field="type", forbid_unknown_fields=True,
    frozen=True,
):  # fmt: skip
    bubblee: str


class UseYellow(
    msgspec.Struct, tag="bubbleepop.use_yellow", tag_field="type", forbid_unknown_fields=True,
    frozen=True,
):  # fmt: skip
    bubblee: str


class UseRed(
    msgspec.Struct, tag="bubbleepop.use_red", tag_field="type", forbid_unknown_fields=True,
    frozen=True,
):  # fmt: skip
    bubblees: tuple[str, str]


class UseGreen(
    msgspec.Struct, tag="bubbleepop.use_green", tag_field="type", forbid_unknown_fields=True,
    frozen=True,
):  # fmt: skip
    bubblees: tuple[str, str]


class UseOrange(
    msgspec.Struct, tag="bubbleepop.use_orange", tag_field="type", forbid_unknown_fields=True,
    frozen=True,
):  # fmt: skip
    bubblee: str


class UseWhite(
    msgspec.Struct, tag="bubbleepop.use_white", tag_field="type", forbid_unknown_fields=True,
    frozen=True,
):  # fmt: skip
    column: int


class SkipPower(
    msgspec.Struct, tag="bubbleepop.skip_power", tag_field="type", forbid_unknown_fields=True,
    frozen=True,
):  # fmt: skip
    colour: Colour


Command = (
    SwapSky
    | DropBubblees
    | UseBlue
    | UsePurple
    | UseYellow
    | UseRed
    | UseGreen
    | UseOrange
    | UseWhite
    | SkipPower
)
