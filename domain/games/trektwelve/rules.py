"""The trek: everybody writes the same roll, then the dice roll again.

decide + evolve + legal + to_act. Rule sentences cite seed 003 (Gamehelptrektwelve).
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from domain.games.trektwelve.board import largest, neighbours, trek_map
from domain.games.trektwelve.commands import Command, WriteNumber
from domain.games.trektwelve.events import (
    DiceRolled,
    Event,
    NumberWritten,
    TrekFinished,
    TrekkerLeft,
)
from domain.games.trektwelve.scoring import score
from domain.games.trektwelve.sheet import (
    BOXES_PER_OPTION,
    ONE_DIE_FACES,
    OPTIONS,
    ZERO_DIE_FACES,
    OptionName,
)
from domain.games.trektwelve.state import Options, Sheet, State, blank_sheet
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys

Turn = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

# --- setup -----------------------------------------------------------------------------


def initial(options: Options, seats: int) -> State:
    circles = trek_map(options.map).circles
    return State(
        options=options,
        seats=seats,
        sheets=[blank_sheet(circles) for _ in range(seats)],
        written=[False] * seats,
        left=[False] * seats,
    )


def start(state: State, rng: Rng) -> list[Event]:
    return [roll_dice(state, rng)]


def roll_dice(state: State, rng: Rng) -> DiceRolled:
    return DiceRolled(
        roll=state.roll + 1,
        zero_die=rng.choice(ZERO_DIE_FACES),
        one_die=rng.choice(ONE_DIE_FACES),
    )


# --- the numbers a roll offers ------------------------------------------------------------


def option_number(option: OptionName, dice: tuple[int, int]) -> int:
    """Rule: lower die, higher die, their difference, their sum or their product."""
    a, b = dice
    match option:
        case "lower":
            return min(a, b)
        case "higher":
            return max(a, b)
        case "difference":
            return abs(a - b)
        case "sum":
            return a + b
        case "product":
            return a * b


def option_open(sheet: Sheet, option: OptionName) -> bool:
    """Rule: an option may be used only while its row has a free box."""
    return sheet.ticks.get(option, 0) < BOXES_PER_OPTION


def writable(state: State, sheet: Sheet) -> list[int]:
    """Rule: the first number goes anywhere; later ones touch an already filled circle."""
    around = neighbours(state.options.map)
    empty = [c for c in range(len(sheet.numbers)) if not sheet.filled(c)]
    if len(empty) == len(sheet.numbers):
        return empty
    return [c for c in empty if any(sheet.filled(n) for n in around[c])]


def rope_candidates(
    state: State, sheet: Sheet, circle: int, number: int
) -> tuple[list[int], list[int]]:
    """Neighbours the new number must be roped to: a number one lower whose upward rope
    is free, and a number one higher whose downward rope is free."""
    around = neighbours(state.options.map)[circle]
    down = [n for n in around if sheet.numbers[n] == number - 1 and sheet.up[n] is None]
    up = [n for n in around if sheet.numbers[n] == number + 1 and sheet.down[n] is None]
    return down, up


def is_frown(state: State, circle: int, number: int) -> bool:
    """Rule: a number above 12 (above 6 in a thick circle) is not written: a frown is."""
    return number > largest(trek_map(state.options.map), circle)


# --- decide ---------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.over:
        raise Rejected("game_over", "The trek is over; nobody writes any more.")
    if not 0 <= seat < state.seats or state.left[seat]:
        raise Rejected("not_your_turn", f"Seat {seat + 1} is not trekking.")
    if state.written[seat]:
        raise Rejected(
            "already_written", "You have already written this roll; wait for the others."
        )
    if not isinstance(command, WriteNumber):
        raise Rejected("unknown_command", "On the trek you can only write a number.")
    turn = Turn(state, evolve)
    turn.record(write_number(state, seat, command))
    after_writing(turn, rng)
    return turn


def write_number(state: State, seat: Seat, command: WriteNumber) -> NumberWritten:
    sheet = state.sheets[seat]
    assert state.dice is not None
    if command.option not in OPTIONS:
        raise Rejected("no_such_option", f"There is no option called {command.option!r}.")
    if not option_open(sheet, command.option):
        raise Rejected(
            "option_closed",
            f"All {BOXES_PER_OPTION} boxes of the {command.option} row are ticked already.",
        )
    if not 0 <= command.circle < len(sheet.numbers):
        raise Rejected("no_such_circle", f"This map has no circle {command.circle}.")
    if sheet.filled(command.circle):
        raise Rejected("circle_filled", f"Circle {command.circle} is already filled.")
    if command.circle not in writable(state, sheet):
        raise Rejected(
            "not_next_to_a_filled_circle",
            f"Circle {command.circle} touches no filled circle; after the first number, "
            "each new one must touch one.",
        )
    number = option_number(command.option, state.dice)
    if is_frown(state, command.circle, number):
        if command.down is not None or command.up is not None:
            raise Rejected(
                "no_rope_from_a_frown",
                f"{number} is too big for circle {command.circle}: it becomes a frown, "
                "which joins no path.",
            )
        return NumberWritten(
            seat=seat, option=command.option, number=number, circle=command.circle, frown=True
        )
    down, up = rope_candidates(state, sheet, command.circle, number)
    check_rope("down", command.down, down, number - 1, command.circle)
    check_rope("up", command.up, up, number + 1, command.circle)
    return NumberWritten(
        seat=seat,
        option=command.option,
        number=number,
        circle=command.circle,
        down=command.down,
        up=command.up,
    )


def check_rope(
    side: str, chosen: int | None, candidates: list[int], wanted: int, circle: int
) -> None:
    """Rule: ropes to consecutive numbers are drawn at once; among several equal
    neighbours the trekker picks one."""
    if chosen is None and candidates:
        raise Rejected(
            "rope_required",
            f"Circle {circle} must be roped to a neighbouring {wanted}: choose {side} "
            f"from {candidates}.",
        )
    if chosen is not None and chosen not in candidates:
        raise Rejected(
            "no_such_rope",
            f"Circle {chosen} is not a free neighbouring {wanted} of circle {circle}.",
        )


def after_writing(turn: Turn, rng: Rng) -> None:
    """When everybody still trekking has written, the dice roll again (or the trek ends)."""
    after = turn.state
    if any(not after.written[s] and not after.left[s] for s in range(after.seats)):
        return
    if after.roll >= trek_map(after.options.map).circles:
        turn.record(TrekFinished(scores=final_scores(after)))
    else:
        turn.record(roll_dice(after, rng))


def final_scores(state: State) -> tuple[int, ...]:
    trek = trek_map(state.options.map)
    return tuple(score(sheet, trek).total for sheet in state.sheets)


def concede(state: State, seat: Seat, rng: Rng) -> Turn | None:
    """The trekker writes no more; the last one left ends the match (None)."""
    still = [s for s in range(state.seats) if not state.left[s]]
    if state.over or still == [seat]:
        return None
    turn = Turn(state, evolve)
    turn.record(TrekkerLeft(seat=seat))
    after_writing(turn, rng)
    return turn


def outcome(state: State) -> Outcome | None:
    """Highest total wins; equal totals share the rank; who left ranks below who finished."""
    if not state.over:
        return None
    keys = [(0 if state.left[s] else 1, state.scores[s]) for s in range(state.seats)]
    return Outcome(scores=state.scores, ranks=ranks_from_keys(keys))


# --- legal / to_act -------------------------------------------------------------------------


def to_act(state: State) -> frozenset[Seat]:
    """Rule: all trekkers write the same roll at once."""
    if state.over or state.dice is None:
        return frozenset()
    return frozenset(s for s in range(state.seats) if not state.written[s] and not state.left[s])


def legal(state: State, seat: Seat) -> list[Command]:
    return list(moves(state, seat))


def moves(state: State, seat: Seat) -> Iterator[WriteNumber]:
    """Every number `seat` may write now, with each choice of ropes."""
    if seat not in to_act(state) or state.dice is None:
        return
    sheet = state.sheets[seat]
    circles = writable(state, sheet)
    for option in OPTIONS:
        if not option_open(sheet, option):
            continue
        number = option_number(option, state.dice)
        for circle in circles:
            if is_frown(state, circle, number):
                yield WriteNumber(option=option, circle=circle)
                continue
            down, up = rope_candidates(state, sheet, circle, number)
            downs: list[int | None] = [*down] or [None]
            ups: list[int | None] = [*up] or [None]
            for d in downs:
                for u in ups:
                    yield WriteNumber(option=option, circle=circle, down=d, up=u)


# --- evolve ---------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    match event:
        case DiceRolled(roll=roll, zero_die=zero, one_die=one):
            return msgspec.structs.replace(
                state, roll=roll, dice=(zero, one), written=[False] * state.seats
            )
        case NumberWritten(seat=seat):
            sheets = list(state.sheets)
            sheets[seat] = written_sheet(state.sheets[seat], event)
            written = list(state.written)
            written[seat] = True
            return msgspec.structs.replace(state, sheets=sheets, written=written)
        case TrekkerLeft(seat=seat):
            left = list(state.left)
            left[seat] = True
            return msgspec.structs.replace(state, left=left)
        case TrekFinished(scores=scores):
            return msgspec.structs.replace(state, over=True, scores=scores)
        case _:
            raise TypeError(f"not a Trek Twelve event: {event!r}")


def written_sheet(sheet: Sheet, event: NumberWritten) -> Sheet:
    c = event.circle
    numbers, frowns = list(sheet.numbers), list(sheet.frowns)
    down, up = list(sheet.down), list(sheet.up)
    if event.frown:
        frowns[c] = True
    else:
        numbers[c] = event.number
    if event.down is not None:
        down[c] = event.down
        up[event.down] = c
    if event.up is not None:
        up[c] = event.up
        down[event.up] = c
    ticks = dict(sheet.ticks)
    ticks[event.option] = ticks.get(event.option, 0) + 1
    return Sheet(numbers=numbers, frowns=frowns, down=down, up=up, ticks=ticks)
