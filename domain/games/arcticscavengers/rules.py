"""decide, legal, to_act and concede: the round flows gathering -> skirmish -> next round.

After every command the table moves on by itself as far as it can without a player
(`advance`): revealing the forces when everyone has gathered, resolving the skirmish
when nobody has a sniper or saboteur left to declare, starting the next round (which
draws and shuffles) and ending the game when the contested resources are gone.
"""

from __future__ import annotations

from domain.games.arcticscavengers import gathering, skirmish
from domain.games.arcticscavengers.cards import FIRST_SKIRMISH_ROUND
from domain.games.arcticscavengers.commands import (
    Command,
    EndGathering,
    EndSkirmishActions,
    HireMercenary,
    KeepDugCard,
    PerformAction,
    PlayCard,
    Sabotage,
    Snipe,
)
from domain.games.arcticscavengers.events import ForcesRevealed, TribeWithdrew
from domain.games.arcticscavengers.evolve import Decision, decision
from domain.games.arcticscavengers.rounds import game_over, new_round
from domain.games.arcticscavengers.state import State, current_gatherer
from domain.kernel import Rejected, Rng, Seat

MIN_TRIBES = 2


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Decision:
    if state.phase == "over":
        raise Rejected("game_over", "The contested resources are gone; the game is over.")
    if not 0 <= seat < state.seats or state.tribes[seat].withdrawn:
        raise Rejected("not_your_turn", f"Seat {seat + 1} is not playing.")
    turn = decision(state)
    match command:
        case PlayCard() | PerformAction() | KeepDugCard() | HireMercenary() | EndGathering():
            gathering.decide(turn, seat, command, rng)
        case Snipe() | Sabotage() | EndSkirmishActions():
            skirmish.decide(turn, seat, command)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a move here.")
    advance(turn, rng)
    return turn


def legal(state: State, seat: Seat) -> list[Command]:
    if state.phase == "gathering":
        return gathering.legal(state, seat)
    if state.phase == "skirmish":
        return skirmish.legal(state, seat)
    return []


def to_act(state: State) -> frozenset[Seat]:
    seat = current_gatherer(state) if state.phase == "gathering" else skirmish.resolver(state)
    return frozenset() if seat is None else frozenset({seat})


def concede(state: State, seat: Seat, rng: Rng) -> Decision | None:
    """The tribe leaves; the game goes on while at least two tribes remain."""
    if state.phase == "over" or len(state.active()) - 1 < MIN_TRIBES:
        return None
    turn = decision(state)
    turn.record(TribeWithdrew(seat=seat))
    advance(turn, rng)
    return turn


def advance(turn: Decision, rng: Rng) -> None:
    """The events that follow by themselves until a player must act (or the game ends)."""
    while automatic(turn, rng):
        pass


def automatic(turn: Decision, rng: Rng) -> bool:
    """One step the table takes by itself, if any is due (and whether one was)."""
    state = turn.state
    if state.phase == "gathering" and current_gatherer(state) is None:
        if state.round >= FIRST_SKIRMISH_ROUND:
            turn.record(ForcesRevealed(forces=[list(t.force) for t in state.tribes]))
        else:
            new_round(turn, rng)
        return True
    if state.phase == "skirmish" and skirmish.resolver(state) is None:
        skirmish.resolve(turn, rng)
        return True
    if state.phase == "round_over":
        if state.contested:
            new_round(turn, rng)
        else:
            game_over(turn)
        return True
    return False
