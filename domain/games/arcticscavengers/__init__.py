"""Arctic Scavengers (base game): deck building, gathering, and skirmishes over resources.

Table of contents: setup and rounds (`rounds.py`), gathering (`gathering.py`), the
skirmish (`skirmish.py`), evolve (`evolve.py`), the turn flow (`rules.py`), what each
seat sees (`view.py`) and the history sentences (`describe.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.games.arcticscavengers import rounds, rules
from domain.games.arcticscavengers import view as views
from domain.games.arcticscavengers.commands import Command
from domain.games.arcticscavengers.describe import describe
from domain.games.arcticscavengers.events import Event
from domain.games.arcticscavengers.evolve import evolve
from domain.games.arcticscavengers.state import Options, State, Tribe
from domain.kernel import Outcome, Rng, RulesStatus, Seat, register

ASSUMPTIONS: tuple[str, ...] = (
    "Card values and counts follow the facts sheet; the Shovel gives +2 dig and +1 fight.",
    "A mercenary with a food and a med cost needs both (meds never pay for food or back); "
    "only Thugs take 6 in any mix.",
    "Sniper teams and saboteurs act only in the skirmish, not during gathering.",
    "Every card left in hand when a player stops gathering goes face down to the skirmish.",
    "In a skirmish, tools and Group Leaders go to the fighters for the best total, "
    "at most one of each per fighter (the FAQ lets the owner rearrange tools after a snipe).",
    "Wolf Packs and Grenades are tools: they need a tribe member and can be disarmed.",
    "A sniped tribe member adds neither fight nor people to the skirmish.",
    "On a tie, people are compared only among the players tied for the highest fight.",
    "Discard piles are seen only by their owner; the kept dug card and the hired mercenary "
    "go there unseen by the others (the kind hired is public).",
    "Dug cards not kept go to the junkyard bottom in the order they were drawn.",
    "Food from hunting and medicine played towards a hire that is not spent are lost at the "
    "end of the gathering turn; overpaying is allowed.",
    "A dig or draw larger than the junkyard or the deck plus discard takes what there is.",
    "The 2-player variant applies to every 2-player game unless switched off.",
    "Equal tribes at the end share the victory (option: the tribe with more contested "
    "resources wins).",
    "A conceding tribe leaves the game and ranks last; the game goes on while two remain.",
)


class ArcticScavengersGame:
    name = "arcticscavengers"
    title = "Arctic Scavengers"
    min_players = 2
    max_players = 5
    rules_version = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions = ASSUMPTIONS
    options_type: type[msgspec.Struct] = Options
    command_type = Command
    event_type = Event
    state_type: type[msgspec.Struct] = State
    conformance_options: list[dict[str, Any]] = [
        {},
        {"two_player_variant": False},
        {"final_tie_break": "contested_resources"},
    ]
    max_moves = 3000

    def initial(self, options: Options, seats: int) -> State:
        return State(options=options, seats=seats, tribes=[Tribe() for _ in range(seats)])

    def start(self, state: State, rng: Rng) -> list[Event]:
        return rounds.set_up(state, rng)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def decide(self, state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
        return rules.decide(state, seat, command, rng)

    def legal(self, state: State, seat: Seat) -> list[Command]:
        return rules.legal(state, seat)

    def to_act(self, state: State) -> frozenset[Seat]:
        return rules.to_act(state)

    def view(self, state: State, seat: Seat | None) -> msgspec.Struct:
        return views.view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        return views.redact(event, seat)

    def hidden(self, state: State, seat: Seat | None) -> frozenset[str]:
        return views.hidden(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return rounds.outcome(state)

    def concede(self, state: State, seat: Seat, rng: Rng) -> list[Event] | None:
        return rules.concede(state, seat, rng)

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return describe(event, reader, names)


GAME = ArcticScavengersGame()
register(GAME)
