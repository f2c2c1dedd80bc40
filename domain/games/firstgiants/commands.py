"""What a First Giants player may ask for, one Struct per command."""

from __future__ import annotations

import msgspec

from domain.games.firstgiants.cards import CardId, Site


class Excavate(
    msgspec.Struct,
    tag="firstgiants.excavate",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Main action: visit a dig site for its tokens, and take one of its cards (paying
    its amber) into your workshop, or none (`card=None`)."""

    site: Site
    card: CardId | None = None


class Exhibit(
    msgspec.Struct,
    tag="firstgiants.exhibit",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Main action: move a completed card from your workshop to your museum."""

    card: CardId


class CompleteSet(
    msgspec.Struct,
    tag="firstgiants.complete_set",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Free: trade a skull, a rib and a claw for a set token."""


class SpendNews(
    msgspec.Struct,
    tag="firstgiants.spend_news",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Free: spend a news token to draw the deck's top card into your workshop."""


class SecureInitiative(
    msgspec.Struct,
    tag="firstgiants.secure_initiative",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Free: pay amber to go first in the next round."""


class DoubleAction(
    msgspec.Struct,
    tag="firstgiants.double_action",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Free: pay amber for a second main action this turn."""


class EndTurn(
    msgspec.Struct,
    tag="firstgiants.end_turn",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Pass the turn once your main action is done."""


Command = Excavate | Exhibit | CompleteSet | SpendNews | SecureInitiative | DoubleAction | EndTurn
