"""What a Visions player may ask for, one Struct per command."""

from __future__ import annotations

import msgspec

from domain.games.visions.cards import CardId
from domain.kernel import Seat


class PlayCard(
    msgspec.Struct,
    tag="visions.play_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Start dream `dream` (1 or 2) with the card, or add it to that dream."""

    card: CardId
    dream: int


class PlayNightmare(
    msgspec.Struct,
    tag="visions.play_nightmare",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Play the card face down at the end of dream `dream` and steal from `target`
    (None only when no other player holds a card)."""

    card: CardId
    dream: int
    target: Seat | None


class EndTurn(
    msgspec.Struct,
    tag="visions.end_turn",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After an Echo, play no further card."""


class TakeCard(
    msgspec.Struct,
    tag="visions.take_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Draw a card from the River into your hand."""

    card: CardId


Command = PlayCard | PlayNightmare | EndTurn | TakeCard
