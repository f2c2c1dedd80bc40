"""Five Pairs: pair cards with the common area by number or colour (seed 002, "Gamehelpfivepairs").

Table of contents:

- cards.py      the deck and every guessed number (data)
- commands.py   Make Pair, Draw Two, Discard, Deal Round
- events.py     what happened, the deal and every draw included
- state.py      the table, options
- table.py      turn order: who plays next, the starter, the dealer
- rules.py      initial, start, decide, evolve, legal, to_act, concede
- scoring.py    points, the 5/15 token, the end of a round, outcome
- view.py       what each seat sees (the hands and the deck are hidden)
- describe.py   history sentences
"""

from domain.kernel import GameSpec, readme_assumptions, register

from . import rules
from .commands import Command
from .describe import describe
from .events import Event
from .scoring import outcome
from .state import Options, State
from .view import hidden, redact, view

GAME = GameSpec[State, Command, Event, Options](
    name="fivepairs",
    title="Five Pairs",
    min_players=2,
    max_players=4,
    rules_version="1",
    rules_status="assumptions",
    assumptions=readme_assumptions(__file__),
    options_type=Options,
    state_type=State,
    command_type=Command,
    event_type=Event,
    initial=rules.initial,
    start=rules.start,
    decide=rules.decide,
    evolve=rules.evolve,
    legal=rules.legal,
    to_act=rules.to_act,
    view=view,
    outcome=outcome,
    describe=describe,
    redact=redact,
    hidden=hidden,
    concede=rules.concede,
    conformance_options=({}, {"discard_from": "drawn"}),
)

register(GAME)
