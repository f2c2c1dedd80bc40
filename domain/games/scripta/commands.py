"""What a Scripta player may ask for, one Struct per command."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.scripta.cards import CardId


class DrawCard(
    msgspec.Struct,
    tag="scripta.draw_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Draw the deck's top card (unseen by the others) or the discard pile's top card."""

    source: Literal["deck", "discard"]


class DiscardCard(
    msgspec.Struct,
    tag="scripta.discard_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Put a card from your hand face up on the discard pile; the turn ends."""

    card: CardId


Command = DrawCard | DiscardCard
