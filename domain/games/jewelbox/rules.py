"""A Jewel Box turn: collect a beetle (die or magnifier), place it, maybe use the forceps.

Rule sentences cite the seed (002, "Gamehelpjewelbox") and rules-batch2.md, "Jewel Box".
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import msgspec

from domain.games.jewelbox.beetles import (
    ANY_BEETLE_FACE,
    BEETLES,
    DIE,
    DIE_SIDES,
    LOG_SPACES,
    MAGNIFYING_TOOLS,
    SWAPPING_TOOLS,
    BeetleId,
    Tool,
)
from domain.games.jewelbox.box import BOX_SIDE, GRIDS, Cell, Grid
from domain.games.jewelbox.commands import (
    Command,
    EndTurn,
    PlaceBeetle,
    RollDie,
    TakeBeetle,
    UseForceps,
    UseMagnifier,
)
from domain.games.jewelbox.events import (
    BeetleCollected,
    BeetlePlaced,
    BeetlesSwapped,
    DieRolled,
    Event,
    GameEnded,
    LogFilled,
    PlayerConceded,
    ToolUsed,
    TurnBegan,
)
from domain.games.jewelbox.scoring import score_sheet
from domain.games.jewelbox.state import JewelBoxOptions, Table
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import next_seat

Turn = Recorder[Table, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

# --- reading the table -----------------------------------------------------------------------


def grid(state: Table) -> Grid:
    return GRIDS[state.side]


def is_active(state: Table, seat: Seat) -> bool:
    return seat not in state.conceded


def box_full(state: Table, seat: Seat) -> bool:
    return all(cell is not None for cell in state.boxes[seat])


def placements(state: Table, seat: Seat) -> list[Cell]:
    """Rule: the first beetle goes anywhere; each later one touches one already placed."""
    box = state.boxes[seat]
    empty = [cell for cell, beetle in enumerate(box) if beetle is None]
    if len(empty) == len(box):
        return empty
    neighbours = grid(state).neighbours
    return [cell for cell in empty if any(box[n] is not None for n in neighbours[cell])]


def tokens(state: Table, seat: Seat, uses: tuple[Tool, ...]) -> list[Tool]:
    """The unused tokens of the seat that can serve as one of `uses` ("either" serves both)."""
    return [token for token in uses if token in state.tools[seat]]


def may_swap(state: Table, seat: Seat) -> bool:
    """The forceps are open: no tool used this turn, a token left, two beetles to swap."""
    placed = sum(1 for cell in state.boxes[seat] if cell is not None)
    return not state.tool_used and bool(tokens(state, seat, SWAPPING_TOOLS)) and placed >= 2


def log_beetles(state: Table) -> list[BeetleId]:
    return [beetle for beetle in state.log if beetle is not None]


# --- setup -----------------------------------------------------------------------------------


def check_options(options: JewelBoxOptions, seats: int) -> None:
    """The box is 4x4 or 5x5, and the beetles suffice to fill every box from the log."""
    side = options.box_side or BOX_SIDE[seats]
    if side not in GRIDS:
        raise Rejected("bad_box_side", f"A jewel box is 4x4 or 5x5, not {side}x{side}.")
    # Every beetle collected must find the log full: at most 75 - 4 collected in all.
    if seats * side * side > len(BEETLES) - len(LOG_SPACES) + 1:
        raise Rejected(
            "not_enough_beetles",
            f"{seats} boxes of {side}x{side} need more beetles than the game holds.",
        )


def start(state: Table, rng: Rng) -> Turn:
    """Five face-down beetles are turned face up on the log; seat 1 takes the die."""
    turn = Turn(state, evolve)
    drawn = rng.sample(state.supply, len(LOG_SPACES))
    turn.record(
        *(LogFilled(space=space, beetle=b) for space, b in zip(LOG_SPACES, drawn, strict=True))
    )
    turn.record(TurnBegan(seat=0))
    return turn


# --- decide ----------------------------------------------------------------------------------


def decide(state: Table, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "Every jewel box is full; the game is over.")
    if state.phase == "setup":
        raise Rejected("not_started", "The log is not laid out yet; the game has not started.")
    if seat != state.player or not is_active(state, seat):
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn with the die.")
    match command:
        case RollDie():
            return roll_die(state, seat, rng)
        case TakeBeetle(beetle=beetle):
            return take_beetle(state, seat, beetle, rng)
        case UseMagnifier(token=token, beetle=beetle):
            return use_magnifier(state, seat, token, beetle, rng)
        case UseForceps(token=token, beetles=beetles):
            return use_forceps(state, seat, token, beetles)
        case PlaceBeetle(row=row, col=col):
            return place_beetle(state, seat, row, col)
        case EndTurn():
            return end_turn(state, seat)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a Jewel Box move.")


def _must_be_collecting(state: Table) -> None:
    if state.phase == "choose":
        raise Rejected("choose_a_beetle", "You rolled a 6: take any of the five face-up beetles.")
    if state.phase != "collect":
        raise Rejected("already_collected", "You have already collected a beetle this turn.")


def roll_die(state: Table, seat: Seat, rng: Rng) -> Turn:
    """Rule: roll; 1-5 collects the beetle on that log space, 6 lets you choose any."""
    _must_be_collecting(state)
    turn = Turn(state, evolve)
    face = rng.roll(DIE_SIDES)
    turn.record(DieRolled(seat=seat, die=DIE, face=face))
    if face != ANY_BEETLE_FACE:
        collect_from_log(turn, seat, face, rng)
    return turn


def collect_from_log(turn: Turn, seat: Seat, space: int, rng: Rng) -> None:
    """Take the beetle on `space`; a face-down beetle refills the space at once."""
    beetle = turn.state.log[space - 1]
    assert beetle is not None, "the log stays full while beetles are collected"
    turn.record(BeetleCollected(seat=seat, beetle=beetle, space=space))
    if turn.state.supply:
        turn.record(LogFilled(space=space, beetle=rng.choice(turn.state.supply)))


def take_beetle(state: Table, seat: Seat, beetle: BeetleId, rng: Rng) -> Turn:
    """Rule: a 6 allows you to pick any of the five available beetles."""
    if state.phase != "choose":
        raise Rejected("no_six_rolled", "Only a roll of 6 lets you choose a face-up beetle.")
    if beetle not in state.log:
        raise Rejected("beetle_not_on_log", f"{beetle} is not face up on the log.")
    turn = Turn(state, evolve)
    collect_from_log(turn, seat, state.log.index(beetle) + 1, rng)
    return turn


def use_magnifier(state: Table, seat: Seat, token: Tool, beetle: BeetleId | None, rng: Rng) -> Turn:
    """Rule: instead of rolling, choose any face-up or face-down beetle."""
    _must_be_collecting(state)
    _check_token(state, seat, token, MAGNIFYING_TOOLS, "magnifying glass")
    if beetle is None:
        if not state.supply:
            raise Rejected("no_face_down_beetles", "No face-down beetle is left to take.")
    elif beetle not in state.log:
        raise Rejected("beetle_not_on_log", f"{beetle} is not face up on the log.")
    turn = Turn(state, evolve)
    turn.record(ToolUsed(seat=seat, token=token, use="magnifier"))
    if beetle is None:
        drawn = rng.choice(state.supply)
        turn.record(BeetleCollected(seat=seat, beetle=drawn, space=None))
    else:
        collect_from_log(turn, seat, state.log.index(beetle) + 1, rng)
    return turn


def use_forceps(state: Table, seat: Seat, token: Tool, beetles: tuple[BeetleId, ...]) -> Turn:
    """Rule: swap two beetles of your box, before or after collecting."""
    if state.phase not in ("collect", "after"):
        raise Rejected(
            "forceps_while_collecting",
            "The forceps are used before you collect or after you place, not in between.",
        )
    _check_token(state, seat, token, SWAPPING_TOOLS, "forceps")
    if len(beetles) != 2:
        raise Rejected("swap_two_beetles", "The forceps swap exactly two beetles.")
    if list(beetles) != sorted(set(beetles)):
        raise Rejected("beetles_not_sorted", "Name two different beetles, ids in sorted order.")
    for beetle in beetles:
        if beetle not in state.boxes[seat]:
            raise Rejected("beetle_not_in_your_box", f"{beetle} is not in your jewel box.")
    turn = Turn(state, evolve)
    turn.record(
        ToolUsed(seat=seat, token=token, use="forceps"),
        BeetlesSwapped(seat=seat, beetles=beetles),
    )
    if state.phase == "after":
        _after_turn(turn, seat)
    return turn


def _check_token(state: Table, seat: Seat, token: Tool, uses: tuple[Tool, ...], name: str) -> None:
    """Rule: tools are single use, at most one per turn; "either" serves as both."""
    if state.tool_used:
        raise Rejected("one_tool_per_turn", "You have already used a tool this turn.")
    if token not in uses:
        raise Rejected("wrong_token", f"The {token} token cannot serve as the {name}.")
    if token not in state.tools[seat]:
        raise Rejected("token_used", f"Your {token} token is already used.")


def place_beetle(state: Table, seat: Seat, row: int, col: int) -> Turn:
    """Rule: place the beetle in your box, orthogonally next to one already there."""
    if state.phase != "place" or state.holding is None:
        raise Rejected("nothing_to_place", "Collect a beetle before placing one.")
    if not (0 <= row < state.side and 0 <= col < state.side):
        raise Rejected("outside_the_box", f"Your box is {state.side}x{state.side}; no such cell.")
    cell = row * state.side + col
    if state.boxes[seat][cell] is not None:
        raise Rejected("cell_taken", f"A beetle already sits at row {row}, column {col}.")
    if cell not in placements(state, seat):
        raise Rejected("must_touch_a_beetle", "A new beetle must touch one in your box.")
    turn = Turn(state, evolve)
    turn.record(BeetlePlaced(seat=seat, beetle=state.holding, row=row, col=col))
    if not may_swap(turn.state, seat):
        _after_turn(turn, seat)
    return turn


def end_turn(state: Table, seat: Seat) -> Turn:
    if state.phase != "after":
        raise Rejected("turn_not_done", "Collect and place a beetle before passing the die.")
    turn = Turn(state, evolve)
    _after_turn(turn, seat)
    return turn


def has_room(state: Table, seat: Seat) -> bool:
    return is_active(state, seat) and not box_full(state, seat)


def _after_turn(turn: Turn, seat: Seat) -> None:
    """The next seat with room in its box takes the die; with none, the game is scored."""
    state = turn.state
    nxt = next_seat(seat, state.seats, lambda s: has_room(state, s))
    if has_room(state, nxt):
        turn.record(TurnBegan(seat=nxt))
        return
    sheets = tuple(
        score_sheet(box, len(tools), grid(state), state.options)
        for box, tools in zip(state.boxes, state.tools, strict=True)
    )
    turn.record(GameEnded(sheets=sheets))


def concede(state: Table, seat: Seat, rng: Rng) -> Turn | None:
    """The seat stops playing (a beetle in hand is set aside); alone, the match ends."""
    others = [s for s in range(state.seats) if s != seat and is_active(state, s)]
    if not others or state.phase in ("over", "setup"):
        return None
    turn = Turn(state, evolve)
    turn.record(PlayerConceded(seat=seat))
    if seat == state.player:
        _after_turn(turn, seat)
    return turn


def outcome(state: Table) -> Outcome | None:
    """Highest total wins, equal totals share the rank; a player who conceded ranks below."""
    if state.phase != "over":
        return None
    scores = tuple(sheet.total for sheet in state.sheets)
    keys = [(int(is_active(state, s)), scores[s]) for s in range(state.seats)]
    return Outcome(scores=scores, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def legal(state: Table, seat: Seat) -> Iterator[Command]:
    if state.phase in ("setup", "over") or seat != state.player or not is_active(state, seat):
        return
    if state.phase == "collect":
        yield RollDie()
        if not state.tool_used:
            for token in tokens(state, seat, MAGNIFYING_TOOLS):
                for beetle in log_beetles(state):
                    yield UseMagnifier(token=token, beetle=beetle)
                if state.supply:
                    yield UseMagnifier(token=token, beetle=None)
    elif state.phase == "choose":
        for beetle in log_beetles(state):
            yield TakeBeetle(beetle=beetle)
    elif state.phase == "place":
        for cell in placements(state, seat):
            yield PlaceBeetle(row=cell // state.side, col=cell % state.side)
    elif state.phase == "after":
        yield EndTurn()
    if state.phase in ("collect", "after") and may_swap(state, seat):
        placed = sorted(b for b in state.boxes[seat] if b is not None)
        for token in tokens(state, seat, SWAPPING_TOOLS):
            for pair in combinations(placed, 2):
                yield UseForceps(token=token, beetles=pair)


def to_act(state: Table) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: Table, event: Event) -> Table:
    replace = msgspec.structs.replace
    match event:
        case LogFilled(space=space, beetle=beetle):
            log = [beetle if i == space - 1 else b for i, b in enumerate(state.log)]
            return replace(state, log=log, supply=[b for b in state.supply if b != beetle])
        case TurnBegan(seat=seat):
            return replace(
                state, phase="collect", player=seat, tool_used=False, rolled=None, holding=None
            )
        case DieRolled(face=face):
            phase = "choose" if face == ANY_BEETLE_FACE else state.phase
            return replace(state, rolled=face, phase=phase)
        case ToolUsed(seat=seat, token=token):
            tools = [
                [t for t in row if t != token] if s == seat else row
                for s, row in enumerate(state.tools)
            ]
            return replace(state, tools=tools, tool_used=True)
        case BeetleCollected(beetle=beetle, space=space):
            log = [None if b == beetle else b for b in state.log]
            supply = state.supply if space is not None else [b for b in state.supply if b != beetle]
            return replace(state, log=log, supply=supply, holding=beetle, phase="place")
        case BeetlePlaced(seat=seat, beetle=beetle, row=row, col=col):
            cell = row * state.side + col
            box = [beetle if i == cell else b for i, b in enumerate(state.boxes[seat])]
            return replace(state, boxes=_with(state.boxes, seat, box), holding=None, phase="after")
        case BeetlesSwapped(seat=seat, beetles=(first, second)):
            swap = {first: second, second: first}
            box = [swap.get(b, b) if b is not None else None for b in state.boxes[seat]]
            return replace(state, boxes=_with(state.boxes, seat, box))
        case PlayerConceded(seat=seat):
            holding = None if seat == state.player else state.holding
            return replace(state, conceded=sorted({*state.conceded, seat}), holding=holding)
        case GameEnded(sheets=sheets):
            return replace(state, phase="over", sheets=list(sheets))
        case _:
            raise TypeError(f"not a Jewel Box event: {event!r}")


def _with(
    boxes: list[list[BeetleId | None]], seat: Seat, box: list[BeetleId | None]
) -> list[list[BeetleId | None]]:
    return [box if s == seat else row for s, row in enumerate(boxes)]
