"""What a Panda Panda player may ask for: one Struct per command."""

from __future__ import annotations

import msgspec

from domain.games.pandapanda.cards import Letter
from domain.kernel import Seat


class DrawFromDeck(
    msgspec.Struct,
    tag="pandapanda.draw_from_deck",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Take the top card of the deck into your hand."""


class TakeDiscard(
    msgspec.Struct,
    tag="pandapanda.take_discard",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Take the top card of a discard pile (yours or another player's) into your hand."""

    pile: Seat


class Discard(
    msgspec.Struct,
    tag="pandapanda.discard",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Discard a card of this letter face up onto your own pile."""

    letter: Letter


class PassCard(
    msgspec.Struct,
    tag="pandapanda.pass_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After an A was discarded: choose the card of this letter to pass to your left."""

    letter: Letter


class SkipTurn(
    msgspec.Struct,
    tag="pandapanda.skip_turn",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Only with an empty hand and nothing to draw: let the turn go by."""


class NextRound(
    msgspec.Struct,
    tag="pandapanda.next_round",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After a round was won: gather, shuffle and deal five cards each."""


Command = DrawFromDeck | TakeDiscard | Discard | PassCard | SkipTurn | NextRound
