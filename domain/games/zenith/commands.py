"""What a Zenith player may ask for, one Struct per command.

A turn is one of the three actions with a card from the hand; the card's effects then
ask for the choices they need, one at a time (a planet, a card, a track, a token ...).
"""

from __future__ import annotations

import msgspec

from domain.games.zenith.agents import CardId
from domain.games.zenith.bonus import BonusId
from domain.games.zenith.effects import Faction, Planet


class PlayInfluence(
    msgspec.Struct,
    tag="zenith.play_influence",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Influence action: pay the card's credits (less the discount) and play it to your stack."""

    card: CardId


class PlayTechnology(
    msgspec.Struct,
    tag="zenith.play_technology",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Technology action: discard the card and pay Zenithium to advance its faction's track."""

    card: CardId


class PlayDiplomacy(
    msgspec.Struct,
    tag="zenith.play_diplomacy",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Diplomacy action: discard the card for the Leader Badge and its faction's bonus."""

    card: CardId


class ChoosePlanet(
    msgspec.Struct,
    tag="zenith.choose_planet",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The planet the effect in hand goes to (for neighbours: the first of the row)."""

    planet: Planet


class ChooseCard(
    msgspec.Struct,
    tag="zenith.choose_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The hand card an effect makes you discard."""

    card: CardId


class ChooseTrack(
    msgspec.Struct,
    tag="zenith.choose_track",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The technology track an effect develops."""

    track: Faction


class ChooseBonus(
    msgspec.Struct,
    tag="zenith.choose_bonus",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The face-up bonus token an effect lets you take."""

    token: BonusId


class ChooseOption(
    msgspec.Struct,
    tag="zenith.choose_option",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """CHOOSE: which option of the card (counted from 1)."""

    option: int


class Accept(
    msgspec.Struct, tag="zenith.accept", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """IF ...: pay the condition (its `tier`-th amount, counted from 1) for the reward."""

    tier: int = 1


class Decline(
    msgspec.Struct, tag="zenith.decline", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """IF ...: do not pay; the reward is lost."""


class Pass(
    msgspec.Struct, tag="zenith.pass", tag_field="type", forbid_unknown_fields=True, frozen=True
):
    """With no card in hand and none to draw, the turn passes."""


Command = (
    PlayInfluence
    | PlayTechnology
    | PlayDiplomacy
    | ChoosePlanet
    | ChooseCard
    | ChooseTrack
    | ChooseBonus
    | ChooseOption
    | Accept
    | Decline
    | Pass
)
