"""The table: the secrets (hands, deck, the card set aside) and what lies open."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.loveletter.cards import CardId
from domain.kernel import Seat
from domain.table import next_seat

Phase = Literal["setup", "turn", "bishop", "between_rounds", "over"]
"""setup: nothing dealt yet; turn: `turn` plays a card; bishop: `chooser` keeps or
discards after a right Bishop guess; between_rounds: `starter` starts the next round."""

TOKENS_TO_WIN: dict[int, int] = {2: 7, 3: 5, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4}
"""Rule (seed 001, Winning): tokens of affection needed, by number of players."""


class Options(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    two_player_face_up: bool = True
    """Two players: set three more cards aside face up each round (printed rules)."""


class JesterBet(msgspec.Struct, frozen=True):
    player: Seat
    target: Seat


class State(msgspec.Struct):
    seats: int
    premium: bool  # the 32-card deck (5-8 players)
    tokens_to_win: int
    options: Options
    phase: Phase
    round: int
    turn: Seat | None
    # The secrets.
    hands: list[list[CardId]]
    deck: list[CardId]  # top first
    set_aside: CardId | None
    known: list[list[CardId]]  # per seat: cards seen in other hands this round (sorted)
    # The open table.
    face_up: list[CardId]
    discards: list[list[CardId]]
    out: list[bool]  # out of this round (knocked out, or left the table)
    protected: list[bool]  # by the Handmaid, until that player's next turn
    tokens: list[int]
    gone: list[bool]  # conceded: no longer dealt in
    marked: Seat | None  # the Sycophant's choice, for the next card played
    jester: JesterBet | None
    chooser: Seat | None  # who decides after a right Bishop guess
    starter: Seat | None  # who starts the next round
    showdown: bool  # the round ended by comparing hands: every hand lies open
    winners: list[Seat]


def in_round(state: State) -> list[Seat]:
    """The players still in the round, in seat order."""
    return [s for s in range(state.seats) if not state.out[s]]


def next_in_round(state: State, after: Seat) -> Seat:
    """The next player still in the round after `after`, clockwise."""
    return next_seat(after, state.seats, lambda seat: not state.out[seat])


def next_at_table(state: State, start: Seat) -> Seat:
    """`start` or the first player after it who has not left the table."""
    return next_seat(start, state.seats, lambda seat: not state.gone[seat], inclusive=True)
