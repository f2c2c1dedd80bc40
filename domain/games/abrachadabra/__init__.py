"""Abrachadabra: draw magic cards, match a diploma with your rabbits, beware black cats.

Table of contents (the rules as implemented are in README.md):

- cards.py      the four piles' mixes, the diplomas of day and night, the feather (data)
- commands.py   Draw Card, Use Potion, Keep Card, Take Diploma, Keep Studying
- events.py     what happened, every draw and vision included
- state.py      the table and the options
- rules.py      initial, start, decide, evolve, legal, to_act, concede, outcome
- view.py       what each seat sees, redacted events, hidden cards
- describe.py   history sentences
"""

from domain.games.abrachadabra import rules
from domain.games.abrachadabra.commands import Command
from domain.games.abrachadabra.describe import components, describe
from domain.games.abrachadabra.events import Event
from domain.games.abrachadabra.state import AbrachadabraOptions, Table
from domain.games.abrachadabra.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[Table, Command, Event, AbrachadabraOptions](
    name="abrachadabra",
    title="Abrachadabra",
    min_players=2,
    max_players=5,
    rules_version="1",
    rules_status="assumptions",
    assumptions=readme_assumptions(__file__),
    options_type=AbrachadabraOptions,
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
    concede=rules.concede,
    conformance_options=({}, {"ends_at_22": True}),
    max_moves=3000,
)

register(GAME)
