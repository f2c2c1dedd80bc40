"""What a player may ask for at the Five Pairs table."""

from __future__ import annotations

import msgspec

from .cards import CardId


class MakePair(
    msgspec.Struct,
    tag="fivepairs.make_pair",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Pair a card from your hand with a common-area card of the same number or colour."""

    hand_card: CardId
    common_card: CardId


class DrawTwo(
    msgspec.Struct,
    tag="fivepairs.draw_two",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Instead of pairing: draw two cards (then discard one to the common area)."""


class Discard(
    msgspec.Struct,
    tag="fivepairs.discard",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After drawing: put one card face up in the common area."""

    card: CardId


class DealRound(
    msgspec.Struct,
    tag="fivepairs.deal_round",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The dealer shuffles the whole deck and deals the next round."""


Command = MakePair | DrawTwo | Discard | DealRound
