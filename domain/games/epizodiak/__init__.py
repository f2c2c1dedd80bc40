"""EpiZodiak (Cigitur), for three players: empty your hand around a twelve-place dial.

Table of contents: tiles.py and dial.py (components), state.py (the table),
commands.py / events.py, turn.py (draw, pick up, place, discard, pass), contest.py
(contests and forced play), round_end.py (deal, refill, scoring), rules.py (decide,
evolve, legal), view.py (view, redact, hidden), describe.py (history sentences).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.games.epizodiak import rules
from domain.games.epizodiak.commands import Command
from domain.games.epizodiak.describe import describe
from domain.games.epizodiak.events import Event
from domain.games.epizodiak.state import Options, State
from domain.games.epizodiak.tiles import PLAYERS
from domain.games.epizodiak.view import TableView, hidden, redact, view
from domain.kernel import ComponentId, Outcome, Rejected, Rng, RulesStatus, Seat, register

TARGETS = (7, 13)


class EpizodiakGame:
    name = "epizodiak"
    title = "EpiZodiak"
    min_players = PLAYERS
    max_players = PLAYERS
    rules_version = "1"
    rules_status: RulesStatus = "assumptions"
    assumptions: tuple[str, ...] = (
        "A pick-up must be followed by placing at the other end of the dial or by "
        "discarding a set; the picked tile cannot be placed again that turn, and a "
        "single tile cannot be picked up (designer's PDF).",
        "A pick-up needs no matching tile in hand (the French page stands over the "
        "English 'at least one matching tile').",
        "In the rounds mode only the player who empties their hand scores, one point per "
        "set they discarded that round (French page and PDF, over the English '3 points "
        "per round won').",
        "The set taken by a contest counts as a set discarded by the contester, in both modes.",
        "Only passes made at the start of a turn with an empty draw pile count towards a "
        "contest or the forced play; a pass after drawing does not.",
        "A contest is open whenever the two previous turns were such passes (also on the "
        "fourth turn); each playable value the contester holds no tile of may be "
        "contested, unless its set is discarded or the contest would empty a hand (PDF).",
        "After a contest the contester must place or discard; if the contested value is "
        "the dial's last empty place the tile is placed automatically (PDF).",
        "The forced play after three passes must be a placement (no discard); a forced "
        "player who can neither place nor contest is skipped and the next player is "
        "forced (PDF).",
        "Copies of a value are interchangeable: moves name values and the referee uses "
        "the lowest tile ids.",
        "The first player of the match is drawn at random; each later round starts with "
        "the player after the one who emptied their hand (PDF).",
        "One-round ties go to the player who emptied their hand (PDF); in the rounds "
        "mode only that player scores, so no tie at the target can arise.",
        "The 13-point target comes from an older English revision of the page and the "
        "PDF; the newest page only names 7.",
    )
    options_type: type[msgspec.Struct] = Options
    command_type: Any = Command
    event_type: Any = Event
    state_type: type[msgspec.Struct] = State
    conformance_options: list[dict[str, Any]] = [
        {"mode": "one_round"},
        {},
        {"mode": "score", "target": 13},
    ]
    max_moves = 30000

    def check_options(self, options: Options, seats: int) -> None:
        if seats != PLAYERS:
            raise Rejected("bad_seat_count", "EpiZodiak is played by exactly three players.")
        if options.target not in TARGETS:
            raise Rejected(
                "bad_target", f"The target score is 7 or 13 points, not {options.target}."
            )

    def initial(self, options: Options, seats: int) -> State:
        return State(
            options=options,
            hands=[[] for _ in range(seats)],
            sets=[[] for _ in range(seats)],
            scores=[0] * seats,
        )

    def start(self, state: State, rng: Rng) -> list[Event]:
        return rules.start(state, rng)

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

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        return redact(event, seat)

    def hidden(self, state: State, seat: Seat | None) -> frozenset[ComponentId]:
        return hidden(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def concede(self, state: State, seat: Seat, rng: Rng) -> list[Event] | None:
        """EpiZodiak needs all three players: the match ends."""
        return None

    def describe(self, event: Event, reader: Seat | None, names: Sequence[str]) -> str:
        return describe(event, reader, names)


GAME = EpizodiakGame()
register(GAME)
