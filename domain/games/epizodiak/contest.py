"""Contests and forced play, once the draw pile is gone.

Rules (seed 004): when two players in a row have passed, the third, if they hold no
tile of a value the dial is waiting for, may contest that value (choosing when both
ends qualify). The four tiles of that value leave the other hands: three are discarded
as a set, the fourth becomes the contester's single tile, and the contester then plays.
If nobody contests, passes stop at three: the first to have passed must place.
"""

from __future__ import annotations

from domain.games.epizodiak.commands import Contest
from domain.games.epizodiak.dial import ends
from domain.games.epizodiak.events import ValueContested
from domain.games.epizodiak.state import State
from domain.games.epizodiak.tiles import SET_SIZE, TileId, Value, value_of
from domain.games.epizodiak.turn import singles
from domain.kernel import Rejected, Seat


def contest_open(state: State) -> bool:
    """No draw pile, nothing done yet this turn, and the last two turns were passed."""
    return state.phase == "turn" and not state.pile and state.passes >= 2


def claimed_tiles(state: State, seat: Seat, value: Value) -> list[TileId]:
    """The tiles of `value` in the other players' hands, lowest id first."""
    return sorted(
        t
        for other, hand in enumerate(state.hands)
        if other != seat
        for t in hand
        if value_of(t) == value
    )


def would_empty_a_hand(state: State, seat: Seat, value: Value) -> bool:
    """A contest may not take an opponent's last tiles."""
    return any(
        other != seat and all(value_of(t) == value for t in hand)
        for other, hand in enumerate(state.hands)
    )


def why_not(state: State, seat: Seat, value: Value) -> Rejected | None:
    """The reason `seat` may not contest `value` now, or None if it may."""
    if not contest_open(state):
        return Rejected(
            "no_contest_now",
            "A contest needs an empty draw pile and the two previous turns passed.",
        )
    if value not in ends(state.dial):
        return Rejected("value_not_playable", f"The dial is not waiting for a {value}.")
    if any(value_of(t) == value for t in state.hands[seat]):
        return Rejected("value_in_hand", f"You hold a {value} yourself; you cannot contest it.")
    if value in singles(state):
        return Rejected("set_already_discarded", f"The set of {value} is already discarded.")
    if len(claimed_tiles(state, seat, value)) != SET_SIZE + 1:
        return Rejected("set_not_in_hands", f"The four {value} are not all in the other hands.")
    if would_empty_a_hand(state, seat, value):
        return Rejected(
            "would_empty_a_hand", f"Taking the {value}s would leave an opponent with no tile."
        )
    return None


def contestable(state: State, seat: Seat) -> list[Contest]:
    if not contest_open(state):
        return []
    return [Contest(value=v) for v in ends(state.dial) if why_not(state, seat, v) is None]


def contest(state: State, seat: Seat, command: Contest) -> list[ValueContested]:
    reason = why_not(state, seat, command.value)
    if reason is not None:
        raise reason
    tiles = claimed_tiles(state, seat, command.value)
    taken = tuple(
        0 if other == seat else sum(1 for t in hand if t in tiles)
        for other, hand in enumerate(state.hands)
    )
    return [
        ValueContested(
            seat=seat,
            value=command.value,
            taken=taken,
            discarded=tuple(tiles[:SET_SIZE]),
            kept=tiles[SET_SIZE],
        )
    ]
