"""What a Beyond player may ask for, one Struct per command."""

from __future__ import annotations

import msgspec

from domain.games.beyond.cards import CardId, Spirit


class PlaceCards(
    msgspec.Struct,
    tag="beyond.place_cards",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Phase 2 (and the starting hand): the cards named go capture side up on your Stock
    (ids sorted); every other collected card goes spirit side up into your play area."""

    capture: tuple[CardId, ...] = ()


class RevealCard(
    msgspec.Struct,
    tag="beyond.reveal_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Phase 1: turn the top card of the draw pile face up."""


class TakeCards(
    msgspec.Struct,
    tag="beyond.take_cards",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Phase 1 ends: all different, take them all (`extra` empty); after a duplicate, take
    the last card plus `extra` revealed cards (ids sorted), one Lotus token each."""

    extra: tuple[CardId, ...] = ()


class Enchant(
    msgspec.Struct, tag="beyond.enchant", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """Phase 3: turn 4 spirit-side cards of `spirit` into its pattern, `yin` of them Yin
    (the referee picks unprotected cards first, then the lowest ids)."""

    spirit: Spirit
    yin: int


class Capture(
    msgspec.Struct, tag="beyond.capture", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """Phase 3: discard the capture cards `using` (ids sorted) from your Stock to take an
    opponent's spirit card or Nian Shou card (`target`)."""

    target: CardId
    using: tuple[CardId, ...]


class Protect(
    msgspec.Struct, tag="beyond.protect", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """Advanced mode, phase 3: put one of your Lotus tokens on a spirit card of yours."""

    card: CardId


class SummonTurtleSnake(
    msgspec.Struct,
    tag="beyond.summon_turtle_snake",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Advanced mode: a Lotus on your Turtle Snake turns up the top 4 cards to choose 1."""


class SummonVermilionBird(
    msgspec.Struct,
    tag="beyond.summon_vermilion_bird",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Advanced mode: a Lotus on your Vermilion Bird takes `card` from the discard pile
    onto your Stock as a capture card."""

    card: CardId


class SummonAzureDragon(
    msgspec.Struct,
    tag="beyond.summon_azure_dragon",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Advanced mode: a Lotus on your Double Azure Dragon turns up the top 2 cards to pick 1."""


class SummonMetalTiger(
    msgspec.Struct,
    tag="beyond.summon_metal_tiger",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Advanced mode: a Lotus on your Double Metal Tiger takes a Nian Shou card."""


class SummonYellowUnicorn(
    msgspec.Struct,
    tag="beyond.summon_yellow_unicorn",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Advanced mode: a Lotus on your Yellow Unicorn reclaims the Lotus on `pattern`."""

    pattern: Spirit


class ChooseCard(
    msgspec.Struct,
    tag="beyond.choose_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After a Turtle Snake or Azure Dragon summoning: the turned-up card you keep."""

    card: CardId


class EndTurn(
    msgspec.Struct, tag="beyond.end_turn", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """Phase 3 is over: the next player's turn."""


Command = (
    PlaceCards
    | RevealCard
    | TakeCards
    | Enchant
    | Capture
    | Protect
    | SummonTurtleSnake
    | SummonVermilionBird
    | SummonAzureDragon
    | SummonMetalTiger
    | SummonYellowUnicorn
    | ChooseCard
    | EndTurn
)
