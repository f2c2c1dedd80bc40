"""The table: the dial, the discarded sets, the scores; secrets grouped in `hands` and `pile`."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.games.epizodiak.tiles import PLAYERS, TileId, Value
from domain.kernel import Rejected, Seat, one_of

Mode = Literal["score", "one_round"]

Phase = Literal["turn", "drawn", "picked_up", "contested", "over"]
"""Where the player to act stands in their turn.

turn: nothing done yet. drawn: drew from the pile (may place, discard or pass).
picked_up: took back the previous player's last tile (must place or discard).
contested: won a contest (must place or discard). over: the match has ended.
"""


TARGETS = (7, 13)


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """`score` plays rounds until someone reaches `target` points (7, or 13);
    `one_round` stops when the first hand is empty."""

    mode: Mode = "score"
    target: Annotated[int, one_of(*TARGETS)] = 7


def check_options(options: Options, seats: int) -> None:
    if seats != PLAYERS:
        raise Rejected("bad_seat_count", "EpiZodiak is played by exactly three players.")
    if options.target not in TARGETS:
        raise Rejected("bad_target", f"The target score is 7 or 13 points, not {options.target}.")


def _empty_dial() -> list[TileId | None]:
    return [None] * 12


class State(msgspec.Struct):
    options: Options
    round: int = 0
    # secrets
    hands: list[list[TileId]] = []  # each sorted
    pile: list[TileId] = []  # top first
    # public
    dial: list[TileId | None] = msgspec.field(default_factory=_empty_dial)
    sets: list[list[Value]] = []  # values of the sets each seat discarded this round
    scores: list[int] = []
    current: Seat = 0
    phase: Phase = "turn"
    passes: int = 0  # turns skipped in a row with no draw pile
    pickable: TileId | None = None  # the tile the previous player placed last, if any
    picked: TileId | None = None  # the tile picked up this turn (it cannot go back)
    emptier: Seat | None = None  # who emptied their hand in the last finished round


def initial(options: Options, seats: int) -> State:
    """The empty table: nothing dealt, no sets, no points."""
    return State(
        options=options,
        hands=[[] for _ in range(seats)],
        sets=[[] for _ in range(seats)],
        scores=[0] * seats,
    )
