"""Moving pawns: where a die takes a pawn or a stack, what it lands on, and the dice rule.

Rule citations point at the "Gamehelphypnosia" page (seed 000, revision 2022-08-01).
A move is planned on the table without changing it; `rules.py` turns a plan into events,
and the dice rule looks one die ahead on a simulated table.
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec
from msgspec.structs import replace

from domain.games.hypnosia.board import SpaceId
from domain.games.hypnosia.commands import MovePawns
from domain.games.hypnosia.state import State
from domain.games.hypnosia.track import (
    BRIDGE_TO,
    CENTRE,
    CENTRE_SIZE,
    LANE_STEPS,
    PawnId,
    along,
)
from domain.kernel import Seat


class Plan(msgspec.Struct, frozen=True):
    """What a move would do: the pawns, the path's ends, who is captured, who scores."""

    pawns: tuple[PawnId, ...]
    pips: int
    start: SpaceId
    end: SpaceId
    crossed_bridge: bool
    captured: tuple[PawnId, ...] = ()
    entering: tuple[PawnId, ...] = ()
    left_behind: tuple[PawnId, ...] = ()


class Refusal(msgspec.Struct, frozen=True):
    code: str
    message: str


# --- the path of one die ---------------------------------------------------------------------


def plan_move(state: State, seat: Seat, move: MovePawns) -> Plan | Refusal:
    """The move as the rules allow it, or why not (guards in the rules page's order)."""
    if move.pips not in state.dice:
        dice = " and ".join(str(d) for d in state.dice) or "nothing"
        return Refusal("no_such_die", f"No die shows {move.pips}: you have {dice} to use.")
    pawns = move.pawns
    if not 1 <= len(pawns) <= 2:
        return Refusal("one_pawn_or_a_stack", "Move one pawn, or the two pawns of a stack.")
    if list(pawns) != sorted(set(pawns)):
        return Refusal("pawns_not_sorted", "Name the two pawns of a stack once each, sorted.")
    for pawn in pawns:
        if state.owner(pawn) != seat:
            return Refusal("not_your_pawn", f"{pawn!r} is not one of your pawns.")
        if pawn not in state.positions:
            return Refusal("pawn_off_board", f"{pawn} is no longer on the board.")
    start = state.positions[pawns[0]]
    if any(state.positions[p] != start for p in pawns):
        return Refusal("not_a_stack", f"{pawns[0]} and {pawns[1]} are not stacked together.")
    end = destination(state, move, start)
    if isinstance(end, Refusal):
        return end
    crossed = move.cross_bridge
    if end == CENTRE:
        room = CENTRE_SIZE - len(state.centre)
        return Plan(
            pawns, move.pips, start, end, crossed, entering=pawns[:room], left_behind=pawns[room:]
        )
    return landing(state, seat, Plan(pawns, move.pips, start, end, crossed))


def destination(state: State, move: MovePawns, start: SpaceId) -> SpaceId | Refusal:
    """Counter-clockwise, every pip burnt; bridges only inward, from where the pawn stands."""
    pips = move.pips
    if start in LANE_STEPS:
        steps, entry = LANE_STEPS[start]
        if move.cross_bridge:
            return Refusal("not_on_a_bridge", "A start square has no bridge.")
        if pips < steps:
            return Refusal(
                "cannot_reach_circle",
                f"From {start} a pawn needs {steps} or more to enter the outer circle.",
            )
        # Rule: a pawn leaves its start square only with a die that reaches the circle.
        return along(entry, pips - steps)
    if not move.cross_bridge:
        return along(start, pips)
    if start not in BRIDGE_TO:
        return Refusal("not_on_a_bridge", f"{start} is not a double-coloured bridge space.")
    if len(move.pawns) == 2 and state.options.stacks_cannot_cross:
        return Refusal(
            "stack_cannot_cross", "Variant: a stack must be dismantled before crossing a bridge."
        )
    over = BRIDGE_TO[start]
    if over == CENTRE:
        if pips != 1:
            return Refusal("centre_needs_a_one", "Only a die showing 1 enters the centre.")
        return CENTRE
    return along(over, pips - 1)


