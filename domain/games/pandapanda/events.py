"""What happened at a Panda Panda table: one Struct per event, in the past tense.

A field that some readers may not see is `None` in their redacted copy.
"""

from __future__ import annotations

import msgspec

from domain.kernel import Seat


class RoundDealt(msgspec.Struct, tag="pandapanda.round_dealt", tag_field="type", frozen=True):
    """All 32 cards shuffled; five dealt to each player still in; the rest is the deck."""

    round: int
    starter: Seat
    hands: tuple[tuple[str, ...] | None, ...]
    deck: tuple[str, ...] | None  # top card last
    deck_size: int


class DrewFromDeck(msgspec.Struct, tag="pandapanda.drew_from_deck", tag_field="type", frozen=True):
    seat: Seat
    card: str | None


class TookDiscard(msgspec.Struct, tag="pandapanda.took_discard", tag_field="type", frozen=True):
    seat: Seat
    pile: Seat
    card: str


class CardDiscarded(msgspec.Struct, tag="pandapanda.card_discarded", tag_field="type", frozen=True):
    seat: Seat
    card: str


class PassingStarted(
    msgspec.Struct, tag="pandapanda.passing_started", tag_field="type", frozen=True
):
    """An A was discarded: these seats (everyone holding a card) each owe a card to the left."""

    seats: tuple[Seat, ...]


class PassChosen(msgspec.Struct, tag="pandapanda.pass_chosen", tag_field="type", frozen=True):
    """A seat chose its card; only that seat sees which."""

    seat: Seat
    card: str | None


class CardsPassed(msgspec.Struct, tag="pandapanda.cards_passed", tag_field="type", frozen=True):
    """The reveal: `cards[giver]` went to the giver's left neighbour still in (`receivers`)."""

    cards: tuple[str | None, ...]
    receivers: tuple[Seat | None, ...]


class DeckReshuffled(
    msgspec.Struct, tag="pandapanda.deck_reshuffled", tag_field="type", frozen=True
):
    """The deck ran out: every discard pile but its top card was shuffled into a new deck."""

    deck: tuple[str, ...] | None
    deck_size: int


class TurnSkipped(msgspec.Struct, tag="pandapanda.turn_skipped", tag_field="type", frozen=True):
    seat: Seat


class TurnPassed(msgspec.Struct, tag="pandapanda.turn_passed", tag_field="type", frozen=True):
    """It is now this seat's turn."""

    seat: Seat


class RoundWon(msgspec.Struct, tag="pandapanda.round_won", tag_field="type", frozen=True):
    """At the start of its turn a seat showed a hand matching the winning-hands table."""

    seat: Seat
    hand: tuple[str, ...]
    wins: int


class SeatLeft(msgspec.Struct, tag="pandapanda.seat_left", tag_field="type", frozen=True):
    """A player conceded; their hand went face down under the deck in this order."""

    seat: Seat
    returned: tuple[str, ...] | None
    deck_size: int


Event = (
    RoundDealt
    | DrewFromDeck
    | TookDiscard
    | CardDiscarded
    | PassingStarted
    | PassChosen
    | CardsPassed
    | DeckReshuffled
    | TurnSkipped
    | TurnPassed
    | RoundWon
    | SeatLeft
)
