"""A turn: draw, pick up, place a run, discard a set, or pass.

Rules (seed 004, "Coups autorisés"): place a tile or a run at either end of the dial,
or discard a set, or draw. Whoever can neither place nor discard must draw. After a
draw one may place, discard or pass. The last tile the previous player placed may be
picked up, but a place or a discard must follow. Without a draw pile one may pass
instead of drawing, except while holding an immediately playable single tile.
"""

from __future__ import annotations

from collections import Counter

import msgspec

from domain.games.epizodiak.commands import DiscardSet, Pass, Place
from domain.games.epizodiak.dial import DIRECTIONS, Direction, end_value, ends, step
from domain.games.epizodiak.events import (
    SetDiscarded,
    TileDrawn,
    TilePickedUp,
    TilesPlaced,
    TurnPassed,
)
from domain.games.epizodiak.state import State
from domain.games.epizodiak.tiles import SET_SIZE, TileId, Value, value_of
from domain.kernel import Rejected, Seat

# --- predicates ----------------------------------------------------------------------


def singles(state: State) -> frozenset[Value]:
    """Values whose set was discarded this round: their fourth tile is a single tile."""
    return frozenset(v for discarded in state.sets for v in discarded)


def placeable(state: State, seat: Seat, value: Value) -> list[TileId]:
    """The seat's tiles of `value` it may place now: never the tile it just picked up."""
    return [t for t in state.hands[seat] if value_of(t) == value and t != state.picked]


def open_directions(state: State) -> tuple[Direction, ...]:
    """After a pick-up only the other end of the dial is open; otherwise both ends."""
    if state.phase != "picked_up" or state.picked is None:
        return DIRECTIONS
    taken = value_of(state.picked)
    return tuple(d for d in DIRECTIONS if end_value(state.dial, d) != taken)


def is_forced(state: State) -> bool:
    """Nobody may pass a fourth time in a row: the player to act must place."""
    return state.phase == "turn" and not state.pile and state.passes >= 3


def longest_run(state: State, seat: Seat, direction: Direction) -> int:
    """How many consecutive tiles the seat could place from that end."""
    counts = Counter(value_of(t) for t in state.hands[seat] if t != state.picked)
    value = end_value(state.dial, direction)
    length = 0
    while value is not None and state.dial[value - 1] is None and counts[value] and length < 12:
        length += 1
        value = step(value, direction)
    return length


def holds_playable_single(state: State, seat: Seat) -> bool:
    """The seat holds the single tile of a value an end of the dial is waiting for."""
    waiting = set(ends(state.dial)) & singles(state)
    return any(value_of(t) in waiting for t in state.hands[seat])


def may_pass(state: State) -> bool:
    """After a draw, always; otherwise only without a pile, under three passes, no single."""
    if state.phase == "drawn":
        return True
    if state.phase != "turn" or state.pile or state.passes >= 3:
        return False
    return not holds_playable_single(state, state.current)


def with_tile_picked_up(state: State, seat: Seat, tile: TileId) -> State:
    """The table once `seat` has taken `tile` back from the dial into its hand."""
    dial = list(state.dial)
    dial[value_of(tile) - 1] = None
    hands = [list(h) for h in state.hands]
    hands[seat] = sorted([*hands[seat], tile])
    return msgspec.structs.replace(
        state, dial=dial, hands=hands, picked=tile, pickable=None, phase="picked_up"
    )


# --- what may be done (legal) --------------------------------------------------------


def placements(state: State, seat: Seat) -> list[Place]:
    out: list[Place] = []
    forced = is_forced(state)
    lonely = singles(state)
    for direction in open_directions(state):
        longest = longest_run(state, seat, direction)
        if longest and forced and end_value(state.dial, direction) in lonely:
            continue
        out += [Place(direction=direction, length=n) for n in range(1, longest + 1)]
    return out


def discards(state: State, seat: Seat) -> list[DiscardSet]:
    if is_forced(state):
        return []
    counts = Counter(value_of(t) for t in state.hands[seat])
    return [DiscardSet(value=v) for v in sorted(counts) if counts[v] >= SET_SIZE]


def can_pick_up(state: State, seat: Seat) -> bool:
    """The previous player's last tile is there, is not a single, and a move would follow."""
    tile = state.pickable
    if state.phase != "turn" or tile is None or value_of(tile) in singles(state):
        return False
    after = with_tile_picked_up(state, seat, tile)
    return bool(placements(after, seat) or discards(after, seat))


