"""How a game of Beyond ends: the instant Nian Shou win, or the round played out after
three enchanted spirits or the second pile running out (seed 002, "End of Game")."""

from __future__ import annotations

from domain.games.beyond.cards import ENCHANTED_SPIRITS_TO_END, NIAN_SHOU_TO_WIN
from domain.games.beyond.events import EndTriggered, Event, GameEnded, RevealSkipped, TurnBegan
from domain.games.beyond.scoring import score_sheet
from domain.games.beyond.state import State
from domain.kernel import Recorder, Seat
from domain.table import next_seat

Turn = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""


def is_active(state: State, seat: Seat) -> bool:
    return seat not in state.conceded


def card_available(state: State) -> bool:
    """A card can be turned up: the pile holds one, or the discard still makes the second pile."""
    return bool(state.pile) or (not state.second_pile and bool(state.discard))


def finish(turn: Turn, nian_shou_winner: Seat | None = None) -> None:
    turn.record(
        GameEnded(
            sheets=tuple(score_sheet(area) for area in turn.state.areas),
            nian_shou_winner=nian_shou_winner,
        )
    )


def nian_shou_check(turn: Turn, seat: Seat) -> bool:
    """Rule: whoever holds all 6 Nian Shou cards wins at once. True when the game ended."""
    if len(turn.state.areas[seat].nian_shou) >= NIAN_SHOU_TO_WIN:
        finish(turn, seat)
        return True
    return False


def begin_turn(turn: Turn, seat: Seat) -> None:
    """The seat's turn starts with phase 1, or with phase 3 when no card is left to reveal."""
    turn.record(TurnBegan(seat=seat))
    if not card_available(turn.state):
        turn.record(RevealSkipped(seat=seat))


def after_turn(turn: Turn, seat: Seat) -> None:
    """Rule: the game ends when a player has enchanted 3 spirits or the second pile runs
    out, once everybody has had the same number of turns (the round is played out)."""
    state = turn.state
    if not state.ending:
        if any(len(area.enchanted) >= ENCHANTED_SPIRITS_TO_END for area in state.areas):
            turn.record(EndTriggered(reason="three_spirits"))
        elif not card_available(state):
            turn.record(EndTriggered(reason="pile_exhausted"))
    state = turn.state
    nxt = next_seat(seat, state.seats, lambda s: is_active(state, s))
    if state.ending and nxt <= seat:
        finish(turn)
    else:
        begin_turn(turn, nxt)
