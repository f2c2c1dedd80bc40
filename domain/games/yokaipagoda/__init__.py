"""Yokai Pagoda: offer cards on two piles; keep your failed offerings low.

Table of contents: cards.py (the 100 cards, piles and round counts as data),
commands.py, events.py, state.py, rules.py (decide / evolve / legal / to_act),
view.py (view / redact / hidden), describe.py (sentences). Rules in README.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from domain.games.yokaipagoda import describe as _describe
from domain.games.yokaipagoda import rules, view
from domain.games.yokaipagoda.commands import Command
from domain.games.yokaipagoda.events import Event
from domain.games.yokaipagoda.state import Table, YokaiPagodaOptions
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
    "With the Pagoda deck empty, a higher card takes from the other pile only; when neither "
    "is possible (the other pile's last card always stays as its top), nothing is taken.",
    "A player whose hand is empty once their card's effect is resolved ends the round at once.",
    "Giving a card after a match is allowed, not required (option must_give makes it required).",
    "Each new round shuffles every card not in failed offerings; with too few left, hands "
    "are dealt equally as far as they go (none at all: the game ends).",
    "Seat 1 offers first; each later round is opened by the player after the round's ender.",
    "The Yokai are named kappa ... nue here; the game tells them apart only by art and colour.",
    "Equal totals share the rank.",
)


class YokaiPagodaGame:
    name: str = "yokaipagoda"
    title: str = "Yokai Pagoda"
    min_players: int = 2
    max_players: int = 5
    rules_version: str = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions: tuple[str, ...] = ASSUMPTIONS
    options_type: type[msgspec.Struct] = YokaiPagodaOptions
    command_type: Any = Command
    event_type: Any = Event
    state_type: type[msgspec.Struct] = Table
    conformance_options: list[dict[str, Any]] = [{}, {"must_give": True}]
    max_moves: int = 3000

    def initial(self, options: YokaiPagodaOptions, seats: int) -> Table:
        return Table(
            seats=seats,
            options=options,
            hands=[[] for _ in range(seats)],
            failed=[[] for _ in range(seats)],
            known=[[] for _ in range(seats)],
        )

    def start(self, state: Table, rng: Rng) -> list[Event]:
        return rules.deal(state, 1, 0, rng)

    def evolve(self, state: Table, event: Event) -> Table:
        return rules.evolve(state, event)

    def decide(self, state: Table, seat: Seat, command: Command, rng: Rng) -> list[Event]:
        return rules.decide(state, seat, command, rng)

    def legal(self, state: Table, seat: Seat) -> Iterable[Command]:
        return list(rules.legal(state, seat))

    def to_act(self, state: Table) -> frozenset[Seat]:
        return rules.to_act(state)

    def view(self, state: Table, seat: Seat | None) -> view.YokaiPagodaView:
        return view.view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        return view.redact(event, seat)

    def hidden(self, state: Table, seat: Seat | None) -> frozenset[ComponentId]:
        return view.hidden(state, seat)

    def outcome(self, state: Table) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = rules.scores(state)
        keys = [(int(s not in state.conceded), -scores[s]) for s in range(state.seats)]
        return Outcome(scores=scores, ranks=ranks_from_keys(keys))

    def concede(self, state: Table, seat: Seat, rng: Rng) -> list[Event] | None:
        return rules.concede(state, seat, rng)

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return _describe.describe(event, reader, names)


GAME = YokaiPagodaGame()
register(GAME)
