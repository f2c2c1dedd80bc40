"""Kokeshi: climb three dolls up a five-track workshop you build tile by tile.

Table of contents:

- workshop.py   the board: tracks, rows, row and animal points, the dolls (data)
- tiles.py      the tile catalogue (data)
- commands.py   Move Kokeshi, Choose Half, Choose Kokeshi, Choose Animal, Place Tile
- events.py     what happened, every draw included
- state.py      the table, options, setup
- rules.py      check_options, start, decide, the cascade, evolve, legal, to_act, concede
- scoring.py    the page's end-game scoring
- view.py       what the table shows (the bags are hidden)
- describe.py   history sentences
"""

from domain.games.kokeshi import rules
from domain.games.kokeshi.commands import Command
from domain.games.kokeshi.describe import components, describe
from domain.games.kokeshi.events import Event
from domain.games.kokeshi.state import KokeshiOptions, Table, initial
from domain.games.kokeshi.view import hidden, view
from domain.kernel import GameSpec, readme_assumptions, readme_designed, register

GAME = GameSpec[Table, Command, Event, KokeshiOptions](
    name="kokeshi",
    title="Kokeshi",
    min_players=2,
    max_players=4,
    rules_version="1",
    rules_status="house-completed",
    assumptions=readme_assumptions(__file__),
    designed=readme_designed(__file__),
    options_type=KokeshiOptions,
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
    check_options=rules.check_options,
    conformance_options=({}, {"lead_ties": "shared"}, {"rounds": 3}),
    max_moves=1500,
)

register(GAME)
