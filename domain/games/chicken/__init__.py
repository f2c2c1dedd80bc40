"""Chicken! (Scott Almes, Keymaster Games), with the Eggspansion as an option.

Push your luck with dice: roll chickens, dodge foxes, hatch more dice from eggs, and be
the first farmer to end a turn with 25 points. Table of contents:

- dice.py       the dice and their faces (data)
- coop.py       the Coop and the Seed Bag: which die an egg hatches, refilling
- commands.py   Go For It, Chicken Out, Hatch (Eggspansion), Reroll, Count Your Chickens
- events.py     what happened, every roll and draw included
- state.py      the table, options, setup
- rules.py      decide, evolve, legal, to_act, concede, outcome
- view.py       view, redact, hidden (nothing is secret)
- describe.py   history sentences
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.games.chicken import describe as _describe
from domain.games.chicken import rules, view
from domain.games.chicken.commands import Command
from domain.games.chicken.events import Event
from domain.games.chicken.state import Options, State, initial
from domain.kernel import ComponentId, Outcome, Rng, RulesStatus, Seat, register


class ChickenGame:
    name = "chicken"
    title = "Chicken!"
    min_players = 2
    max_players = 8
    rules_version = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions: tuple[str, ...] = (
        "The orange die's sixth face, missing from the rules page, is an egg "
        "(chicken, double chicken, egg, fox, fox, blank).",
        "Blue the Dog shows Happy Dog on three faces and Bark! on three.",
        "Mother Hen shows Chick on three faces and Double Chicken on three.",
        "The starting space is 0 points: a score never drops below 0, and a farmer "
        "back at 0 is on the starting space again, so chickening out there is free.",
        "The starting player is drawn at random (who last held a chicken is not known).",
        "A Happy Dog or Chick still showing after the reroll scores its point.",
        "Dice hatched after the reroll are passed on unrolled with the others.",
        "Reroll is not offered when every die is set aside (the middle is empty).",
        "A farmer who concedes is skipped from then on; if they held the dice, the dice "
        "go on as after a bust (nothing scored, coloured dice back, whites passed on); "
        "the last farmer left wins at once.",
    )
    options_type: type[msgspec.Struct] = Options
    command_type: Any = Command
    event_type: Any = Event
    state_type: type[msgspec.Struct] = State
    conformance_options: list[dict[str, Any]] = [{}, {"eggspansion": True}]
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
    def concede(self, state: State, seat: Seat, rng: Rng) -> list[Event]:
        return rules.concede(state, seat, rng)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)


GAME = ChickenGame()
register(GAME)
