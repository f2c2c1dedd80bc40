"""Trek Twelve (Lumberjacks Studio): roll two dice, everybody writes a number on a map.

Table of contents: setup (`rules.initial`, `rules.start`), commands (`commands.py`),
decide / evolve / legal / to_act (`rules.py`), scoring (`scoring.py`), the maps as data
(`maps.py`, `sheet.py`), view and redaction (`view.py`), sentences (`describe.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from domain.games.trektwelve import describe as _describe
from domain.games.trektwelve import rules
from domain.games.trektwelve import view as _view
from domain.games.trektwelve.commands import Command
from domain.games.trektwelve.events import Event
from domain.games.trektwelve.state import Options, State
from domain.kernel import (
    ComponentId,
    Outcome,
    Rng,
    RulesStatus,
    Seat,
    ranks_from_keys,
    register,
)

ASSUMPTIONS: tuple[str, ...] = (
    "Dunai (the beginner sheet without thick circles) is the default map; Kagkot and "
    "Dhaulagiri are options.",
    "Kagkot's links come from an unverified digitisation of the sheet.",
    "Ropes are mandatory: a new number is roped to a free neighbouring number one lower "
    "and to a free neighbouring number one higher when there is one (which may merge two "
    "paths); the trekker only chooses among several equal neighbours.",
    "A rope never joins a frown; a frown is filled (it counts for touching) and lonely.",
    "Every sheet is open to all players, as on the Board Game Arena table.",
    "Equal totals share the rank; a trekker who conceded ranks below all who finished.",
    "Board Game Arena seats 1 to 8 trekkers.",
)


class TrekTwelveGame:
    name = "trektwelve"
    title = "Trek Twelve"
    min_players = 1
    max_players = 8
    rules_version = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions = ASSUMPTIONS
    options_type: type[msgspec.Struct] = Options
    command_type = Command
    event_type = Event
    state_type: type[msgspec.Struct] = State
    conformance_options: list[dict[str, object]] = [
        {},
        {"map": "kagkot"},
        {"map": "dhaulagiri"},
    ]
    max_moves = 19 * 8

    def initial(self, options: Options, seats: int) -> State:
        return rules.initial(options, seats)

    def start(self, state: State, rng: Rng) -> list[Event]:
        return rules.start(state, rng)

    def decide(self, state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
        return rules.decide(state, seat, command, rng)

    def evolve(self, state: State, event: Event) -> State:
        return rules.evolve(state, event)

    def legal(self, state: State, seat: Seat) -> Iterable[Command]:
        return list(rules.legal(state, seat))

    def to_act(self, state: State) -> frozenset[Seat]:
        return rules.to_act(state)

    def view(self, state: State, seat: Seat | None) -> msgspec.Struct:
        return _view.view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        return _view.redact(event, seat)

    def hidden(self, state: State, seat: Seat | None) -> frozenset[ComponentId]:
        return _view.hidden(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        keys = [(0 if state.left[s] else 1, state.scores[s]) for s in range(state.seats)]
        return Outcome(scores=state.scores, ranks=ranks_from_keys(keys))

    def concede(self, state: State, seat: Seat, rng: Rng) -> list[Event] | None:
        return rules.concede(state, seat, rng)

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return _describe.describe(event, reader, names)


GAME = register(TrekTwelveGame())
