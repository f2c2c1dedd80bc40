"""The turn of Hypnosia: decide, evolve, legal and to_act, plus conceding and the outcome.

Rule citations point at the "Gamehelphypnosia" page (seed 000, revision 2022-08-01).
A turn is small steps: roll the two dice, then one command per die.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.hypnosia.board import BOARD, SpaceId
from domain.games.hypnosia.commands import Command, MovePawns, RollDice
from domain.games.hypnosia.events import (
    CentreEntered,
    DiceForfeited,
    DiceRolled,
    Event,
    FirstPlayerChosen,
    GameEnded,
    PawnsCaptured,
    PawnsMoved,
    PlayerConceded,
    StartingThrow,
    TurnPassed,
)
from domain.games.hypnosia.moves import (
    Plan,
    Refusal,
    is_over,
    legal_moves,
    must_keep_other_die,
    plan_move,
    strands_other_die,
)
from domain.games.hypnosia.state import State
from domain.games.hypnosia.track import CENTRE, PawnId
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import next_seat

Turn = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""


# --- setup ---------------------------------------------------------------------------------


def start(state: State, rng: Rng) -> Turn:
    """Rule: each player throws the two dice; the highest begins.
    ASSUMPTION: players tied for the highest throw again until one is alone on top."""
    throwing = list(range(len(state.colours)))
    rounds: list[tuple[StartingThrow, ...]] = []
    while len(throwing) > 1:
        throws = tuple(StartingThrow(seat=s, dice=(rng.roll(6), rng.roll(6))) for s in throwing)
        rounds.append(throws)
        best = max(sum(t.dice) for t in throws)
        throwing = [t.seat for t in throws if sum(t.dice) == best]
    turn = Turn(state, evolve)
    turn.record(FirstPlayerChosen(rounds=tuple(rounds), seat=throwing[0]))
    return turn


# --- decide ----------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    """Guards for every command (game over, whose turn), then the command's own rule."""
    if state.phase == "over":
        raise Rejected("game_over", "The game is over: nobody moves any more.")
    if state.phase == "setup":
        raise Rejected("not_started", "The game has not started yet.")
    if seat != state.turn:
        raise Rejected("not_your_turn", f"It is seat {state.turn + 1}'s turn; wait for yours.")
    match command:
        case RollDice():
            return roll_dice(state, seat, rng)
        case MovePawns():
            return move_pawns(state, seat, command)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a Hypnosia move.")


def roll_dice(state: State, seat: Seat, rng: Rng) -> Turn:
    """The turn begins with a throw of both dice."""
    if state.phase != "rolling":
        raise Rejected("already_rolled", "You have thrown the dice: now move with them.")
    turn = Turn(state, evolve)
    turn.record(DiceRolled(seat=seat, dice=(rng.roll(6), rng.roll(6))))
    burn_or_pass(turn, seat)
    return turn


def move_pawns(state: State, seat: Seat, move: MovePawns) -> Turn:
    """One die: one pawn or one stack, every pip burnt, then land (stack or capture)."""
    if state.phase != "moving":
        raise Rejected("roll_first", "Throw the dice before moving.")
    plan = plan_move(state, seat, move)
    if isinstance(plan, Refusal):
        raise Rejected(plan.code, plan.message)
    if strands_other_die(state, seat, plan) and must_keep_other_die(state, seat):
        raise Rejected(
            "must_use_both_dice",
            "That move leaves your other die unusable, but another play burns both dice.",
        )
    turn = Turn(state, evolve)
    carry_out(turn, seat, plan)
    if not end_if_over(turn):
        burn_or_pass(turn, seat)
    return turn


# --- the steps of a turn ---------------------------------------------------------------------


def carry_out(turn: Turn, seat: Seat, plan: Plan) -> None:
    """The move, then what it landed on: a capture scores, the centre scores by arrival."""
    if plan.end == CENTRE:
        arrived = len(turn.state.centre)
        points = BOARD.centre_points[arrived : arrived + len(plan.entering)]
        turn.record(
            CentreEntered(
                seat=seat,
                pawns=plan.entering,
                start=plan.start,
                points=tuple(points),
                left_behind=plan.left_behind,
            )
        )
        return
    turn.record(
        PawnsMoved(
            seat=seat,
            pawns=plan.pawns,
            pips=plan.pips,
            start=plan.start,
            end=plan.end,
            crossed_bridge=plan.crossed_bridge,
        )
    )
    if plan.captured:
        victim = turn.state.owner(plan.captured[0])
        assert victim is not None
        turn.record(PawnsCaptured(seat=seat, victim=victim, pawns=plan.captured, space=plan.end))


def end_if_over(turn: Turn) -> bool:
    """Rule: the game ends once 5 pawns are in the centre, or no pawn is left on the board."""
    if not is_over(turn.state):
        return False
    full = len(turn.state.centre) >= len(BOARD.centre_points)
    turn.record(GameEnded(reason="centre_full" if full else "board_empty"))
    return True


