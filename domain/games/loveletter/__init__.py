"""Love Letter: the 16-card game for 2-4 players, the 32-card premium deck for 5-8.

Table of contents: cards.py (the deck as data), state.py (the table), commands.py and
events.py, choosing.py (who a card may choose), effects.py (one function per card),
round_end.py (turns, showdown, tokens, the next deal), rules.py (decide, legal, to_act,
outcome, concede), evolve.py (the fold), view.py (view, redact, hidden), describe.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.games.loveletter import rules
from domain.games.loveletter.commands import Command
from domain.games.loveletter.describe import describe
from domain.games.loveletter.events import Event
from domain.games.loveletter.evolve import evolve
from domain.games.loveletter.state import Options, State
from domain.games.loveletter.view import TableView, hidden, redact, view
from domain.kernel import ComponentId, Outcome, Rng, RulesStatus, Seat, register

ASSUMPTIONS: tuple[str, ...] = (
    "Two players also set three cards aside face up each round, as the printed rules say "
    "(option two_player_face_up; the page only mentions the one card set aside).",
    "The first round's first player is drawn at random; after a round nobody won, the "
    "player who would have drawn next starts the next round.",
    "The Guard and the Bishop name a value (0 and 9 too with the premium deck), never 1; "
    "naming 7 hits the Countess and the Dowager Queen alike.",
    "The Princess cannot be played of your own will (the page's Tips: with the King you "
    "are forced to trade her away).",
    "The Constable gives a token only if it lay in your discards before you were knocked "
    "out; leaving the table gives none.",
    "The Sycophant binds only the very next card played; a player protected by the "
    "Handmaid cannot be chosen by it, nor by the Jester; when the marked player cannot "
    "be chosen by that card (out, or the card's own player and it chooses others), the "
    "Sycophant's choice is ignored.",
    "The Cardinal may choose its own player as one of the two; you then look at the other "
    "hand. If fewer than two players can be chosen, it has no effect.",
    "At the showdown the Princess beats the Bishop whatever the Counts add; if that makes "
    "a cycle with a third hand, the cycle is a tie broken by discards.",
    "If the round's winner and the Jester's player both reach the tokens needed, both win.",
    "A player who leaves is knocked out (hand shown) and no longer dealt in; the game "
    "ends when fewer than two players remain.",
)


class LoveLetterGame:
    name = "loveletter"
    title = "Love Letter"
    min_players = 2
    max_players = 8
    rules_version = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions: tuple[str, ...] = ASSUMPTIONS
    options_type: type[msgspec.Struct] = Options
    command_type: Any = Command
    event_type: Any = Event
    state_type: type[msgspec.Struct] = State
    conformance_options: list[dict[str, Any]] = [{}, {"two_player_face_up": False}]
    max_moves = 3000

    def initial(self, options: Options, seats: int) -> State:
        return rules.initial(options, seats)

    def start(self, state: State, rng: Rng) -> list[Event]:
        return rules.start(state, rng)

    def decide(self, state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
        return rules.decide(state, seat, command, rng)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def legal(self, state: State, seat: Seat) -> list[Command]:
        return rules.legal(state, seat)

    def to_act(self, state: State) -> frozenset[Seat]:
        return rules.to_act(state)

    def view(self, state: State, seat: Seat | None) -> TableView:
        return view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        return redact(event, seat)

    def hidden(self, state: State, seat: Seat | None) -> frozenset[ComponentId]:
        return hidden(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def concede(self, state: State, seat: Seat, rng: Rng) -> list[Event] | None:
        return rules.concede(state, seat, rng)

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return describe(event, reader, names)


GAME = register(LoveLetterGame())
