"""Dealing, refilling the dial, and scoring a round.

Rules (seed 004): twelve tiles to each player, twelve form the pile, whose first tile
is turned onto the dial. A full dial is shuffled with what is left of the pile into a
new pile, and one tile is turned over again. When a hand is empty the round is scored:
in the rounds mode the player who emptied it scores one point per set they discarded,
and the first to reach the target wins; in the one-round mode everyone scores their
sets and the player who emptied their hand scores three more.
"""

from __future__ import annotations

from domain.games.epizodiak.events import DialRefilled, RoundDealt, RoundEnded
from domain.games.epizodiak.state import State
from domain.games.epizodiak.tiles import HAND_SIZE, PLAYERS, TILES, TileId
from domain.kernel import Rng, Seat

EMPTIED_HAND_BONUS = 3  # one-round mode only


def deal(round_number: int, first: Seat, rng: Rng) -> RoundDealt:
    tiles = rng.shuffled(TILES)
    hands = tuple(tuple(sorted(tiles[i * HAND_SIZE : (i + 1) * HAND_SIZE])) for i in range(PLAYERS))
    rest = tiles[PLAYERS * HAND_SIZE :]
    return RoundDealt(
        round=round_number,
        first=first,
        hands=hands,
        pile=tuple(rest[1:]),
        pile_size=len(rest) - 1,
        flipped=rest[0],
    )


def refill(state: State, rng: Rng) -> DialRefilled:
    """The full dial and the rest of the pile, shuffled; one tile turned over."""
    gathered: list[TileId] = [t for t in state.dial if t is not None] + list(state.pile)
    shuffled = rng.shuffled(gathered)
    return DialRefilled(pile=tuple(shuffled[1:]), pile_size=len(shuffled) - 1, flipped=shuffled[0])


def round_points(state: State, emptier: Seat) -> tuple[int, ...]:
    if state.options.mode == "one_round":
        return tuple(
            len(sets) + (EMPTIED_HAND_BONUS if seat == emptier else 0)
            for seat, sets in enumerate(state.sets)
        )
    return tuple(len(sets) if seat == emptier else 0 for seat, sets in enumerate(state.sets))


def end_round(state: State, emptier: Seat) -> RoundEnded:
    points = round_points(state, emptier)
    totals = tuple(a + b for a, b in zip(state.scores, points, strict=True))
    over = state.options.mode == "one_round" or totals[emptier] >= state.options.target
    return RoundEnded(emptier=emptier, points=points, totals=totals, game_over=over)
