"""Easy Peasy: shed your hand or your row onto two piles, up or down as the arrow says.

Table of contents: the cards (cards.py), commands, events, the table state, the deal and
the scoring (rounds.py), the turn and the colour bonus (rules.py), what each reader sees
(view.py) and the history sentences (describe.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.games.easypeasy import rules
from domain.games.easypeasy.commands import Command
from domain.games.easypeasy.describe import describe
from domain.games.easypeasy.events import Event
from domain.games.easypeasy.rounds import deal, first_starter
from domain.games.easypeasy.state import Options, State, initial
from domain.games.easypeasy.view import TableView, hidden, redact, view
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
    "Each colour holds one card of each value 1 to 10; the colours' names are assumed "
    "and the last ones listed are left out for fewer players.",
    "Face-down row cards are unknown to everyone, their owner included, until revealed; "
    "by default only the bonus reveals them (option reveal_uncovered turns one up as soon "
    "as its cover is played); a revealed card is playable once uncovered.",
    "The bonus may reveal any face-down card of your row, covered or not.",
    "The colour bonus follows the current BGA help (another card on the same pile, or reveal "
    "a face-down row card); the seed revision's 'or flip the UP/DOWN sign' is option "
    "bonus='flip'. Bonus cards obey the arrow and may earn a further bonus.",
    "Each discard pile starts with one card from the deck; the Up&Down card starts on a "
    "random side.",
    "Drawing two may be chosen even when a card could be played.",
    "If no card can be played after drawing two, the turn ends.",
    "A deck too short to draw two is topped up with both piles but their top cards, shuffled.",
    "Seat 1 begins the first round; each later round is begun by the player left of the "
    "previous round's first player.",
    "A player who concedes (with 3 or more still in) sets their cards aside, scores nothing "
    "more and ranks last.",
)


class EasyPeasyGame:
    name = "easypeasy"
    title = "Easy Peasy"
    min_players = 2
    max_players = 6
    rules_version = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions = ASSUMPTIONS
    options_type: type[msgspec.Struct] = Options
    command_type = Command
    event_type = Event
    state_type: type[msgspec.Struct] = State
    conformance_options: list[dict[str, object]] = [
        {},
        {"bonus": "flip", "reveal_uncovered": True},
        {"reveal_uncovered": True, "rounds": 1},
    ]

    def check_options(self, options: Options, seats: int) -> None:
        if not 1 <= options.rounds <= 10:
            raise Rejected("bad_options", "Play between 1 and 10 rounds.")

    def initial(self, options: Options, seats: int) -> State:
        return initial(options, seats)

    def start(self, state: State, rng: Rng) -> list[Event]:
        return [deal(state, rng, first_starter(state))]

    def decide(self, state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
        return rules.decide(state, seat, command, rng)

    def evolve(self, state: State, event: Event) -> State:
        return rules.evolve(state, event)

    def legal(self, state: State, seat: Seat) -> list[Command]:
        return rules.legal(state, seat)

    def to_act(self, state: State) -> frozenset[Seat]:
        return rules.to_act(state)

    def view(self, state: State, seat: Seat | None) -> TableView:
        return view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event:
        return redact(event, seat)

    def hidden(self, state: State, seat: Seat | None) -> frozenset[ComponentId]:
        return hidden(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """After the last round the lowest total wins; players who conceded rank last."""
        if state.phase != "over":
            return None
        keys = [(0 if state.out[s] else 1, -state.totals[s]) for s in range(state.seats)]
        return Outcome(scores=tuple(state.totals), ranks=ranks_from_keys(keys))

    def concede(self, state: State, seat: Seat, rng: Rng) -> list[Event] | None:
        return rules.concede(state, seat, rng)

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return describe(event, reader, names)


GAME = EasyPeasyGame()
register(GAME)
