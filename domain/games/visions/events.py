"""What happened at a Visions table. Secret: dealt cards, nightmares, stolen cards."""

from __future__ import annotations

import msgspec

from domain.games.visions.cards import CardId
from domain.kernel import Seat


class E(msgspec.Struct, frozen=True, tag_field="type"):
    """Base of the events (frozen, tagged)."""


class CardsDealt(E, frozen=True, tag="visions.cards_dealt"):
    """`cards` is empty for everyone but the player dealt."""

    seat: Seat
    count: int
    cards: tuple[CardId, ...] = ()


class RiverFilled(E, frozen=True, tag="visions.river_filled"):
    """Cards from the deck laid face up in the River."""

    cards: tuple[CardId, ...]


class TurnBegan(E, frozen=True, tag="visions.turn_began"):
    seat: Seat


class CardPlayed(E, frozen=True, tag="visions.card_played"):
    seat: Seat
    card: CardId
    dream: int


class ReflectionMoved(E, frozen=True, tag="visions.reflection_moved"):
    seat: Seat
    steps: int


class EchoTriggered(E, frozen=True, tag="visions.echo_triggered"):
    seat: Seat


class NightmarePlayed(E, frozen=True, tag="visions.nightmare_played"):
    """`card` is None for everyone but its player."""

    seat: Seat
    dream: int
    card: CardId | None = None


class CardStolen(E, frozen=True, tag="visions.card_stolen"):
    """`card` is None for everyone but the thief and the victim."""

    seat: Seat
    target: Seat
    card: CardId | None = None


class RefillBegan(E, frozen=True, tag="visions.refill_began"):
    """These seats, in order, draw back up to 3 from the River."""

    seats: tuple[Seat, ...]


class CardTaken(E, frozen=True, tag="visions.card_taken"):
    seat: Seat
    card: CardId


class RefillEnded(E, frozen=True, tag="visions.refill_ended"):
    seat: Seat


class GameEnded(E, frozen=True, tag="visions.game_ended"):
    """`woke` is the player who reached the end of the Reflection Track, if one did."""

    scores: tuple[int, ...]
    woke: Seat | None = None


Event = (
    CardsDealt
    | RiverFilled
    | TurnBegan
    | CardPlayed
    | ReflectionMoved
    | EchoTriggered
    | NightmarePlayed
    | CardStolen
    | RefillBegan
    | CardTaken
    | RefillEnded
    | GameEnded
)
