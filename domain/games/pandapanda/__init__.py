"""Panda Panda: collect one of six exact hands and show it at the start of your turn.

Table of contents: the cards and winning hands (cards.py), commands, events, the table
state, the deal and the winning hand (rounds.py), the turn and the pass (rules.py), what
each reader sees (view.py) and the history sentences (describe.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.games.pandapanda import rules
from domain.games.pandapanda.cards import WINNING_HANDS
from domain.games.pandapanda.commands import Command
from domain.games.pandapanda.describe import describe
from domain.games.pandapanda.events import Event
from domain.games.pandapanda.rounds import deal, declared_victory, first_starter
from domain.games.pandapanda.state import Options, State, initial
from domain.games.pandapanda.view import TableView, hidden, redact, view
from domain.kernel import (
    ComponentId,
    Outcome,
    Rejected,
    Rng,
    RulesStatus,
    Seat,
    ranks_from_keys,
    register,
)

ASSUMPTIONS: tuple[str, ...] = (
    "Card counts B to F are assumed: A10 B7 C5 D4 E3 F2 G1 (10 A and 1 G are sourced).",
    "Three of the six winning hands are unknown; placeholders G, F-F and A-A-A-A-B-B-B "
    "stand in beside the sourced D-D-D, A-A-C-C-E-E and B-B-C-C-D-D.",
    "A matching hand is declared automatically at the start of its owner's turn, "
    "since declaring can never hurt.",
    "After an A is discarded every player holding a card chooses one in secret; all are "
    "revealed and passed at once; a player with no card passes nothing but still receives.",
    "When the deck is empty and a player draws from it, every discard pile but its top "
    "card is shuffled into a new deck.",
    "A player with an empty hand and nothing to draw lets the turn go by.",
    "Seat 1 begins the first round; each later round is begun by the player left of the "
    "previous round's first player.",
    "A player who concedes (with 3 or more still in) puts their hand under the deck "
    "and is skipped from then on, ranking last.",
)


class PandaPandaGame:
    name = "pandapanda"
    title = "Panda Panda"
    min_players = 2
    max_players = 4
    rules_version = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions = ASSUMPTIONS
    options_type: type[msgspec.Struct] = Options
    command_type = Command
    event_type = Event
    state_type: type[msgspec.Struct] = State
    conformance_options: list[dict[str, object]] = [{}, {"rounds_to_win": 1}]
    max_moves = 12000
    winning_hands = tuple(hand.letters for hand in WINNING_HANDS)
    """The winning-hands table (static; the reference card every player holds)."""

    def check_options(self, options: Options, seats: int) -> None:
        if not 1 <= options.rounds_to_win <= 5:
            raise Rejected("bad_options", "Play to between 1 and 5 round wins.")

    def initial(self, options: Options, seats: int) -> State:
        return initial(options, seats)

    def start(self, state: State, rng: Rng) -> list[Event]:
        dealt = deal(state, rng, first_starter(state))
        return [dealt, *declared_victory(rules.fold(state, [dealt]), dealt.starter)]

    def decide(self, state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
        return rules.decide(state, seat, command, rng)

    def evolve(self, state: State, event: Event) -> State:
        return rules.evolve(state, event)

    def legal(self, state: State, seat: Seat) -> list[Command]:
        return rules.legal(state, seat)

    def to_act(self, state: State) -> frozenset[Seat]:
        return rules.to_act(state)

    def view(self, state: State, seat: Seat | None) -> TableView:
        return view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event:
        return redact(event, seat)

    def hidden(self, state: State, seat: Seat | None) -> frozenset[ComponentId]:
        return hidden(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """The first to the round target wins; the others rank by rounds won, leavers last."""
        if state.phase != "over":
            return None
        keys = [(0 if state.out[seat] else 1, state.wins[seat]) for seat in range(state.seats)]
        return Outcome(scores=tuple(state.wins), ranks=ranks_from_keys(keys))

    def concede(self, state: State, seat: Seat, rng: Rng) -> list[Event] | None:
        return rules.concede(state, seat, rng)

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return describe(event, reader, names)


GAME = PandaPandaGame()
register(GAME)
