"""What happened at a Scripta table. Deals and deck draws are private: the others see
`None` where a card is hidden (see view.redact)."""

from __future__ import annotations

import msgspec

from domain.games.scripta.cards import CardId
from domain.games.scripta.state import Win
from domain.kernel import Seat


class HandDealt(msgspec.Struct, tag="scripta.hand_dealt", tag_field="type", frozen=True):
    seat: Seat
    cards: tuple[CardId | None, ...]


class DiscardTurned(msgspec.Struct, tag="scripta.discard_turned", tag_field="type", frozen=True):
    """The deck's top card is turned face up to start the discard pile."""

    card: CardId


class TurnBegan(msgspec.Struct, tag="scripta.turn_began", tag_field="type", frozen=True):
    seat: Seat
    round: int


class CardDrawn(msgspec.Struct, tag="scripta.card_drawn", tag_field="type", frozen=True):
    """From the deck (`card` is the drawer's secret) or the discard pile (public)."""

    seat: Seat
    card: CardId | None
    from_deck: bool


class CardDiscarded(msgspec.Struct, tag="scripta.card_discarded", tag_field="type", frozen=True):
    seat: Seat
    card: CardId


class ConditionMet(msgspec.Struct, tag="scripta.condition_met", tag_field="type", frozen=True):
    """The seat's hand meets one of the page's ways to win; the round is played out."""

    seat: Seat
    win: Win
    hand: tuple[CardId, ...]


class PlayerConceded(msgspec.Struct, tag="scripta.player_conceded", tag_field="type", frozen=True):
    seat: Seat


class GameWon(msgspec.Struct, tag="scripta.game_won", tag_field="type", frozen=True):
    """The game is over: `winners` won, by `wins` (one each); every hand is laid face up."""

    winners: tuple[Seat, ...]
    wins: tuple[Win, ...]
    hands: tuple[tuple[CardId, ...], ...]


Event = (
    HandDealt
    | DiscardTurned
    | TurnBegan
    | CardDrawn
    | CardDiscarded
    | ConditionMet
    | PlayerConceded
    | GameWon
)
