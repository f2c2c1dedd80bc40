"""3-13: an eleven-round rummy with two decks and four jokers (seed 002, "Gamehelpthreethirteen").

Table of contents: the cards (`cards.py`), melding a hand (`melds.py`), the table state
and options (`state.py`), turn order (`table.py`), the deal, the turn and the end of a
round (`rules.py`), scoring (`scoring.py`), what each seat sees (`view.py`) and the
history sentences (`describe.py`).
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
from .state import Options, State, check_options

ASSUMPTIONS: tuple[str, ...] = (
    "When the draw pile runs out, the discard pile except its top card is shuffled into a "
    "new draw pile (option empty_stock: 'end_round' ends the round after that turn instead).",
    "Three or more wild cards alone make a meld (option wild_melds).",
    "A set may hold two identical cards, one from each deck.",
    "Each hand not out is counted with the arrangement into melds that leaves the fewest "
    "points; wild cards inside melds cost nothing.",
    "After someone goes out, the other players' final turns are ordinary draw-and-discard "
    "turns; a hand that is fully melded after the discard scores 0.",
    "A card taken from the discard pile may be discarded again in the same turn.",
    "Players tied on the lowest total share the win.",
    "Each round is dealt by the player to the right of that round's starting player, "
    "who sends DealRound once the previous round's score is shown.",
)


class ThreeThirteenGame:
    name: str = "threethirteen"
    title: str = "3-13"
    min_players: int = 2
    max_players: int = 6
    rules_version: str = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions: tuple[str, ...] = ASSUMPTIONS
    options_type: type[msgspec.Struct] = Options
    command_type: Any = Command
    event_type: Any = Event
    state_type: type[msgspec.Struct] = State
    max_moves: int = 6000
    conformance_options: list[dict[str, Any]] = [
        # Random play seldom goes out, so the bots play short games: see README, Testing.
        {"empty_stock": "end_round", "last_round": 2},
        {"empty_stock": "end_round", "first_round": 10, "wild_melds": False},
        {"empty_stock": "reshuffle", "last_round": 2},
        {"empty_stock": "end_round", "first_round": 7, "last_round": 8},
    ]

    def check_options(self, options: Options, seats: int) -> None:
        check_options(options, seats)

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


GAME = ThreeThirteenGame()
register(GAME)
