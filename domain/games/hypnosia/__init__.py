"""Hypnosia: race your pawns inward over the bridges of concentric circles into the centre.

Roll two dice, burn every pip with one pawn or two, stack and capture on the way, and
enter the centre from one of its six special spaces with an exact 1. Table of contents:

- board.py      the board as data (circles, bridges, centre, start lanes, seating)
- track.py      reading the board: next space, bridges, start squares, pawn ids
- commands.py   Roll Dice, Move Pawns (one die at a time)
- events.py     what happened, every throw of the dice included
- state.py      the table, options, setup
- moves.py      where a die takes a pawn or stack, landing, the dice rule
- rules.py      decide, evolve, legal, to_act, concede, outcome
- view.py       view, redact, hidden (nothing is secret)
- describe.py   history sentences
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.games.hypnosia import describe as _describe
from domain.games.hypnosia import rules, view
from domain.games.hypnosia.commands import Command
from domain.games.hypnosia.events import Event
from domain.games.hypnosia.state import Options, State, initial
from domain.kernel import ComponentId, Outcome, Rng, RulesStatus, Seat, register

ASSUMPTIONS: tuple[str, ...] = (
    "The board geometry is designed, not known: outer, middle and inner circles of 48, 36 "
    "and 24 spaces; six bridges per circle; six start lanes of four squares evenly round "
    "the outer circle (board.py, a data change when the real board is known).",
    "Colours by table size keep players spread out: 2 players opposite each other, "
    "3 every other lane, and so on (board.py seating).",
    "Crossing a bridge is one step of a move, taken only as the first step from the bridge "
    "space a pawn stands on; crossing is optional.",
    "Each die is its own move, even when one pawn uses both: it lands, stacks and captures "
    "after each die.",
    "Pawns pass over any pawns; only the space a move ends on matters.",
    "A pawn on the k-th start square needs k steps to reach its entry space and goes on "
    "with the rest of the die; a die too small to reach the circle cannot move it.",
    "Burning all the pips: while some order of moves uses both dice, a first move that "
    "leaves the second die unusable is refused (option must_use_both_dice); when only one "
    "die can be used, either may be; a die no pawn can burn exactly is lost.",
    "Players tied for the highest starting throw throw again.",
    "A stack's two pawns enter the centre one after the other, scoring in arrival order; "
    "when only one fits, the pawn with the smaller id enters and the other stays.",
    "A tied player with no pawn in the centre ranks below tied players with one; tied "
    "players with none share the rank.",
    "A player who concedes has their pawns taken off the board with no points changing, "
    "their turns are skipped and they rank last; with one player left the match ends.",
)


class HypnosiaGame:
    name = "hypnosia"
    title = "Hypnosia"
    min_players = 2
    max_players = 6
    rules_version = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions: tuple[str, ...] = ASSUMPTIONS
    options_type: type[msgspec.Struct] = Options
    command_type: Any = Command
    event_type: Any = Event
    state_type: type[msgspec.Struct] = State
    conformance_options: list[dict[str, Any]] = [
        {},
        {"stacks_cannot_cross": True},
        {"must_use_both_dice": False},
    ]
    max_moves = 3000

    # Setup
    def initial(self, options: Options, seats: int) -> State:
        return initial(options, seats)

    def start(self, state: State, rng: Rng) -> list[Event]:
        return rules.start(state, rng)

    # The turn
    def decide(self, state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
        return rules.decide(state, seat, command, rng)

    def evolve(self, state: State, event: Event) -> State:
        return rules.evolve(state, event)

    def legal(self, state: State, seat: Seat) -> list[Command]:
        return rules.legal(state, seat)

    def to_act(self, state: State) -> frozenset[Seat]:
        return rules.to_act(state)

    # What each seat sees
    def view(self, state: State, seat: Seat | None) -> view.TableView:
        return view.view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event:
        return view.redact(event, seat)

    def hidden(self, state: State, seat: Seat | None) -> frozenset[ComponentId]:
        return view.hidden(state, seat)

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return _describe.describe(event, reader, names)

    # Leaving and winning
    def concede(self, state: State, seat: Seat, rng: Rng) -> list[Event] | None:
        return rules.concede(state, seat, rng)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)


GAME = HypnosiaGame()
register(GAME)
