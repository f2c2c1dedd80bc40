"""What happened at the Five Pairs table, as past-tense facts."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel import Seat

from .cards import CardId


class RoundDealt(msgspec.Struct, tag="fivepairs.round_dealt", tag_field="type", frozen=True):
    """A round was dealt. Redacted: only the reader's own hand, and no deck order."""

    round: int
    starter: Seat
    hands: tuple[tuple[CardId, ...] | None, ...]
    common: tuple[CardId, ...]
    deck: tuple[CardId, ...] | None
    deck_size: int


class PairMade(msgspec.Struct, tag="fivepairs.pair_made", tag_field="type", frozen=True):
    seat: Seat
    hand_card: CardId
    common_card: CardId
    points: int
    double: bool
    """Colour and number both matched: the points were doubled."""


class TokenTaken(msgspec.Struct, tag="fivepairs.token_taken", tag_field="type", frozen=True):
    """The first fourth pair of the round: the 5/15 token, 5 side up."""

    seat: Seat


class TokenFlipped(msgspec.Struct, tag="fivepairs.token_flipped", tag_field="type", frozen=True):
    """The token holder made a fifth pair: the token turns to its 15 side."""

    seat: Seat


class CardsDrawn(msgspec.Struct, tag="fivepairs.cards_drawn", tag_field="type", frozen=True):
    """Cards from the deck into a hand; `cards` is None for everyone else."""

    seat: Seat
    cards: tuple[CardId, ...] | None
    count: int
    refill: bool
    """True: drawing back up to 2 at the end of the turn; False: the draw-two move."""


class CardDiscarded(msgspec.Struct, tag="fivepairs.card_discarded", tag_field="type", frozen=True):
    """A card from a hand went face up into the common area."""

    seat: Seat
    card: CardId


class TurnBegan(msgspec.Struct, tag="fivepairs.turn_began", tag_field="type", frozen=True):
    seat: Seat
    extra: bool
    """Another turn for the same player, earned by a pair of 3s."""
    skipped: tuple[Seat, ...]
    """Players passed over because the deck is empty and they cannot pair."""


class RoundScored(msgspec.Struct, tag="fivepairs.round_scored", tag_field="type", frozen=True):
    round: int
    reason: Literal["fifth_pair", "stalemate"]
    points: tuple[int, ...]
    """Each seat's pair points this round (token not included)."""
    token_holder: Seat | None
    token_value: int
    totals: tuple[int, ...]


class PlayerConceded(
    msgspec.Struct, tag="fivepairs.player_conceded", tag_field="type", frozen=True
):
    seat: Seat


Event = (
    RoundDealt
    | PairMade
    | TokenTaken
    | TokenFlipped
    | CardsDrawn
    | CardDiscarded
    | TurnBegan
    | RoundScored
    | PlayerConceded
)
