"""The Beyond table: the secret pile, the open discard, each player's area and Stock."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.beyond.cards import (
    CARDS,
    LOTUS_TOKENS,
    NIAN_SHOU,
    STARTING_LOTUS,
    CardId,
    Spirit,
)
from domain.games.beyond.events import ScoreSheet
from domain.kernel import Seat

Phase = Literal["setup", "opening", "reveal", "place", "act", "choose", "over"]
"""opening: a seat places its starting hand; reveal, place, act: the turn's three phases;
choose: a summoning turned up cards to pick from; over: scored."""


class Options(msgspec.Struct, forbid_unknown_fields=True):
    advanced: bool = False
    """The advanced mode: protection tokens and spirit summoning."""


class Area(msgspec.Struct):
    """One player's side of the table (all of it open)."""

    spirits: list[CardId] = []
    """Spirit side up in the play area, not in an enchanted pattern."""
    stock: list[CardId] = []
    """Capture side up on the Stock card (at most 4)."""
    enchanted: dict[str, list[CardId]] = {}
    """Enchanted spirit -> the 4 cards of its pattern."""
    nian_shou: list[CardId] = []
    lotus: int = 0
    """Lotus tokens in the player's reserve."""
    protected: list[CardId] = []
    """Spirit cards carrying one of the player's Lotus tokens (advanced mode)."""
    summoned: list[Spirit] = []
    """Enchanted spirits with a Lotus token on their centre (advanced mode)."""


class State(msgspec.Struct):
    seats: int
    options: Options
    pile: list[CardId]
    """The draw pile, top card last (secret)."""
    areas: list[Area]
    hands: list[list[CardId]]
    """Starting hands not placed yet (secret from the others)."""
    nian_supply: list[CardId]
    lotus_supply: int
    discard: list[CardId] = []
    second_pile: bool = False
    """The discard has been shuffled into the second draw pile."""
    phase: Phase = "setup"
    player: Seat = 0
    revealed: list[CardId] = []
    collected: list[CardId] = []
    turned_up: list[CardId] = []
    ending: bool = False
    conceded: list[Seat] = []
    sheets: list[ScoreSheet] = []
    nian_shou_winner: Seat | None = None


def initial(options: Options, seats: int) -> State:
    """All 80 cards in the pile (unshuffled), the Nian Shou in the centre, 2 Lotus tokens
    each and the rest in the supply."""
    return State(
        seats=seats,
        options=options,
        pile=sorted(CARDS),
        areas=[Area(lotus=STARTING_LOTUS) for _ in range(seats)],
        hands=[[] for _ in range(seats)],
        nian_supply=list(NIAN_SHOU),
        lotus_supply=LOTUS_TOKENS - STARTING_LOTUS * seats,
    )
