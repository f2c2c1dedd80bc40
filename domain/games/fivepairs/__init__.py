"""Five Pairs: pair cards with the common area by number or colour (seed 002, "Gamehelpfivepairs").

Table of contents: the deck and every guessed number (`cards.py`), the table state and
options (`state.py`), turn order (`table.py`), the deal, the turn and its end (`rules.py`),
points, the 5/15 token and the ranking (`scoring.py`), what each seat sees (`view.py`) and
the history sentences (`describe.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.kernel import ComponentId, Outcome, Rng, RulesStatus, Seat, register

from . import describe as _describe
from . import rules, scoring, view
from .commands import Command
from .events import Event
from .state import Options, State

ASSUMPTIONS: tuple[str, ...] = (
    "The deck is 90 cards: numbers 1 to 9 in five colours, two copies of each.",
    "The common area starts each round with five face-up cards and has no size limit.",
    "Each player is dealt two cards at the start of a round.",
    "Drawing instead of pairing takes two cards from the deck into the hand, then any one "
    "hand card goes face up to the common area (option discard_from: 'drawn' limits it to "
    "the two just drawn).",
    "A made pair is scored and set aside in front of its maker; one pair per turn.",
    "A pair of 3s means both cards are 3s; the extra turn comes after drawing back up to "
    "two, and extra turns can chain.",
    "The 5/15 token is worth its face to its holder at the end of the round and goes back "
    "to the middle for the next round.",
    "The deck is never reshuffled: with the deck empty a player who cannot pair is passed "
    "over, and the round ends when nobody can pair.",
    "The first round's starting player is drawn at random and the start rotates left each "
    "round; the player to the starter's right deals (DealRound).",
    "2 to 4 players; players tied on the highest total share the win.",
)


class FivePairsGame:
    name: str = "fivepairs"
    title: str = "Five Pairs"
    min_players: int = 2
    max_players: int = 4
    rules_version: str = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions: tuple[str, ...] = ASSUMPTIONS
    options_type: type[msgspec.Struct] = Options
    command_type: Any = Command
    event_type: Any = Event
    state_type: type[msgspec.Struct] = State
    conformance_options: list[dict[str, Any]] = [{}, {"discard_from": "drawn"}]

    def initial(self, options: Options, seats: int) -> State:
        return rules.initial(options, seats)

    def start(self, state: State, rng: Rng) -> list[Event]:
        return rules.start(state, rng)

    def decide(self, state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
        return rules.decide(state, seat, command, rng)

    def evolve(self, state: State, event: Event) -> State:
        return rules.evolve(state, event)

    def legal(self, state: State, seat: Seat) -> list[Command]:
        return rules.legal(state, seat)

    def to_act(self, state: State) -> frozenset[Seat]:
        return rules.to_act(state)

    def view(self, state: State, seat: Seat | None) -> view.TableView:
        return view.view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event:
        return view.redact(event, seat)

    def hidden(self, state: State, seat: Seat | None) -> frozenset[ComponentId]:
        return view.hidden(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return scoring.outcome(state)

    def concede(self, state: State, seat: Seat, rng: Rng) -> list[Event] | None:
        return rules.concede(state, seat, rng)

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return _describe.describe(event, reader, names)


GAME = FivePairsGame()
register(GAME)
