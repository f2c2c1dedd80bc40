"""decide, evolve, legal: the turn (turn.py), contests (contest.py), rounds (round_end.py).

After every command the table settles by itself (`settle`): a player who drew and can
neither place nor discard passes automatically; a contested value that is the dial's
last empty place is placed automatically; an empty hand ends the round; a full dial is
refilled; a player forced to place who cannot (and cannot contest) is skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.games.epizodiak import contest as contests
from domain.games.epizodiak import turn
from domain.games.epizodiak.commands import (
    Command,
    Contest,
    DiscardSet,
    Draw,
    Pass,
    PickUp,
    Place,
)
from domain.games.epizodiak.dial import end_value, is_full, open_places
from domain.games.epizodiak.events import (
    DialRefilled,
    Event,
    RoundDealt,
    RoundEnded,
    SetDiscarded,
    TileDrawn,
    TilePickedUp,
    TilesPlaced,
    TurnPassed,
    ValueContested,
)
from domain.games.epizodiak.round_end import deal, end_round, refill
from domain.games.epizodiak.state import State
from domain.games.epizodiak.tiles import PLAYERS, value_of
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys

Move = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

# --- setup ---------------------------------------------------------------------------


def start(state: State, rng: Rng) -> Move:
    """Round one: a random first player, then the deal."""
    first = rng.below(PLAYERS)
    move = Move(state, evolve)
    move.record(deal(1, first, rng))
    return move


# --- decide --------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Move:
    if state.phase == "over":
        raise Rejected("game_over", "The match is over.")
    if seat != state.current:
        raise Rejected("not_your_turn", f"It is seat {state.current + 1}'s turn, not yours.")
    events: Sequence[Event]
    match command:
        case Draw():
            events = turn.draw(state, seat)
        case PickUp():
            events = turn.pick_up(state, seat)
        case Place():
            events = turn.place(state, seat, command)
        case DiscardSet():
            events = turn.discard_set(state, seat, command)
        case Pass():
            events = turn.pass_turn(state, seat, command)
        case Contest():
            events = contests.contest(state, seat, command)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not an EpiZodiak move.")
    move = Move(state, evolve)
    move.record(*events)
    settle(move, rng)
    return move


def settle(move: Move, rng: Rng) -> None:
    """What the table does by itself after the command's events."""
    seat = move.state.current
    drawn = move.state.phase == "drawn"
    if drawn and not (turn.placements(move.state, seat) or turn.discards(move.state, seat)):
        move.record(TurnPassed(seat=seat, automatic=True))
    if move.state.phase == "contested" and open_places(move.state.dial) == 1:
        end = end_value(move.state.dial, "clockwise") or 0
        kept = turn.placeable(move.state, seat, end)[0]
        move.record(
            TilesPlaced(seat=seat, direction="clockwise", values=(value_of(kept),), tiles=(kept,))
        )
    emptier = next((s for s, hand in enumerate(move.state.hands) if not hand), None)
    if emptier is not None:
        ended = end_round(move.state, emptier)
        move.record(ended)
        if not ended.game_over:
            move.record(deal(move.state.round + 1, (emptier + 1) % PLAYERS, rng))
        sweep(move)
        return
    if is_full(move.state.dial):
        move.record(refill(move.state, rng))
        sweep(move)
        return
    for _ in range(PLAYERS):
        seat = move.state.current
        if not turn.is_forced(move.state) or turn.placements(move.state, seat):
            break
        if contests.contestable(move.state, seat):
            break
        move.record(TurnPassed(seat=seat, automatic=True))


def sweep(move: Move) -> None:
    """Mark the tiles that left the table again in this move (their ids become secret).

    The mark is known only once the move is over; `evolve` never reads it (only `redact`
    does), so the events are marked where they were recorded and the table after them
    stands.
    """
    move.events[:] = [
        msgspec.structs.replace(event, swept=True)
        if isinstance(event, TilePickedUp | TilesPlaced | SetDiscarded | ValueContested)
        else event
        for event in move.events
    ]


# --- evolve --------------------------------------------------------------------------


