"""Reading the Zenith table: who is who, which way a disc goes, what a card costs."""

from __future__ import annotations

from domain.games.zenith.agents import AGENTS, CardId
from domain.games.zenith.board import HAND_SIZE
from domain.games.zenith.events import Event
from domain.games.zenith.state import State
from domain.kernel import Recorder, Seat

Turn = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""


def other(seat: Seat) -> Seat:
    return 1 - seat


def who(seat: Seat) -> str:
    return f"Seat {seat + 1}"


def pull(seat: Seat) -> int:
    """Which way the seat pulls a disc: seat 1 (0-based 0) toward +, the other toward -."""
    return 1 if seat == 0 else -1


def hand_size(state: State, seat: Seat) -> int:
    """Rule (End of Turn): 4 cards; 5 with the Leader Badge silver side up, 6 gold."""
    if state.badge != seat:
        return HAND_SIZE["none"]
    return HAND_SIZE[state.badge_side]


def price(state: State, seat: Seat, card: CardId) -> int:
    """Rule (Credit Discount): the cost less one per card already in your stack of that
    planet; never below 0."""
    agent = AGENTS[card]
    return max(0, agent.cost - len(state.players[seat].zone[agent.planet]))


def zone_cards(state: State, seat: Seat) -> int:
    return sum(len(stack) for stack in state.players[seat].zone.values())
