"""Panda Panda: collect one of six exact hands and show it at the start of your turn.

Table of contents:
- cards.py      the cards and the winning hands, as data
- state.py      the table, options, setup
- commands.py   what a player may send
- events.py     what happened
- rounds.py     the deal and the winning hand
- rules.py      the turn, the pass, the rounds, evolve, outcome, concede
- view.py       view, redact, hidden
- describe.py   history sentences
"""

from domain.games.pandapanda import rules
from domain.games.pandapanda.commands import Command
from domain.games.pandapanda.describe import components, describe
from domain.games.pandapanda.events import Event
from domain.games.pandapanda.state import Options, State, check_options, initial
from domain.games.pandapanda.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="pandapanda",
    title="Panda Panda",
    min_players=2,
    max_players=4,
    rules_version="2",
    rules_status="assumptions",
    assumptions=readme_assumptions(__file__),
    options_type=Options,
    state_type=State,
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
    check_options=check_options,
    conformance_options=({}, {"rounds_to_win": 1}),
    max_moves=12000,
)

register(GAME)
