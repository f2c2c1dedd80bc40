"""What happened at a Gallery Gambit table. Hands and deck draws are private: the others
see `None` where a card is hidden (see view.redact)."""

from __future__ import annotations

import msgspec

from domain.games.gallerygambit.cards import CardId
from domain.games.gallerygambit.state import ScoreSheet
from domain.kernel import Seat


class HandDealt(msgspec.Struct, tag="gallerygambit.hand_dealt", tag_field="type", frozen=True):
    seat: Seat
    cards: tuple[CardId | None, ...]


class MarketFilled(
    msgspec.Struct, tag="gallerygambit.market_filled", tag_field="type", frozen=True
):
    card: CardId


class TurnBegan(msgspec.Struct, tag="gallerygambit.turn_began", tag_field="type", frozen=True):
    seat: Seat
    take: bool
    """False when nothing is left to take: the player only hangs."""


class CardTaken(msgspec.Struct, tag="gallerygambit.card_taken", tag_field="type", frozen=True):
    """From the market (public) or the deck (`from_deck`: the card is the taker's secret)."""

    seat: Seat
    card: CardId | None
    from_deck: bool


class CardHung(msgspec.Struct, tag="gallerygambit.card_hung", tag_field="type", frozen=True):
    seat: Seat
    card: CardId
    wall: int


class PlayerConceded(
    msgspec.Struct, tag="gallerygambit.player_conceded", tag_field="type", frozen=True
):
    seat: Seat


class GameEnded(msgspec.Struct, tag="gallerygambit.game_ended", tag_field="type", frozen=True):
    sheets: tuple[ScoreSheet, ...]


Event = HandDealt | MarketFilled | TurnBegan | CardTaken | CardHung | PlayerConceded | GameEnded
