"""What a traveller may ask for, one Struct per command (the page's French names)."""

from __future__ import annotations

import msgspec

from domain.games.quinzejoursenfrance.cards import CardId


class Voyager(
    msgspec.Struct,
    tag="quinzejoursenfrance.voyager",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Travel: take a face-up Location card, paying its Step tokens."""

    card: CardId


class Rencontrer(
    msgspec.Struct,
    tag="quinzejoursenfrance.rencontrer",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Meet: draw 2 Encounter cards, to keep 1."""


class Recuperer(
    msgspec.Struct,
    tag="quinzejoursenfrance.recuperer",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Rest: gain 4 Step tokens."""


class Garder(
    msgspec.Struct,
    tag="quinzejoursenfrance.garder",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Keep one of the Encounters drawn; the other goes under the deck."""

    card: CardId


Command = Voyager | Rencontrer | Recuperer | Garder
