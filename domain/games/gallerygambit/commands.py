"""What a Gallery Gambit player may ask for, one Struct per command."""

from __future__ import annotations

import msgspec

from domain.games.gallerygambit.cards import CardId


class TakeCard(
    msgspec.Struct,
    tag="gallerygambit.take_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Take a face-up market card into your hand, or (`card=None`) the deck's top unseen."""

    card: CardId | None = None


class HangCard(
    msgspec.Struct,
    tag="gallerygambit.hang_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Hang a card from your hand on one of your walls (0-based) with a free space."""

    card: CardId
    wall: int


Command = TakeCard | HangCard
