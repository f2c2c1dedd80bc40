"""What happened at a Zenith table, one Struct per event.

Only the drawn cards are secret: `CardsDrawn` shows them to the drawer alone.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.zenith.agents import CardId
from domain.games.zenith.bonus import BonusId
from domain.games.zenith.effects import Effect, Faction, Planet
from domain.kernel import Seat

Action = Literal["influence", "technology", "diplomacy"]
Victory = Literal["absolute", "democratic", "popular", "stalemate"]
BadgeSide = Literal["silver", "gold"]


class E(msgspec.Struct, frozen=True, tag_field="type"):
    """Base of the events (frozen, tagged)."""


class TableSetUp(E, frozen=True, tag="zenith.table_set_up"):
    """Who starts, which side each technology board shows, the face-up bonus tokens."""

    first: Seat
    sides: tuple[str, ...]
    planet_bonuses: tuple[BonusId, ...]
    track_bonuses: tuple[BonusId, ...]


class CardsDrawn(E, frozen=True, tag="zenith.cards_drawn"):
    """`cards` is empty for everyone but the drawer."""

    seat: Seat
    count: int
    cards: tuple[CardId, ...] = ()


class DiscardReshuffled(E, frozen=True, tag="zenith.discard_reshuffled"):
    count: int


class TurnBegan(E, frozen=True, tag="zenith.turn_began"):
    seat: Seat


class CardPlayed(E, frozen=True, tag="zenith.card_played"):
    """The card left the hand for an action (to the stack, or discarded); `credits` and
    `zenithium` were paid."""

    seat: Seat
    card: CardId
    action: Action
    credits: int = 0
    zenithium: int = 0


class EffectsQueued(E, frozen=True, tag="zenith.effects_queued"):
    """Effects to carry out for `seat`, ahead of whatever is still waiting."""

    seat: Seat
    effects: tuple[Effect, ...]


class EffectBegan(E, frozen=True, tag="zenith.effect_began"):
    """The next waiting effect is carried out (it leaves the queue)."""

    seat: Seat
    effect: Effect


class InfluenceGained(E, frozen=True, tag="zenith.influence_gained"):
    seat: Seat
    planet: Planet
    steps: int
    chain: bool = False
    """The influence counts for a different-planet chain."""


class TokenCaptured(E, frozen=True, tag="zenith.token_captured"):
    """The disc reached the seat's edge: it keeps it, a new disc goes to the centre."""

    seat: Seat
    planet: Planet


class DiscReset(E, frozen=True, tag="zenith.disc_reset"):
    planet: Planet


class ResourcesChanged(E, frozen=True, tag="zenith.resources_changed"):
    seat: Seat
    credits: int = 0
    zenithium: int = 0


class BadgeTaken(E, frozen=True, tag="zenith.badge_taken"):
    seat: Seat
    side: BadgeSide


class BonusTaken(E, frozen=True, tag="zenith.bonus_taken"):
    seat: Seat
    token: BonusId


class CardsMobilized(E, frozen=True, tag="zenith.cards_mobilized"):
    """Cards from the top of the deck straight into the seat's zone."""

    seat: Seat
    cards: tuple[CardId, ...]


class CardTransferred(E, frozen=True, tag="zenith.card_transferred"):
    """From the other seat's zone into `seat`'s."""

    seat: Seat
    card: CardId


class CardExiled(E, frozen=True, tag="zenith.card_exiled"):
    """From `owner`'s zone to the discard pile."""

    owner: Seat
    card: CardId


class CardsDiscarded(E, frozen=True, tag="zenith.cards_discarded"):
    """From the seat's hand to the discard pile, face up."""

    seat: Seat
    cards: tuple[CardId, ...]


class TechnologyAdvanced(E, frozen=True, tag="zenith.technology_advanced"):
    seat: Seat
    track: Faction
    level: int


class RowBonusEarned(E, frozen=True, tag="zenith.row_bonus_earned"):
    seat: Seat
    level: int


class TurnPassed(E, frozen=True, tag="zenith.turn_passed"):
    seat: Seat


class GameWon(E, frozen=True, tag="zenith.game_won"):
    """`seat` None: both players passed in a row and the game is stuck."""

    seat: Seat | None
    victory: Victory


Event = (
    TableSetUp
    | CardsDrawn
    | DiscardReshuffled
    | TurnBegan
    | CardPlayed
    | EffectsQueued
    | EffectBegan
    | InfluenceGained
    | TokenCaptured
    | DiscReset
    | ResourcesChanged
    | BadgeTaken
    | BonusTaken
    | CardsMobilized
    | CardTransferred
    | CardExiled
    | CardsDiscarded
    | TechnologyAdvanced
    | RowBonusEarned
    | TurnPassed
    | GameWon
)
