"""Bubblee Pop (Bankiiiz): let Bubblees fall from the sky, line up three, use their powers.

Table of contents: setup (`setup.py`), the board and the Bubblees as data (`board.py`,
`bubblees.py`), commands (`commands.py`), the turn: decide / evolve / legal / to_act
(`rules.py`), matches and chains (`matches.py`), the colours' powers (`powers.py`),
view and redaction (`view.py`), sentences (`describe.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from domain.games.bubbleepop import describe as _describe
from domain.games.bubbleepop import rules, setup
from domain.games.bubbleepop import view as _view
from domain.games.bubbleepop.commands import Command
from domain.games.bubbleepop.events import Event
from domain.games.bubbleepop.state import Options, State
from domain.kernel import (
    ComponentId,
    Outcome,
    Rejected,
    Rng,
    RulesStatus,
    Seat,
    ranks_from_scores,
    register,
)

ASSUMPTIONS: tuple[str, ...] = (
    "A match removes each line of three or more plus the same-coloured Bubblees directly "
    "touching the line, not the whole same-coloured group.",
    "Each straight line of three or more scored gives one power (two crossing lines give two).",
    "A chain resolves fully before any power is used; powers then come batch by batch in "
    "the order of the matches, the player ordering a batch of simultaneous matches.",
    "A Bubblee that cannot land stays in the sky and lands as soon as its column has room; "
    "if it is still in the sky when the turn's matches and powers are done, its player loses.",
    "A vertical pair lands the Bubblee from the player's side first.",
    "A power may not overfill a planet: Blue, Purple and White need room in the column.",
    "Purple sends the Bubblee to the same column of the opponent's planet.",
    "Orange puts the taken Bubblee in your scoring area.",
    "White pushes one of the black Bubblees left in the box; with none left it cannot be used.",
    "Lines made on the opponent's planet by a power are scored at once by that planet's "
    "owner, who gains no power from them.",
    "Swaps (sky, Red, Green) exchange two Bubblees, never a Bubblee and an empty space.",
    "The game ends on points when, at the start of a turn, the bag holds fewer Bubblees "
    "than the sky has empty slots.",
    "The sky is laid out at random with no two Bubblees of a colour touching, and the first "
    "player is drawn at random.",
    "Each expansion colour (16 Bubblees) replaces one base colour: orange replaces yellow "
    "and white replaces purple unless the options say otherwise.",
)


class BubbleePopGame:
    name = "bubbleepop"
    title = "Bubblee Pop"
    min_players = 2
    max_players = 2
    rules_version = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions = ASSUMPTIONS
    options_type: type[msgspec.Struct] = Options
    command_type = Command
    event_type = Event
    state_type: type[msgspec.Struct] = State
    conformance_options: list[dict[str, object]] = [
        {},
        {"orange": True},
        {"white": True},
        {"orange": True, "white": True, "orange_replaces": "red", "white_replaces": "green"},
    ]

    def initial(self, options: Options, seats: int) -> State:
        return setup.initial(options, seats)

    def start(self, state: State, rng: Rng) -> list[Event]:
        return setup.start(state, rng)

    def decide(self, state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
        return rules.decide(state, seat, command, rng)

    def evolve(self, state: State, event: Event) -> State:
        return rules.evolve(state, event)

    def legal(self, state: State, seat: Seat) -> Iterable[Command]:
        return rules.legal(state, seat)

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
        points = tuple(len(s) for s in state.scored)
        if state.overfilled is not None:
            ranks = tuple(2 if s == state.overfilled else 1 for s in range(len(points)))
            return Outcome(scores=points, ranks=ranks)
        return Outcome(scores=points, ranks=ranks_from_scores(points))

    def concede(self, state: State, seat: Seat, rng: Rng) -> list[Event] | None:
        return rules.concede(state, seat, rng)

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return _describe.describe(event, reader, names)

    def check_options(self, options: Options, seats: int) -> None:
        if options.orange and options.white and options.orange_replaces == options.white_replaces:
            raise Rejected(
                "same_colour_replaced",
                f"Orange and white cannot both replace {options.orange_replaces}.",
            )


GAME = register(BubbleePopGame())
