"""Gallery Gambit: hang paintings on three walls and score each wall as the page says.

Table of contents:

- cards.py      the deck, the walls, the page's points (data)
- commands.py   Take Card, Hang Card
- events.py     what happened, private draws included
- state.py      the table, options, setup
- rules.py      start, decide, evolve, legal, to_act, concede, outcome
- scoring.py    the page's four scoring lines
- view.py       what the table shows (the deck and others' hands are hidden)
- describe.py   history sentences
"""

from domain.games.gallerygambit import rules
from domain.games.gallerygambit.commands import Command
from domain.games.gallerygambit.describe import components, describe
from domain.games.gallerygambit.events import Event
from domain.games.gallerygambit.state import GalleryOptions, Table, initial
from domain.games.gallerygambit.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, readme_designed, register

GAME = GameSpec[Table, Command, Event, GalleryOptions](
    name="gallerygambit",
    title="Gallery Gambit",
    min_players=2,
    max_players=4,
    rules_version="1",
    rules_status="house-completed",
    assumptions=readme_assumptions(__file__),
    designed=readme_designed(__file__),
    options_type=GalleryOptions,
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
    conformance_options=({}, {"first_line": "same_suit"}),
    max_moves=200,
)

register(GAME)
