"""Jewel Box: collect beetles by die roll into a 4x4 (5x5) box and score each family.

Table of contents: beetles.py (beetles, log, tools, scoring tables as data), box.py
(the grids as data), commands.py, events.py, state.py, rules.py (decide / evolve /
legal / to_act), scoring.py (the families' scoring), view.py (view / redact / hidden),
describe.py (sentences). The rules as implemented are in README.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from domain.games.jewelbox import describe as _describe
from domain.games.jewelbox import rules, view
from domain.games.jewelbox.beetles import BEETLES, LOG_SPACES, TOOLS
from domain.games.jewelbox.box import BOX_SIDE, GRIDS
from domain.games.jewelbox.commands import Command
from domain.games.jewelbox.events import Event, LogFilled, TurnBegan
from domain.games.jewelbox.state import JewelBoxOptions, Table
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
    "One to four players (the box's count; five or more would need more than 75 beetles); "
    "solo and two players use the 5x5 box, option box_side forces a size.",
    "A scoring scarab's neighbours are all of different families and none is a scarab; "
    "corners count as edge (option scarab_neighbours='no_scarab': only no scarab neighbour).",
    "A straight line of 5 weevils (5x5 box) scores 15; a weevil in both a row and a column "
    "line is counted in whichever split scores most.",
    "Six or more lone ladybugs score as five (15 points).",
    "A face-down beetle taken with the magnifying glass is drawn at random, unseen before.",
    "The forceps swap two beetles already in the box; after collecting means after placing.",
    "Turns go in seat order, seat 1 first; equal totals share the rank.",
)


class JewelBoxGame:
    name: str = "jewelbox"
    title: str = "Jewel Box"
    min_players: int = 1
    max_players: int = 4
    rules_version: str = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions: tuple[str, ...] = ASSUMPTIONS
    options_type: type[msgspec.Struct] = JewelBoxOptions
    command_type: Any = Command
    event_type: Any = Event
    state_type: type[msgspec.Struct] = Table
    conformance_options: list[dict[str, Any]] = [
        {},
        {"scarab_neighbours": "no_scarab"},
        {"box_side": 4},
    ]
    max_moves: int = 1000

    def check_options(self, options: JewelBoxOptions, seats: int) -> None:
        side = options.box_side or BOX_SIDE[seats]
        if side not in GRIDS:
            raise Rejected("bad_box_side", f"A jewel box is 4x4 or 5x5, not {side}x{side}.")
        # Every beetle collected must find the log full: at most 75 - 4 collected in all.
        if seats * side * side > len(BEETLES) - len(LOG_SPACES) + 1:
            raise Rejected(
                "not_enough_beetles",
                f"{seats} boxes of {side}x{side} need more beetles than the game holds.",
            )

    def initial(self, options: JewelBoxOptions, seats: int) -> Table:
        side = options.box_side or BOX_SIDE[seats]
        return Table(
            seats=seats,
            options=options,
            side=side,
            supply=sorted(BEETLES),
            boxes=[[None] * (side * side) for _ in range(seats)],
            tools=[list(TOOLS) for _ in range(seats)],
        )

    def start(self, state: Table, rng: Rng) -> list[Event]:
        """Five face-down beetles are turned face up on the log; seat 1 takes the die."""
        drawn = rng.sample(state.supply, len(LOG_SPACES))
        log = [LogFilled(space=space, beetle=b) for space, b in zip(LOG_SPACES, drawn, strict=True)]
        return [*log, TurnBegan(seat=0)]

    def evolve(self, state: Table, event: Event) -> Table:
        return rules.evolve(state, event)

    def decide(self, state: Table, seat: Seat, command: Command, rng: Rng) -> list[Event]:
        return rules.decide(state, seat, command, rng)

    def legal(self, state: Table, seat: Seat) -> Iterable[Command]:
        return list(rules.legal(state, seat))

    def to_act(self, state: Table) -> frozenset[Seat]:
        return rules.to_act(state)

    def view(self, state: Table, seat: Seat | None) -> view.JewelBoxView:
        return view.view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        return view.redact(event, seat)

    def hidden(self, state: Table, seat: Seat | None) -> frozenset[ComponentId]:
        return view.hidden(state, seat)

    def outcome(self, state: Table) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = tuple(sheet.total for sheet in state.sheets)
        keys = [(int(rules.is_active(state, s)), scores[s]) for s in range(state.seats)]
        return Outcome(scores=scores, ranks=ranks_from_keys(keys))

    def concede(self, state: Table, seat: Seat, rng: Rng) -> list[Event] | None:
        return rules.concede(state, seat)

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return _describe.describe(event, reader, names)


GAME = JewelBoxGame()
register(GAME)
