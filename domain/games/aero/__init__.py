"""Aero: arrest six criminals with eight dice, scoring count x lowest number.

Table of contents: dice.py (the dice as data), commands.py, events.py, state.py,
rules.py (decide / evolve / legal / to_act), view.py (view / redact / hidden),
describe.py (sentences). The rules as implemented are in README.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from domain.games.aero import describe as _describe
from domain.games.aero import rules, view
from domain.games.aero.commands import Command
from domain.games.aero.events import Event, TurnBegan
from domain.games.aero.state import AeroOptions, Dealt, Table
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
    "The number dice carry the faces of the newer BGA page (blue: eye, eye, 2, 3, 4, 5; "
    "black: eye, 2, 3, 4, 5, 5), not the 1-6 of the seed page.",
    "Only the Clown and the Fly are named; the other four criminals are criminal 3 to 6.",
    "One to four players take whole turns in seat order, seat 1 first.",
    "A player may stop rolling early by setting aside every remaining die at once.",
    "Equal totals share the rank; there is no tie-break.",
)


class AeroGame:
    name: str = "aero"
    title: str = "Aero"
    min_players: int = 1
    max_players: int = 4
    rules_version: str = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions: tuple[str, ...] = ASSUMPTIONS
    options_type: type[msgspec.Struct] = AeroOptions
    command_type: Any = Command
    event_type: Any = Event
    state_type: type[msgspec.Struct] = Table
    max_moves: int = 400

    def initial(self, options: AeroOptions, seats: int) -> Table:
        return Table(seats=seats, dealt=[[] for _ in range(seats)])

    def start(self, state: Table, rng: Rng) -> list[Event]:
        return [TurnBegan(seat=0, turn=1)]

    def evolve(self, state: Table, event: Event) -> Table:
        return rules.evolve(state, event)

    def decide(self, state: Table, seat: Seat, command: Command, rng: Rng) -> list[Event]:
        return rules.decide(state, seat, command, rng)

    def legal(self, state: Table, seat: Seat) -> Iterable[Command]:
        return list(rules.legal(state, seat))

    def to_act(self, state: Table) -> frozenset[Seat]:
        return rules.to_act(state)

    def view(self, state: Table, seat: Seat | None) -> view.AeroView:
        return view.view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        return view.redact(event, seat)

    def hidden(self, state: Table, seat: Seat | None) -> frozenset[ComponentId]:
        return view.hidden(state, seat)

    def outcome(self, state: Table) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = rules.totals(state)
        keys = [(int(rules.is_active(state, s)), scores[s]) for s in range(state.seats)]
        return Outcome(scores=scores, ranks=ranks_from_keys(keys))

    def concede(self, state: Table, seat: Seat, rng: Rng) -> list[Event] | None:
        return rules.concede(state, seat)

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return _describe.describe(event, reader, names)


GAME = AeroGame()
register(GAME)

__all__ = ["GAME", "AeroGame", "AeroOptions", "Dealt", "Table"]