def landing(state: State, seat: Seat, plan: Plan) -> Plan | Refusal:
    """Own pawn: stack (two at most). Opponent: capture, but a single pawn can't take a stack."""
    there = [p for p, s in state.positions.items() if s == plan.end and p not in plan.pawns]
    if not there:
        return plan
    if state.owner(there[0]) == seat:
        if len(there) + len(plan.pawns) > 2:
            return Refusal("stack_full", f"{plan.end} would hold more than two of your pawns.")
        return plan
    if len(there) == 2 and len(plan.pawns) == 1:
        return Refusal("stack_too_strong", f"A single pawn cannot capture the stack on {plan.end}.")
    return replace(plan, captured=tuple(sorted(there)))


# --- every move of a die ---------------------------------------------------------------------


def candidates(state: State, seat: Seat) -> Iterator[MovePawns]:
    """Every (pawn or stack, die, bridge or not) the seat could name, legal or not."""
    groups: dict[SpaceId, list[PawnId]] = {}
    for pawn, space in state.positions.items():
        if state.owner(pawn) == seat:
            groups.setdefault(space, []).append(pawn)
    for pips in sorted(set(state.dice)):
        for space in sorted(groups):
            pawns = sorted(groups[space])
            movers = [(p,) for p in pawns] + ([tuple(pawns)] if len(pawns) == 2 else [])
            for mover in movers:
                yield MovePawns(pawns=mover, pips=pips)
                if space in BRIDGE_TO:
                    yield MovePawns(pawns=mover, pips=pips, cross_bridge=True)


def possible(state: State, seat: Seat) -> Iterator[tuple[MovePawns, Plan]]:
    """Moves that burn one die exactly, before the rule about using both dice."""
    for move in candidates(state, seat):
        plan = plan_move(state, seat, move)
        if isinstance(plan, Plan):
            yield move, plan


# --- the dice rule -----------------------------------------------------------------------------


def after(state: State, plan: Plan) -> State:
    """The table once the plan is carried out (for looking one die ahead)."""
    positions = dict(state.positions)
    for pawn in plan.captured + plan.entering:
        del positions[pawn]
    if plan.end != CENTRE:
        for pawn in plan.pawns:
            positions[pawn] = plan.end
    dice = list(state.dice)
    dice.remove(plan.pips)
    return replace(state, positions=positions, centre=state.centre + list(plan.entering), dice=dice)


def is_over(state: State) -> bool:
    """Rule: the game ends with the centre full or no pawn left on the board."""
    return len(state.centre) >= CENTRE_SIZE or not state.positions


def strands_other_die(state: State, seat: Seat, plan: Plan) -> bool:
    """The move leaves the turn's other die with no exact move (and does not end the game)."""
    if len(state.dice) < 2:
        return False
    then = after(state, plan)
    return not is_over(then) and not any(True for _ in possible(then, seat))


def both_dice_burnable(state: State, seat: Seat) -> bool:
    """Some first move keeps a move open for the other die."""
    return any(not strands_other_die(state, seat, plan) for _, plan in possible(state, seat))


def must_keep_other_die(state: State, seat: Seat) -> bool:
    """Option must_use_both_dice (off by default, a house rule): while some order of moves
    uses both dice, a first move must leave the second usable."""
    return (
        state.options.must_use_both_dice
        and len(state.dice) == 2
        and both_dice_burnable(state, seat)
    )


def legal_moves(state: State, seat: Seat) -> list[MovePawns]:
    """Every move of one die the player may make now."""
    found = list(possible(state, seat))
    if must_keep_other_die(state, seat):
        return [move for move, plan in found if not strands_other_die(state, seat, plan)]
    return [move for move, _ in found]
