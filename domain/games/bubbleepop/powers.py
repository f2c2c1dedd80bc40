"""The powers of the colours: one function per colour (guards, then the events), and the
targets each may choose now (for `legal`)."""

from __future__ import annotations

from domain.games.bubbleepop.board import COLUMNS, NEAR_ROW, sky_column, sky_row
from domain.games.bubbleepop.bubblees import Colour
from domain.games.bubbleepop.commands import (
    Command,
    SkipPower,
    UseBlue,
    UseGreen,
    UseOrange,
    UsePurple,
    UseRed,
    UseWhite,
    UseYellow,
)
from domain.games.bubbleepop.events import (
    BlackPushed,
    BubbleeLanded,
    BubbleeScored,
    Event,
    PlanetSwapped,
)
from domain.games.bubbleepop.planet import (
    adjacent_pairs,
    has_room,
    opponent,
    sky_slot_of,
    uncovered,
)
from domain.games.bubbleepop.state import State
from domain.kernel import Rejected, Seat

# --- one function per colour ----------------------------------------------------------


def blue(state: State, seat: Seat, bubblee: str) -> list[Event]:
    """Blue: one Bubblee of the opponent's side of the sky falls onto your planet."""
    slot = sky_slot_of(state, bubblee)
    if slot is None or sky_row(slot) != NEAR_ROW[opponent(seat)] or bubblee in state.stuck:
        raise Rejected(
            "not_in_opponents_sky", f"{bubblee} is not on your opponent's side of the sky."
        )
    column = sky_column(slot)
    if not has_room(state.planets[seat], column):
        raise Rejected(
            "column_full", f"Column {column + 1} of your planet is full; {bubblee} cannot land."
        )
    return [BubbleeLanded(planet=seat, column=column, bubblee=bubblee)]


def purple(state: State, seat: Seat, bubblee: str) -> list[Event]:
    """Purple: send one uncovered Bubblee of yours to the same column of the opponent's
    planet."""
    mine = state.planets[seat]
    if bubblee not in uncovered(mine):
        raise Rejected("not_uncovered", f"{bubblee} is not an uncovered Bubblee of your planet.")
    column = next(c for c, stack in enumerate(mine) if stack and stack[-1] == bubblee)
    if not has_room(state.planets[opponent(seat)], column):
        raise Rejected("column_full", f"Column {column + 1} of your opponent's planet is full.")
    return [BubbleeLanded(planet=opponent(seat), column=column, bubblee=bubblee)]


def yellow(state: State, seat: Seat, bubblee: str) -> list[Event]:
    """Yellow: move one uncovered Bubblee of yours to your scoring area."""
    if bubblee not in uncovered(state.planets[seat]):
        raise Rejected("not_uncovered", f"{bubblee} is not an uncovered Bubblee of your planet.")
    return [BubbleeScored(seat=seat, bubblee=bubblee)]


def red(state: State, seat: Seat, pair: tuple[str, str]) -> list[Event]:
    """Red: swap two adjacent Bubblees on the opponent's planet."""
    if pair not in adjacent_pairs(state.planets[opponent(seat)]):
        raise Rejected(
            "not_adjacent", f"{pair[0]} and {pair[1]} are not neighbours on your opponent's planet."
        )
    return [PlanetSwapped(planet=opponent(seat), bubblees=pair)]


def green(state: State, seat: Seat, pair: tuple[str, str]) -> list[Event]:
    """Green: swap two adjacent Bubblees on your planet."""
    if pair not in adjacent_pairs(state.planets[seat]):
        raise Rejected(
            "not_adjacent", f"{pair[0]} and {pair[1]} are not neighbours on your planet."
        )
    return [PlanetSwapped(planet=seat, bubblees=pair)]


def orange(state: State, seat: Seat, bubblee: str) -> list[Event]:
    """Orange: take one uncovered Bubblee of the opponent's planet or scoring area into
    your scoring area."""
    other = opponent(seat)
    if bubblee not in uncovered(state.planets[other]) and bubblee not in state.scored[other]:
        raise Rejected(
            "not_takeable",
            f"{bubblee} is neither uncovered on your opponent's planet nor in their scoring area.",
        )
    return [BubbleeScored(seat=seat, bubblee=bubblee)]


