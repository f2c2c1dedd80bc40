"""What happened at an Easy Peasy table: one Struct per event, in the past tense.

A field that some readers may not see is `None` in their redacted copy.
"""

from __future__ import annotations

import msgspec

from domain.games.easypeasy.cards import Arrow, Pile
from domain.kernel import Seat


class StackDealt(msgspec.Struct, frozen=True):
    """One stack of a row: a face-up card laid over a face-down one (hidden from all)."""

    cover: str
    under: str | None


class RoundDealt(msgspec.Struct, tag="easypeasy.round_dealt", tag_field="type", frozen=True):
    round: int
    starter: Seat
    arrow: Arrow
    hands: tuple[tuple[str, ...] | None, ...]
    rows: tuple[tuple[StackDealt, ...], ...]
    piles: tuple[str, str]  # the left and right piles' first cards
    deck: tuple[str, ...] | None  # top card last
    deck_size: int


class CardPlayed(msgspec.Struct, tag="easypeasy.card_played", tag_field="type", frozen=True):
    seat: Seat
    card: str
    pile: Pile
    stack: int | None  # the row stack it came from; None from the hand


class DeckReshuffled(
    msgspec.Struct, tag="easypeasy.deck_reshuffled", tag_field="type", frozen=True
):
    """The deck ran short: both piles but their top cards were shuffled in under it."""

    deck: tuple[str, ...] | None
    deck_size: int


class CardsDrawn(msgspec.Struct, tag="easypeasy.cards_drawn", tag_field="type", frozen=True):
    seat: Seat
    cards: tuple[str, ...] | None
    count: int


class ArrowFlipped(msgspec.Struct, tag="easypeasy.arrow_flipped", tag_field="type", frozen=True):
    seat: Seat
    arrow: Arrow  # what the Up&Down card shows now


class BonusEarned(msgspec.Struct, tag="easypeasy.bonus_earned", tag_field="type", frozen=True):
    """The card played matched the colour of the card it covers."""

    seat: Seat
    pile: Pile


class CardRevealed(msgspec.Struct, tag="easypeasy.card_revealed", tag_field="type", frozen=True):
    seat: Seat
    stack: int
    card: str


class TurnPassed(msgspec.Struct, tag="easypeasy.turn_passed", tag_field="type", frozen=True):
    """It is now this seat's turn."""

    seat: Seat


class RoundScored(msgspec.Struct, tag="easypeasy.round_scored", tag_field="type", frozen=True):
    """A hand or a row was emptied: every card is shown and the round is scored."""

    ender: Seat
    hands: tuple[tuple[str, ...], ...]
    rows: tuple[tuple[str, ...], ...]
    hand_totals: tuple[int, ...]
    row_totals: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


class SeatLeft(msgspec.Struct, tag="easypeasy.seat_left", tag_field="type", frozen=True):
    """A player conceded; their hand and row were set aside face down."""

    seat: Seat


Event = (
    RoundDealt
    | CardPlayed
    | DeckReshuffled
    | CardsDrawn
    | ArrowFlipped
    | BonusEarned
    | CardRevealed
    | TurnPassed
    | RoundScored
    | SeatLeft
)
