"""Yokai Pagoda: offer cards on two piles; keep your failed offerings low.

Table of contents (the rules as implemented are in README.md):

- cards.py      the 100 cards, the two piles and the round counts (data)
- commands.py   Play Card, Give Card, Give Nothing, Take Card, End Round, Carry On, Deal Round
- events.py     what happened, every deal and draw included
- state.py      the table and the options
- rules.py      initial, start, decide, evolve, legal, to_act, concede, outcome
- view.py       what each seat sees, redacted events, hidden cards
- describe.py   history sentences
"""

from domain.games.yokaipagoda import rules
from domain.games.yokaipagoda.commands import Command
from domain.games.yokaipagoda.describe import components, describe
from domain.games.yokaipagoda.events import Event
from domain.games.yokaipagoda.state import Table, YokaiPagodaOptions
from domain.games.yokaipagoda.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[Table, Command, Event, YokaiPagodaOptions](
    name="yokaipagoda",
    title="Yokai Pagoda",
    min_players=2,
    max_players=5,
    rules_version="2",
    rules_status="assumptions",
    assumptions=readme_assumptions(__file__),
    options_type=YokaiPagodaOptions,
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
    conformance_options=({}, {"must_give": True}),
    max_moves=3000,
)

register(GAME)