def _next_turn(state: State, seat: Seat, **changes: Any) -> State:
    return msgspec.structs.replace(
        state,
        current=(seat + 1) % PLAYERS,
        phase="turn",
        picked=None,
        pickable=None,
        **changes,
    )


def _without(hand: list[str], tiles: Sequence[str]) -> list[str]:
    return [t for t in hand if t not in tiles]


def evolve(state: State, event: Event) -> State:
    match event:
        case RoundDealt(round=number, first=first, hands=dealt, pile=pile, flipped=flipped):
            dial: list[str | None] = [None] * 12
            dial[value_of(flipped) - 1] = flipped
            return msgspec.structs.replace(
                state,
                round=number,
                hands=[sorted(h or ()) for h in dealt],
                pile=list(pile or ()),
                dial=dial,
                sets=[[] for _ in dealt],
                current=first,
                phase="turn",
                passes=0,
                pickable=None,
                picked=None,
            )
        case TileDrawn(seat=seat, tile=tile):
            hands = list(state.hands)
            hands[seat] = sorted([*hands[seat], tile or ""])
            return msgspec.structs.replace(state, hands=hands, pile=state.pile[1:], phase="drawn")
        case TilePickedUp(seat=seat, tile=tile):
            return turn.with_tile_picked_up(state, seat, tile or "")
        case TilesPlaced(seat=seat, tiles=tiles):
            placed = tiles or ()
            hands = list(state.hands)
            hands[seat] = _without(hands[seat], placed)
            dial = list(state.dial)
            for tile in placed:
                dial[value_of(tile) - 1] = tile
            after = _next_turn(state, seat, hands=hands, dial=dial, passes=0)
            return msgspec.structs.replace(after, pickable=placed[-1] if placed else None)
        case SetDiscarded(seat=seat, value=value, tiles=tiles):
            hands = list(state.hands)
            hands[seat] = _without(hands[seat], tiles or ())
            sets = list(state.sets)
            sets[seat] = [*sets[seat], value]
            return _next_turn(state, seat, hands=hands, sets=sets, passes=0)
        case TurnPassed(seat=seat):
            passes = state.passes + 1 if state.phase == "turn" else state.passes
            return _next_turn(state, seat, passes=passes)
        case ValueContested(seat=seat, value=value, discarded=discarded, kept=kept):
            gone = (*discarded, kept or "")
            hands = [_without(hand, gone) for hand in state.hands]
            hands[seat] = sorted([*hands[seat], kept or ""])
            sets = list(state.sets)
            sets[seat] = [*sets[seat], value]
            return msgspec.structs.replace(
                state, hands=hands, sets=sets, passes=0, pickable=None, phase="contested"
            )
        case DialRefilled(pile=pile, flipped=flipped):
            dial = [None] * 12
            dial[value_of(flipped) - 1] = flipped
            return msgspec.structs.replace(
                state, dial=dial, pile=list(pile or ()), pickable=None, passes=0
            )
        case RoundEnded(emptier=emptier, totals=totals, game_over=over):
            return msgspec.structs.replace(
                state,
                scores=list(totals),
                emptier=emptier,
                phase="over" if over else state.phase,
            )
        case _:
            raise TypeError(f"not an EpiZodiak event: {event!r}")


# --- legal, to_act, outcome ----------------------------------------------------------


def legal(state: State, seat: Seat) -> list[Command]:
    if state.phase == "over" or seat != state.current:
        return []
    out: list[Command] = []
    if state.phase == "turn":
        if state.pile:
            out.append(Draw())
        if turn.can_pick_up(state, seat):
            out.append(PickUp())
        out += contests.contestable(state, seat)
    out += turn.placements(state, seat)
    out += turn.discards(state, seat)
    if turn.may_pass(state):
        out.append(Pass())
    return out


def to_act(state: State) -> frozenset[Seat]:
    return frozenset() if state.phase == "over" else frozenset({state.current})


def outcome(state: State) -> Outcome | None:
    if state.phase != "over":
        return None
    keys = [(score, 1 if seat == state.emptier else 0) for seat, score in enumerate(state.scores)]
    return Outcome(scores=tuple(state.scores), ranks=ranks_from_keys(keys))
