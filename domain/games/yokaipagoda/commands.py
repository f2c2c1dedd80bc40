"""What a Yokai Pagoda player may ask for, one Struct per command."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.yokaipagoda.cards import CardId, Pile
from domain.kernel import Seat


class PlayCard(
    msgspec.Struct,
    tag="yokaipagoda.play_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Offer a card from your hand on the left or right pile."""

    card: CardId
    pile: Pile


class GiveCard(
    msgspec.Struct,
    tag="yokaipagoda.give_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After matching Yokai or number: give one card of your hand to another player."""

    card: CardId
    to: Seat


class GiveNothing(
    msgspec.Struct,
    tag="yokaipagoda.give_nothing",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After a match, keep your cards (the gift is allowed, not required)."""


class TakeCard(
    msgspec.Struct,
    tag="yokaipagoda.take_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After a higher card of another Yokai: take the deck's top card or the other pile's."""

    source: Literal["deck", "pile"]


class EndRound(
    msgspec.Struct,
    tag="yokaipagoda.end_round",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After a lower card of another Yokai, with a hand worth 3 or less: end the round."""


class CarryOn(
    msgspec.Struct,
    tag="yokaipagoda.carry_on",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After a lower card of another Yokai: let the round go on."""


class DealRound(
    msgspec.Struct,
    tag="yokaipagoda.deal_round",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Between rounds, the player after the round's ender shuffles and deals the next one."""


Command = DealRound | PlayCard | GiveCard | GiveNothing | TakeCard | EndRound | CarryOn