def burn_or_pass(turn: Turn, seat: Seat) -> None:
    """Dice no pawn can burn exactly are lost; with no die left the turn passes on."""
    if turn.state.dice and not legal_moves(turn.state, seat):
        turn.record(DiceForfeited(seat=seat, dice=tuple(turn.state.dice)))
    if not turn.state.dice:
        turn.record(TurnPassed(seat=seat, to=next_player(turn.state, seat)))


def next_player(state: State, seat: Seat) -> Seat:
    """The player on the left (the next seat) who still has a pawn on the board."""
    playing = {state.owner(pawn) for pawn in state.positions}
    return next_seat(seat, len(state.colours), lambda s: s in playing and s not in state.conceded)


# --- legal and to_act ------------------------------------------------------------------------


def legal(state: State, seat: Seat) -> list[Command]:
    if seat != state.turn:
        return []
    match state.phase:
        case "rolling":
            return [RollDice()]
        case "moving":
            return list(legal_moves(state, seat))
        case _:
            return []


def to_act(state: State) -> frozenset[Seat]:
    if state.phase in ("rolling", "moving"):
        return frozenset({state.turn})
    return frozenset()


# --- evolve ------------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    match event:
        case FirstPlayerChosen(seat=seat):
            return replace(state, turn=seat, phase="rolling")
        case DiceRolled(dice=dice):
            return replace(state, dice=list(dice), phase="moving")
        case PawnsMoved(pawns=pawns, pips=pips, end=end):
            positions = {**state.positions, **{p: end for p in pawns}}
            return replace(state, positions=positions, dice=_without_die(state.dice, pips))
        case PawnsCaptured(seat=seat, victim=victim, pawns=pawns):
            scores = list(state.scores)
            scores[seat] += len(pawns)
            scores[victim] -= len(pawns)
            return replace(state, positions=_without(state.positions, pawns), scores=scores)
        case CentreEntered(seat=seat, pawns=pawns, points=points):
            scores = list(state.scores)
            scores[seat] += sum(points)
            return replace(
                state,
                positions=_without(state.positions, pawns),
                centre=[*state.centre, *pawns],
                scores=scores,
                dice=_without_die(state.dice, 1),
            )
        case DiceForfeited(dice=dice):
            left = list(state.dice)
            for pips in dice:
                left.remove(pips)
            return replace(state, dice=left)
        case TurnPassed(to=to):
            return replace(state, turn=to, dice=[], phase="rolling")
        case PlayerConceded(seat=seat, pawns=pawns):
            return replace(
                state,
                positions=_without(state.positions, pawns),
                conceded=sorted([*state.conceded, seat]),
            )
        case GameEnded():
            return replace(state, dice=[], phase="over")
        case _:
            raise TypeError(f"not a Hypnosia event: {event!r}")


def _without(positions: dict[PawnId, SpaceId], pawns: tuple[PawnId, ...]) -> dict[PawnId, SpaceId]:
    return {p: s for p, s in positions.items() if p not in pawns}


def _without_die(dice: list[int], pips: int) -> list[int]:
    left = list(dice)
    left.remove(pips)
    return left


# --- leaving and winning -----------------------------------------------------------------------


def concede(state: State, seat: Seat, rng: Rng) -> Turn | None:
    """ASSUMPTION: the player's pawns leave the board (nobody scores for them) and their turns
    are skipped; with fewer than two players left the match ends."""
    staying = [s for s in range(len(state.colours)) if s != seat and s not in state.conceded]
    if len(staying) < 2 or state.phase in ("setup", "over"):
        return None
    turn = Turn(state, evolve)
    pawns = tuple(sorted(p for p in state.positions if state.owner(p) == seat))
    turn.record(PlayerConceded(seat=seat, pawns=pawns))
    if not end_if_over(turn) and state.turn == seat:
        turn.record(TurnPassed(seat=seat, to=next_player(turn.state, seat)))
    return turn


def outcome(state: State) -> Outcome | None:
    """Highest score wins. Rule: among tied players, the earlier arrival in the centre ranks
    higher. ASSUMPTION: a tied player with no pawn in the centre ranks below those with one;
    players who conceded rank below all others."""
    if state.phase != "over":
        return None
    seats = len(state.colours)
    first_arrival = [len(state.centre)] * seats
    for order, pawn in reversed(list(enumerate(state.centre))):
        owner = state.owner(pawn)
        if owner is not None:
            first_arrival[owner] = order
    keys = [
        (0 if s in state.conceded else 1, state.scores[s], -first_arrival[s]) for s in range(seats)
    ]
    return Outcome(scores=tuple(state.scores), ranks=ranks_from_keys(keys))
