"""What happened at a Yokai Pagoda table, one Struct per event.

Hidden parts: a dealt hand (`HandDealt.cards`), a gift (`CardGiven.card`) and a card
drawn from the deck (`CardTaken.card`) are None for the seats that may not see them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.yokaipagoda.cards import CardId, Pile
from domain.kernel import Seat

Effect = Literal["match", "higher", "lower", "none"]
"""How an offering compares with the pile's top; "none" on an emptied pile (no top)."""


class RoundStarted(msgspec.Struct, tag="yokaipagoda.round_started", tag_field="type", frozen=True):
    """The cards not in failed offerings were shuffled; two start the offering piles."""

    round: int
    first: Seat
    left: CardId
    right: CardId


class HandDealt(msgspec.Struct, tag="yokaipagoda.hand_dealt", tag_field="type", frozen=True):
    seat: Seat
    count: int
    cards: tuple[CardId, ...] | None


class TurnBegan(msgspec.Struct, tag="yokaipagoda.turn_began", tag_field="type", frozen=True):
    seat: Seat


class CardPlayed(msgspec.Struct, tag="yokaipagoda.card_played", tag_field="type", frozen=True):
    seat: Seat
    card: CardId
    pile: Pile
    effect: Effect


class CardGiven(msgspec.Struct, tag="yokaipagoda.card_given", tag_field="type", frozen=True):
    giver: Seat
    receiver: Seat
    card: CardId | None


class CardTaken(msgspec.Struct, tag="yokaipagoda.card_taken", tag_field="type", frozen=True):
    seat: Seat
    source: Literal["deck", "pile"]
    card: CardId | None


class RoundEnded(msgspec.Struct, tag="yokaipagoda.round_ended", tag_field="type", frozen=True):
    """Every hand went to its owner's failed offerings; the ender showed theirs."""

    round: int
    ender: Seat
    shown: tuple[CardId, ...]


class PlayerConceded(
    msgspec.Struct, tag="yokaipagoda.player_conceded", tag_field="type", frozen=True
):
    seat: Seat


class GameEnded(msgspec.Struct, tag="yokaipagoda.game_ended", tag_field="type", frozen=True):
    """The failed offerings are turned over and scored (lowest card of each Yokai)."""

    failed: tuple[tuple[CardId, ...], ...]
    scores: tuple[int, ...]


Event = (
    RoundStarted
    | HandDealt
    | TurnBegan
    | CardPlayed
    | CardGiven
    | CardTaken
    | RoundEnded
    | PlayerConceded
    | GameEnded
)
