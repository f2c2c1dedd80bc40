"""The Scripta table: the deck (secret), the face-up discard pile, each secret hand."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.games.scripta.cards import CARDS, CardId
from domain.kernel import Seat

Phase = Literal["setup", "draw", "discard", "over"]
Win = Literal["same_number", "straight", "sum", "highest_hand"]
"""How the game ended: one of the page's three ways, or (house) the deck or the rounds
ran out and the highest hand won."""


class ScriptaOptions(msgspec.Struct, forbid_unknown_fields=True):
    rounds: Annotated[int, msgspec.Meta(ge=1, le=50)] = 20
    """House-made: if nobody has won after this many rounds, the highest hand wins."""


class Table(msgspec.Struct):
    seats: int
    options: ScriptaOptions
    deck: list[CardId]
    """Sorted; cards are drawn at random, so which is on top is unknown to all."""
    hands: list[list[CardId]]
    discards: list[CardId] = []
    """Face up, the top card last."""
    seen: list[CardId] = []
    """Cards in hands that everyone saw taken from the discard pile (sorted)."""
    phase: Phase = "setup"
    player: Seat = 0
    round: int = 0
    conceded: list[Seat] = []
    met: dict[int, Win] = {}
    """Seats whose hand met a way to win this round (the round is played out), and how."""
    winners: list[Seat] = []
    shown: list[list[CardId]] = []
    """The hands laid down when the game ended."""


def initial(options: ScriptaOptions, seats: int) -> Table:
    return Table(seats=seats, options=options, deck=sorted(CARDS), hands=[[] for _ in range(seats)])
