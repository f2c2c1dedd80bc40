"""Quinze jours en France: fifteen days on the road, one action a day, missions to meet.

Table of contents:

- cards.py      the 96 Location cards, the 27 Encounters, the days (data)
- commands.py   Voyager, Rencontrer, Récupérer, Garder
- events.py     what happened, private Encounters included
- state.py      the table, options, setup
- rules.py      start, decide, evolve, legal, to_act, concede, outcome
- scoring.py    missions and smileys
- view.py       what the table shows (decks and others' missions are hidden)
- describe.py   history sentences
"""

from domain.games.quinzejoursenfrance import rules
from domain.games.quinzejoursenfrance.commands import Command
from domain.games.quinzejoursenfrance.describe import components, describe
from domain.games.quinzejoursenfrance.events import Event
from domain.games.quinzejoursenfrance.state import QuinzeOptions, Table, initial
from domain.games.quinzejoursenfrance.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, readme_designed, register

GAME = GameSpec[Table, Command, Event, QuinzeOptions](
    name="quinzejoursenfrance",
    title="Quinze jours en France",
    min_players=2,
    max_players=6,
    rules_version="1",
    rules_status="house-completed",
    assumptions=readme_assumptions(__file__),
    designed=readme_designed(__file__),
    options_type=QuinzeOptions,
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
    conformance_options=({}, {"most_ties": "fail"}),
    max_moves=1000,
)

register(GAME)
