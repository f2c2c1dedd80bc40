"""What happened at a Carnuta table, one Struct per event (all public: market cards are
dealt face up, and a hand holds only cards taken from the market in view of all)."""

from __future__ import annotations

import msgspec

from domain.games.carnuta.cards import CardId
from domain.games.carnuta.state import ScoreSheet
from domain.kernel import Seat


class StartingCardDealt(
    msgspec.Struct, tag="carnuta.starting_card_dealt", tag_field="type", frozen=True
):
    seat: Seat
    card: CardId


class RowFilled(msgspec.Struct, tag="carnuta.row_filled", tag_field="type", frozen=True):
    row: str
    card: CardId


class TurnBegan(msgspec.Struct, tag="carnuta.turn_began", tag_field="type", frozen=True):
    seat: Seat
    round: int


class CardTaken(msgspec.Struct, tag="carnuta.card_taken", tag_field="type", frozen=True):
    seat: Seat
    card: CardId
    row: str


class CardPlayed(msgspec.Struct, tag="carnuta.card_played", tag_field="type", frozen=True):
    """Paid by flipping `flipped` and discarding `discarded` (symbols as they showed)."""

    seat: Seat
    card: CardId
    flipped: tuple[str, ...]
    discarded: tuple[str, ...]


class SlotOpened(msgspec.Struct, tag="carnuta.slot_opened", tag_field="type", frozen=True):
    seat: Seat
    slots: int


class TokenEarned(msgspec.Struct, tag="carnuta.token_earned", tag_field="type", frozen=True):
    seat: Seat


class TokenPicked(msgspec.Struct, tag="carnuta.token_picked", tag_field="type", frozen=True):
    seat: Seat
    ingredient: str


class RunesTaken(msgspec.Struct, tag="carnuta.runes_taken", tag_field="type", frozen=True):
    seat: Seat
    symbol: str
    count: int


class RunesFlipped(msgspec.Struct, tag="carnuta.runes_flipped", tag_field="type", frozen=True):
    seat: Seat
    symbol: str
    count: int


class SickleUsed(msgspec.Struct, tag="carnuta.sickle_used", tag_field="type", frozen=True):
    """The row's cards leave the game; the row is dealt anew."""

    seat: Seat
    row: str
    cleared: tuple[CardId, ...]


class EndTriggered(msgspec.Struct, tag="carnuta.end_triggered", tag_field="type", frozen=True):
    """`seat` has an 11th card: the game ends after round `last_round`."""

    seat: Seat
    last_round: int


class PlayerConceded(msgspec.Struct, tag="carnuta.player_conceded", tag_field="type", frozen=True):
    seat: Seat


class GameEnded(msgspec.Struct, tag="carnuta.game_ended", tag_field="type", frozen=True):
    sheets: tuple[ScoreSheet, ...]


Event = (
    StartingCardDealt
    | RowFilled
    | TurnBegan
    | CardTaken
    | CardPlayed
    | SlotOpened
    | TokenEarned
    | TokenPicked
    | RunesTaken
    | RunesFlipped
    | SickleUsed
    | EndTriggered
    | PlayerConceded
    | GameEnded
)
