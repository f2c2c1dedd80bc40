"""Scripta: draw and discard until your hand meets one of the page's three ways to win.

Table of contents:

- cards.py      the deck, the hand size, the page's three thresholds (data)
- commands.py   Draw Card, Discard Card
- events.py     what happened, private draws included
- state.py      the table, options, setup
- rules.py      the three ways to win, start, decide, evolve, legal, to_act, concede
- view.py       what the table shows (the deck and others' hands are hidden)
- describe.py   history sentences
"""

from domain.games.scripta import rules
from domain.games.scripta.commands import Command
from domain.games.scripta.describe import components, describe
from domain.games.scripta.events import Event
from domain.games.scripta.state import ScriptaOptions, Table, initial
from domain.games.scripta.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, readme_designed, register

GAME = GameSpec[Table, Command, Event, ScriptaOptions](
    name="scripta",
    title="Scripta",
    min_players=2,
    max_players=4,
    rules_version="1",
    rules_status="house-completed",
    assumptions=readme_assumptions(__file__),
    designed=readme_designed(__file__),
    options_type=ScriptaOptions,
    state_type=Table,
    command_type=Command,
    event_type=Event,
    initial=initial,
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
    concede=rules.concede,
    conformance_options=({}, {"rounds": 3}),
    max_moves=500,
)

register(GAME)
