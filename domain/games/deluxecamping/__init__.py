"""Deluxe Camping: fence off the biggest camping areas for your bungalow and trailers.

Table of contents (the rules as implemented are in README.md):

- board.py      the ground, the pool, the mystery squares, the pieces, the points (data)
- commands.py   Place Bungalow, Place Trailer, Move Piece, Stop Moving, Add Fence, Skip Fence
- events.py     what happened, the face-down tokens included
- state.py      the table and the options
- rules.py      initial, start, decide, evolve, legal, to_act, outcome
- areas.py      the fenced sections, the end condition and the scoring
- view.py       what each seat sees, redacted events, hidden tokens
- describe.py   history sentences
"""

from domain.games.deluxecamping import rules
from domain.games.deluxecamping.board import MAX_PLAYERS
from domain.games.deluxecamping.commands import Command
from domain.games.deluxecamping.describe import components, describe
from domain.games.deluxecamping.events import Event
from domain.games.deluxecamping.state import DeluxeCampingOptions, Table
from domain.games.deluxecamping.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[Table, Command, Event, DeluxeCampingOptions](
    name="deluxecamping",
    title="Deluxe Camping",
    min_players=2,
    max_players=MAX_PLAYERS,
    rules_version="1",
    rules_status="assumptions",
    assumptions=readme_assumptions(__file__),
    options_type=DeluxeCampingOptions,
    state_type=Table,
    command_type=Command,
    event_type=Event,
    initial=rules.initial,
    start=rules.start,
    decide=rules.decide,
    evolve=rules.evolve,
    legal=rules.legal,
    to_act=rules.to_act,
    view=view,
    outcome=rules.outcome,
    describe=describe,
    components=components,
    redact=redact,
    hidden=hidden,
    conformance_options=({}, {"fence_optional": True}),
    max_moves=1500,
)

register(GAME)
