"""Aero: arrest six criminals with eight dice, scoring count x lowest number.

Table of contents:

- dice.py       the eight dice and the six criminals (data)
- commands.py   Roll Dice, Set Aside, Arrest, Flip Criminal
- events.py     what happened, every roll with each die's face
- state.py      the table, options
- rules.py      start, decide, evolve, legal, to_act, concede, outcome
- view.py       what the table shows (nothing is secret)
- describe.py   history sentences
"""

from domain.games.aero import rules
from domain.games.aero.commands import Command
from domain.games.aero.describe import components, describe
from domain.games.aero.events import Event
from domain.games.aero.state import AeroOptions, Table, initial
from domain.games.aero.view import view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[Table, Command, Event, AeroOptions](
    name="aero",
    title="Aero",
    min_players=1,
    max_players=4,
    rules_version="2",
    rules_status="assumptions",
    assumptions=readme_assumptions(__file__),
    options_type=AeroOptions,
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
    concede=rules.concede,
    conformance_options=({}, {"number_dice": "bga"}),
    max_moves=400,
)

register(GAME)
