"""The Visions table: the secrets (deck, hands, nightmares) and the open River and dreams."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.visions.cards import CARDS, DREAMS, CardId
from domain.kernel import Seat

Phase = Literal["setup", "play", "echo", "refill", "over"]
"""play: the player places a card; echo: after an Echo, another card or end the turn;
refill: `refilling[0]` draws from the River; over: the game has ended."""

Reflection = Literal["same_position", "whole_dream"]


class Options(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    reflection: Reflection = "same_position"
    """same_position: the new card is compared with the card at the same position in the
    other dream (facts file); whole_dream: with every card of the other dream (one colour
    and one symbol match at most)."""
    nightmare_by_choice: bool = False
    """False: a nightmare only when no card can be placed (the page); True: at will
    (the facts file's reading)."""
    reflection_feeds_river: bool = True
    """Each step moved on the Reflection Track adds a card from the deck to the River."""


class Slot(msgspec.Struct, frozen=True):
    """A card of a dream; a nightmare lies face down."""

    card: CardId
    nightmare: bool = False


class State(msgspec.Struct):
    seats: int
    options: Options
    phase: Phase = "setup"
    player: Seat = 0
    deck: tuple[CardId, ...] = ()
    """Face down (sorted: drawn at random)."""
    river: tuple[CardId, ...] = ()
    hands: tuple[tuple[CardId, ...], ...] = ()
    dreams: tuple[tuple[tuple[Slot, ...], ...], ...] = ()
    """Per seat, its two dreams, first card first."""
    track: tuple[int, ...] = ()
    refilling: tuple[Seat, ...] = ()
    open_hands: tuple[CardId, ...] = ()
    """Hand cards everyone saw taken from the River (sorted); a theft or a nightmare
    makes a card secret again."""
    stolen: tuple[tuple[Seat, Seat, CardId], ...] = ()
    """(thief, victim, card) still in the thief's hand: the victim knows it."""
    scores: tuple[int, ...] = ()
    woke: Seat | None = None


def initial(options: Options, seats: int) -> State:
    return State(
        seats=seats,
        options=options,
        deck=tuple(sorted(CARDS)),
        hands=tuple(() for _ in range(seats)),
        dreams=tuple(tuple(() for _ in range(DREAMS)) for _ in range(seats)),
        track=tuple(0 for _ in range(seats)),
    )
