"""What an Abrachadabra student may ask for, one Struct per command."""

from __future__ import annotations

import msgspec

from domain.games.abrachadabra.cards import CardId, PileName


class DrawCard(
    msgspec.Struct,
    tag="abrachadabra.draw_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Draw the top card of one of the four piles and lay it face up in front of you."""

    pile: PileName


class UsePotion(
    msgspec.Struct,
    tag="abrachadabra.use_potion",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Instead of drawing: drink one of your vision potions and secretly look at the top
    two cards of a pile."""

    potion: CardId
    pile: PileName


class KeepCard(
    msgspec.Struct,
    tag="abrachadabra.keep_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After a vision: keep one of the cards seen; the other goes back where it was."""

    card: CardId


class TakeDiploma(
    msgspec.Struct,
    tag="abrachadabra.take_diploma",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Your rabbits are exactly an available diploma's value: take it, ending your exam."""

    value: int


class KeepStudying(
    msgspec.Struct,
    tag="abrachadabra.keep_studying",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Leave the diploma your rabbits match and play on in this exam."""


Command = DrawCard | UsePotion | KeepCard | TakeDiploma | KeepStudying
