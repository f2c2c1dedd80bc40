"""Carnuta: two actions a turn to gather runes and play ingredient cards, 11 to end.

Table of contents:

- cards.py      the 72 cards, the board's thresholds, the starting kit (data)
- commands.py   Take Card, Play Card, Take Runes, Flip Runes, Use Sickle, Pick Token
- events.py     what happened, every deal included
- state.py      the table, options, setup
- rules.py      start, decide, evolve, legal, to_act, concede, outcome
- scoring.py    each card's scoring condition
- view.py       what the table shows (the decks are hidden)
- describe.py   history sentences
"""

from domain.games.carnuta import rules
from domain.games.carnuta.commands import Command
from domain.games.carnuta.describe import components, describe
from domain.games.carnuta.events import Event
from domain.games.carnuta.state import CarnutaOptions, Table, initial
from domain.games.carnuta.view import hidden, view
from domain.kernel import GameSpec, readme_assumptions, readme_designed, register

GAME = GameSpec[Table, Command, Event, CarnutaOptions](
    name="carnuta",
    title="Carnuta",
    min_players=2,
    max_players=4,
    rules_version="1",
    rules_status="house-completed",
    assumptions=readme_assumptions(__file__),
    designed=readme_designed(__file__),
    options_type=CarnutaOptions,
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
    hidden=hidden,
    concede=rules.concede,
    conformance_options=({}, {"last_round": "finish"}),
    max_moves=1500,
)

register(GAME)
