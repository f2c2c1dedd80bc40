"""The 3-13 table: options and state. Secrets are the hands and the draw pile."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.kernel import Rejected, Seat, between

from .cards import ROUNDS, CardId
from .events import ScoredHand

Phase = Literal["dealing", "draw", "discard", "scoring", "round_over", "game_over"]
"""`dealing`: nothing dealt yet; `scoring`: only between a round's last event and its score."""


class Options(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    empty_stock: Literal["reshuffle", "end_round"] = "reshuffle"
    """When the draw pile runs out: rebuild it from the discard pile (ASSUMPTION, the
    default), or end the round at the end of that turn with nobody out (a variant)."""
    wild_melds: bool = True
    """Whether three or more wild cards alone make a meld (ASSUMPTION: yes)."""
    first_round: Annotated[int, between(1, ROUNDS)] = 1
    """A shorter game may start at a later round (1 = threes wild, 3 cards)."""
    last_round: Annotated[int, between(1, ROUNDS)] = ROUNDS
    """... or stop before round 11 (Kings wild, 13 cards)."""


def check_options(options: Options, seats: int) -> None:
    if not 1 <= options.first_round <= options.last_round <= ROUNDS:
        raise Rejected(
            "bad_rounds",
            f"The rounds played must run from 1 to {ROUNDS}, first before last; "
            f"not {options.first_round} to {options.last_round}.",
        )


class State(msgspec.Struct):
    seats: int
    options: Options
    phase: Phase = "dealing"
    round: int = 0
    starter: Seat = 0
    turn: Seat = 0
    hands: list[list[CardId]] = []
    """Secret: each player's cards (the conceded keep theirs face down, out of play)."""
    known: list[list[CardId]] = []
    """Public: the cards in each hand that were taken from the discard pile."""
    stock: list[CardId] = []
    """Secret: the draw pile, drawn from the end."""
    discard: list[CardId] = []
    """The discard pile, its top card at the end."""
    went_out: Seat | None = None
    laid_down: list[list[CardId]] = []
    """The melds of the player who went out, face up."""
    totals: list[int] = []
    round_points: list[list[int | None]] = []
    """Points per round per seat (None: the seat had conceded)."""
    result: list[ScoredHand] = []
    """The last scored round's hands, laid open."""
    conceded: list[Seat] = []
