"""What happened at a First Giants table (all public but the deck: a card is named only
once it is dealt face up or acquired, and bones drawn from the bag are seen by all)."""

from __future__ import annotations

import msgspec

from domain.games.firstgiants.cards import CardId
from domain.games.firstgiants.state import ScoreSheet
from domain.kernel import Seat


class SiteFilled(msgspec.Struct, tag="firstgiants.site_filled", tag_field="type", frozen=True):
    site: str
    card: CardId


class TurnBegan(msgspec.Struct, tag="firstgiants.turn_began", tag_field="type", frozen=True):
    seat: Seat
    round: int
    order: tuple[Seat, ...]


class Excavated(msgspec.Struct, tag="firstgiants.excavated", tag_field="type", frozen=True):
    """The tokens the site gave, boosts included (bones run short when the bag does)."""

    seat: Seat
    site: str
    gained: dict[str, int]


class CardAcquired(msgspec.Struct, tag="firstgiants.card_acquired", tag_field="type", frozen=True):
    """Into the workshop, from a dig site (or, `site=None`, the deck's top for news)."""

    seat: Seat
    card: CardId
    site: str | None
    amber_paid: int


class AmberGained(msgspec.Struct, tag="firstgiants.amber_gained", tag_field="type", frozen=True):
    seat: Seat
    amount: int
    card: CardId
    """The card whose effect gave it."""


class BonesDrawn(msgspec.Struct, tag="firstgiants.bones_drawn", tag_field="type", frozen=True):
    seat: Seat
    bones: tuple[str, ...]


class CardExhibited(
    msgspec.Struct, tag="firstgiants.card_exhibited", tag_field="type", frozen=True
):
    seat: Seat
    card: CardId
    bones_paid: dict[str, int]
    amber_paid: int
    prestige: int


class NewsEarned(msgspec.Struct, tag="firstgiants.news_earned", tag_field="type", frozen=True):
    """`reason`: "family:<family>" (a set of three) or "milestone:<n>" (first to n)."""

    seat: Seat
    reason: str


class NewsSpent(msgspec.Struct, tag="firstgiants.news_spent", tag_field="type", frozen=True):
    seat: Seat


class SetCompleted(msgspec.Struct, tag="firstgiants.set_completed", tag_field="type", frozen=True):
    seat: Seat


class InitiativeSecured(
    msgspec.Struct, tag="firstgiants.initiative_secured", tag_field="type", frozen=True
):
    seat: Seat
    amber_paid: int


class ActionDoubled(
    msgspec.Struct, tag="firstgiants.action_doubled", tag_field="type", frozen=True
):
    seat: Seat
    amber_paid: int


class EndTriggered(msgspec.Struct, tag="firstgiants.end_triggered", tag_field="type", frozen=True):
    """`reason`: "last_set_token" or "deck_empty"; the round is played out."""

    seat: Seat
    reason: str


class PlayerConceded(
    msgspec.Struct, tag="firstgiants.player_conceded", tag_field="type", frozen=True
):
    seat: Seat


class GameEnded(msgspec.Struct, tag="firstgiants.game_ended", tag_field="type", frozen=True):
    sheets: tuple[ScoreSheet, ...]


Event = (
    SiteFilled
    | TurnBegan
    | Excavated
    | CardAcquired
    | AmberGained
    | BonesDrawn
    | CardExhibited
    | NewsEarned
    | NewsSpent
    | SetCompleted
    | InitiativeSecured
    | ActionDoubled
    | EndTriggered
    | PlayerConceded
    | GameEnded
)
