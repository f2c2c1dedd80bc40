"""What a player may ask for at the 3-13 table."""

from __future__ import annotations

import msgspec

from .cards import CardId


class DrawFromDeck(
    msgspec.Struct,
    tag="threethirteen.draw_from_deck",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Draw the top card of the face-down draw pile."""


class TakeDiscard(
    msgspec.Struct,
    tag="threethirteen.take_discard",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Take the top card of the face-up discard pile."""


class Discard(
    msgspec.Struct,
    tag="threethirteen.discard",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """End the turn by putting one card face up on the discard pile."""

    card: CardId


class GoOut(
    msgspec.Struct,
    tag="threethirteen.go_out",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Lay down the whole hand in melds, discarding the one card left over."""

    discard: CardId


class DealRound(
    msgspec.Struct,
    tag="threethirteen.deal_round",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The dealer shuffles all 108 cards and deals the next round."""


Command = DrawFromDeck | TakeDiscard | Discard | GoOut | DealRound
