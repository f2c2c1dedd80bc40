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
from domain.games.arcticscavengers.events import Event, ForcesRevealed, TribeWithdrew
from domain.games.arcticscavengers.evolve import evolve
from domain.games.arcticscavengers.rounds import game_over, new_round
from domain.games.arcticscavengers.state import State, current_gatherer
from domain.kernel import Rejected, Rng, Seat

MIN_TRIBES = 2


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
    if state.phase == "over":
        raise Rejected("game_over", "The contested resources are gone; the game is over.")
    if not 0 <= seat < state.seats or state.tribes[seat].withdrawn:
        raise Rejected("not_your_turn", f"Seat {seat + 1} is not playing.")
    match command:
        case PlayCard() | PerformAction() | KeepDugCard() | HireMercenary() | EndGathering():
            events = gathering.decide(state, seat, command, rng)
        case Snipe() | Sabotage() | EndSkirmishActions():
            events = skirmish.decide(state, seat, command)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a move here.")
    return events + advance(fold(state, events), rng)


def legal(state: State, seat: Seat) -> list[Command]:
    if state.phase == "gathering":
        return gathering.legal(state, seat)
    if state.phase == "skirmish":
        return skirmish.legal(state, seat)
    return []


def to_act(state: State) -> frozenset[Seat]:
    seat = current_gatherer(state) if state.phase == "gathering" else skirmish.resolver(state)
    return frozenset() if seat is None else frozenset({seat})


def concede(state: State, seat: Seat, rng: Rng) -> list[Event] | None:
    """The tribe leaves; the game goes on while at least two tribes remain."""
    if state.phase == "over" or len(state.active()) - 1 < MIN_TRIBES:
        return None
    withdrew = TribeWithdrew(seat=seat)
    return [withdrew, *advance(evolve(state, withdrew), rng)]


def advance(state: State, rng: Rng) -> list[Event]:
    """The events that follow by themselves until a player must act (or the game ends)."""
    out: list[Event] = []
    while step := automatic(state, rng):
        state = fold(state, step)
        out += step
    return out


def automatic(state: State, rng: Rng) -> list[Event]:
    if state.phase == "gathering" and current_gatherer(state) is None:
        if state.round >= FIRST_SKIRMISH_ROUND:
            return [ForcesRevealed(forces=[list(t.force) for t in state.tribes])]
        return new_round(state, rng)
    if state.phase == "skirmish" and skirmish.resolver(state) is None:
        return skirmish.resolve(state, rng)
    if state.phase == "round_over":
        return new_round(state, rng) if state.contested else game_over(state)
    return []


def fold(state: State, events: list[Event]) -> State:
    for event in events:
        state = evolve(state, event)
    return state
