"""What a Carnuta player may ask for, one Struct per command."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.carnuta.cards import CardId, Symbol


class TakeCard(
    msgspec.Struct,
    tag="carnuta.take_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Action: take a market card into your hand."""

    card: CardId


class PlayCard(
    msgspec.Struct,
    tag="carnuta.play_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Action: play a card from your hand to your tableau, paying its runes."""

    card: CardId


class TakeRunes(
    msgspec.Struct,
    tag="carnuta.take_runes",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Action: take `count` reserve runes showing `symbol` into free slots."""

    symbol: Symbol
    count: int


class FlipRunes(
    msgspec.Struct,
    tag="carnuta.flip_runes",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Action: flip `count` of your runes showing `symbol` to the other side."""

    symbol: Symbol
    count: int


class UseSickle(
    msgspec.Struct,
    tag="carnuta.use_sickle",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Free: spend a sickle to refresh the day or the night row of the market."""

    row: Literal["day", "night"]


class PickToken(
    msgspec.Struct,
    tag="carnuta.pick_token",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After a 6th or 10th card: pick a bonus-ingredient token from the reserve."""

    ingredient: str


Command = TakeCard | PlayCard | TakeRunes | FlipRunes | UseSickle | PickToken