def white(state: State, seat: Seat, column: int) -> list[Event]:
    """White: push a black Bubblee from the box in at the bottom of an opponent's column."""
    if not 0 <= column < COLUMNS:
        raise Rejected("no_such_column", f"There is no column {column}; columns are 0 to 4.")
    if not state.box:
        raise Rejected("no_black_left", "No black Bubblee is left in the box to push.")
    if not has_room(state.planets[opponent(seat)], column):
        raise Rejected("column_full", f"Column {column + 1} of your opponent's planet is full.")
    return [BlackPushed(planet=opponent(seat), column=column, bubblee=state.box[0])]


def use(state: State, seat: Seat, command: Command) -> list[Event]:
    """The events of a Use* command's effect."""
    match command:
        case UseBlue(bubblee=b):
            return blue(state, seat, b)
        case UsePurple(bubblee=b):
            return purple(state, seat, b)
        case UseYellow(bubblee=b):
            return yellow(state, seat, b)
        case UseRed(bubblees=pair):
            _canonical(pair)
            return red(state, seat, pair)
        case UseGreen(bubblees=pair):
            _canonical(pair)
            return green(state, seat, pair)
        case UseOrange(bubblee=b):
            return orange(state, seat, b)
        case UseWhite(column=c):
            return white(state, seat, c)
    raise Rejected("unknown_command", f"{type(command).__name__} is not a power.")


POWER_COMMANDS = (UseBlue, UsePurple, UseYellow, UseRed, UseGreen, UseOrange, UseWhite)

COMMAND_COLOURS: dict[type, Colour] = {
    UseBlue: "blue",
    UsePurple: "purple",
    UseYellow: "yellow",
    UseRed: "red",
    UseGreen: "green",
    UseOrange: "orange",
    UseWhite: "white",
}


def colour_of_command(command: Command) -> Colour:
    return COMMAND_COLOURS[type(command)]


def _canonical(pair: tuple[str, str]) -> None:
    if pair[0] >= pair[1]:
        raise Rejected(
            "pair_not_in_order", "Name two different Bubblees, their ids in sorted order."
        )


# --- what each power may target now ------------------------------------------------------


def targets(state: State, seat: Seat, colour: Colour) -> list[Command]:
    other = opponent(seat)
    mine, theirs = state.planets[seat], state.planets[other]
    match colour:
        case "blue":
            row = NEAR_ROW[other]
            return [
                UseBlue(bubblee=b)
                for slot, b in enumerate(state.sky)
                if b is not None
                and sky_row(slot) == row
                and b not in state.stuck
                and has_room(mine, sky_column(slot))
            ]
        case "purple":
            return [
                UsePurple(bubblee=stack[-1])
                for column, stack in enumerate(mine)
                if stack and has_room(theirs, column)
            ]
        case "yellow":
            return [UseYellow(bubblee=b) for b in uncovered(mine)]
        case "red":
            return [UseRed(bubblees=p) for p in adjacent_pairs(theirs)]
        case "green":
            return [UseGreen(bubblees=p) for p in adjacent_pairs(mine)]
        case "orange":
            return [UseOrange(bubblee=b) for b in [*uncovered(theirs), *state.scored[other]]]
        case "white":
            if not state.box:
                return []
            return [UseWhite(column=c) for c in range(COLUMNS) if has_room(theirs, c)]
        case _:
            return []


def available(state: State) -> list[Colour]:
    """Rule: simultaneous matches' powers are used in the order the player likes; later
    matches' powers wait for the earlier ones."""
    return list(dict.fromkeys(state.powers[0])) if state.powers else []


def legal_powers(state: State, seat: Seat) -> list[Command]:
    out: list[Command] = []
    for colour in available(state):
        out += targets(state, seat, colour)
        out.append(SkipPower(colour=colour))
    return out


def check_available(state: State, colour: Colour) -> None:
    if colour not in available(state):
        waiting = ", ".join(available(state)) or "none"
        raise Rejected(
            "power_not_available",
            f"You have no {colour} power to use now (powers available: {waiting}).",
        )
