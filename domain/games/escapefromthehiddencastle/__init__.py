"""Escape from the Hidden Castle (Wolfgang Kramer; "Hugo", "Midnight Party").

Guests hide from Hugo the castle ghost in the rooms off the gallery; whom he catches goes
down the cellar steps with fright points. Fewest fright points wins. Table of contents:

- castle.py     the board as data: gallery, rooms, cellar steps, Hugo's clock
- figures.py    the guests and the die (data)
- commands.py   Place Guest, Roll Die, Move Guest, Stay Put (Midnight Party)
- events.py     what happened, every roll included
- state.py      the table, options, setup
- rules.py      decide, legal, to_act, concede, outcome
- moves.py      moving a guest: gallery, rooms, expulsions, the cellar
- hugo.py       Hugo's walk, his clock and his captures
- party.py      the Midnight Party rounds
- table.py      reading the table (who stands where, free steps, next player)
- evolve.py     the fold
- view.py       view, redact, hidden (nothing is secret)
- describe.py   history sentences
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.games.escapefromthehiddencastle import describe as _describe
from domain.games.escapefromthehiddencastle import rules
from domain.games.escapefromthehiddencastle import view as _view
from domain.games.escapefromthehiddencastle.commands import Command
from domain.games.escapefromthehiddencastle.events import Event
from domain.games.escapefromthehiddencastle.evolve import evolve
from domain.games.escapefromthehiddencastle.state import Options, State, initial
from domain.kernel import ComponentId, Outcome, Rng, RulesStatus, Seat, register

ASSUMPTIONS: tuple[str, ...] = (
    "The gallery has 40 spaces numbered clockwise from the arrow space (0); the nine doors "
    "face spaces 2, 3 (the first two rooms, 4 and 5 points from the cellar), 8 (Armoury), "
    "12, 17 (Ballroom), 21, 26, 31 (Banquet Hall) and 36; the other rooms' names are ours.",
    "There are nine cellar steps, +10 down to +2 (-10 to -2 on the Midnight Party side).",
    "Hugo's speed by his counter: 3 at 23:45 and 24:00, 4 at 1:00, 5 at 2:00, 6 at 3:00, "
    "7 at 4:00; stepping out of the cellar onto the arrow space sets 24:00 and is not an "
    "hour mark of its own.",
    "Hugo counts one space per cellar step; the arrow space is his first gallery space.",
    "When Hugo's counter reaches 5:00 on the arrow space the game ends there; guests on the "
    "arrow space are still caught, the rest of his move is not made.",
    "The move that takes a counter to 46 or more is played out in full, then the game ends.",
    "The step out of a room costs one point (it reaches the space before the door); coming "
    "up from the cellar, one point reaches the arrow space.",
    "A guest may not leave a room and go back into it in the same move.",
    "Any guest may be expelled by an exact entry, one's own included; an expelled guest put "
    "down on Hugo's space is caught at once.",
    "Captured guests go to the free step with the highest number, even one freed by a guest "
    "who came up again; each captured guest scores its step's number.",
    "The starting player is drawn at random; they place the first guest and roll first; "
    "setup places one guest per free space.",
    "The die shows 1, 2, 4, 5 and Hugo twice.",
    "Midnight Party: the other side has the same gallery and 11 rooms: the nine above plus "
    "the Abandoned Room (space 24, Hugo Junior) and the Attic (space 33).",
    "Midnight Party: green-crest rooms still need an exact entry; an occupied room cannot "
    "be entered; a player with exactly one guest on the gallery rolls and, on a number, may "
    "stay put; with none, a number does nothing.",
    "Midnight Party: every guest left on the gallery at the end of a round goes to step -2; "
    "with every step taken a capture goes to -10 with the guests there.",
    "Midnight Party: luck points count -2 each and a round score may be negative; ties for "
    "the most fright (who starts the next round, who places first on a shared step) go "
    "clockwise from the previous starting player; guests come back on free spaces.",
    "A player who concedes takes their guests off the board and is skipped; with one player "
    "left the match ends.",
)


class EscapeFromTheHiddenCastleGame:
    name = "escapefromthehiddencastle"
    title = "Escape from the Hidden Castle"
    min_players = 2
    max_players = 8
    rules_version = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions = ASSUMPTIONS
    options_type: type[msgspec.Struct] = Options
    command_type: Any = Command
    event_type: Any = Event
    state_type: type[msgspec.Struct] = State
    conformance_options: list[dict[str, Any]] = [{}, {"midnight_party": True}]
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
        return evolve(state, event)

    def legal(self, state: State, seat: Seat) -> list[Command]:
        return rules.legal(state, seat)

    def to_act(self, state: State) -> frozenset[Seat]:
        return rules.to_act(state)

    # What each seat sees
    def view(self, state: State, seat: Seat | None) -> _view.TableView:
        return _view.view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event:
        return _view.redact(event, seat)

    def hidden(self, state: State, seat: Seat | None) -> frozenset[ComponentId]:
        return _view.hidden(state, seat)

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return _describe.describe(event, reader, names)

    # Leaving and winning
    def concede(self, state: State, seat: Seat, rng: Rng) -> list[Event] | None:
        return rules.concede(state, seat, rng)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)


GAME = EscapeFromTheHiddenCastleGame()
register(GAME)