# --- the moves (decide) --------------------------------------------------------------


def pick_up(state: State, seat: Seat) -> list[TilePickedUp]:
    tile = state.pickable
    if state.phase != "turn":
        raise Rejected("already_acted", "You can only pick up a tile at the start of your turn.")
    if tile is None:
        raise Rejected(
            "nothing_to_pick_up",
            "Only the last tile the previous player placed may be picked up, and there is none.",
        )
    if value_of(tile) in singles(state):
        raise Rejected(
            "single_tile_stays",
            f"The {value_of(tile)} is a single tile (its set was discarded); it stays put.",
        )
    if not can_pick_up(state, seat):
        raise Rejected(
            "no_move_after_pick_up",
            "A pick-up must be followed by a place at the other end or a discard; "
            "you could do neither.",
        )
    return [TilePickedUp(seat=seat, value=value_of(tile), tile=tile)]


def place(state: State, seat: Seat, command: Place) -> list[TilesPlaced]:
    if command.length < 1:
        raise Rejected("empty_run", "A run holds at least one tile.")
    if command.direction not in open_directions(state):
        raise Rejected(
            "other_end_after_pick_up",
            "After a pick-up you place at the other end of the dial, not where the tile was.",
        )
    start = end_value(state.dial, command.direction)
    values: list[Value] = []
    value = start
    for _ in range(command.length):
        if value is None or state.dial[value - 1] is not None:
            raise Rejected(
                "run_blocked",
                f"A run of {command.length} {command.direction} runs into tiles on the dial.",
            )
        values.append(value)
        value = step(value, command.direction)
    if is_forced(state) and values[0] in singles(state):
        raise Rejected(
            "forced_play_not_single",
            "After three passes the forced play must start with a tile that is not single.",
        )
    tiles: list[TileId] = []
    for value in values:
        mine = placeable(state, seat, value)
        if not mine:
            back = state.picked is not None and value_of(state.picked) == value
            raise Rejected(
                "tile_not_in_hand",
                f"You hold no {value} to place"
                + (" (the tile you picked up cannot go back)." if back else "."),
            )
        tiles.append(mine[0])
    return [
        TilesPlaced(
            seat=seat, direction=command.direction, values=tuple(values), tiles=tuple(tiles)
        )
    ]


def discard_set(state: State, seat: Seat, command: DiscardSet) -> list[SetDiscarded]:
    if is_forced(state):
        raise Rejected(
            "forced_to_place", "After three passes in a row you must place a tile, not discard."
        )
    if not 1 <= command.value <= 12:
        raise Rejected("no_such_value", f"Tiles run from 1 to 12, there is no {command.value}.")
    mine = [t for t in state.hands[seat] if value_of(t) == command.value]
    if len(mine) < SET_SIZE:
        raise Rejected(
            "not_a_set", f"A set is three tiles of one value; you hold {len(mine)} {command.value}."
        )
    return [SetDiscarded(seat=seat, value=command.value, tiles=tuple(mine[:SET_SIZE]))]


def pass_turn(state: State, seat: Seat, command: Pass) -> list[TurnPassed]:
    if state.phase in ("picked_up", "contested"):
        raise Rejected(
            "must_play", "After a pick-up or a contest you must place a tile or discard a set."
        )
    if state.phase == "turn":
        if state.pile:
            raise Rejected(
                "must_draw",
                "While there is a draw pile you place, discard or draw; "
                "passing only comes after a draw.",
            )
        if state.passes >= 3:
            raise Rejected(
                "too_many_passes",
                "Three turns were passed in a row; this time you must place a tile.",
            )
        if holds_playable_single(state, seat):
            raise Rejected(
                "single_tile_must_be_played",
                "You hold a single tile the dial is waiting for; you cannot pass.",
            )
    return [TurnPassed(seat=seat)]


def draw(state: State, seat: Seat) -> list[TileDrawn]:
    if state.phase != "turn":
        raise Rejected("already_acted", "You may only draw at the start of your turn.")
    if not state.pile:
        raise Rejected("pile_empty", "The draw pile is empty; place, discard or pass instead.")
    return [TileDrawn(seat=seat, tile=state.pile[0])]
