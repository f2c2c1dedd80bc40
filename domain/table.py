"""Table mechanics that many games share: who sits next, the top of a deck, what
rebuilds an empty one. Small on purpose: a rule that differs from game to game stays
in that game, in its own words."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

from domain.kernel import Seat

T = TypeVar("T")


# --- seat order -------------------------------------------------------------------


def clockwise(seat: Seat, seats: int, *, inclusive: bool = False) -> Iterator[Seat]:
    """The seats in turn order after `seat`, once round the table, ending with `seat`
    itself (or starting with it when `inclusive`)."""
    first = 0 if inclusive else 1
    for step in range(first, first + seats):
        yield (seat + step) % seats


def next_seat(
    seat: Seat, seats: int, still_in: Callable[[Seat], bool], *, inclusive: bool = False
) -> Seat:
    """The first seat clockwise after `seat` (or from it, when `inclusive`) that is still
    in; `seat` itself when nobody is."""
    return next((s for s in clockwise(seat, seats, inclusive=inclusive) if still_in(s)), seat)


# --- decks and piles ---------------------------------------------------------------


def top_cards(deck: Sequence[T], count: int) -> tuple[T, ...]:
    """The top `count` cards of a face-down deck kept with its top card last, top first."""
    if count <= 0:
        return ()
    return tuple(reversed(deck[-count:]))


def under_the_tops(piles: Iterable[Sequence[T]]) -> list[T]:
    """Every card of these face-up piles but each pile's top (last) card: what most games
    shuffle into a new deck when the old one runs out."""
    return [card for pile in piles for card in pile[:-1]]
