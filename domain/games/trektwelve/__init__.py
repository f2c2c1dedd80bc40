"""Trek Twelve (Lumberjacks Studio): roll two dice, everybody writes a number on a map.

Table of contents:

- maps.py       the maps as data: circles, links, thick circles
- board.py      reading a map (neighbours, the largest number a circle takes)
- sheet.py      the sheet's printed tables (options, bonuses) and the dice (data)
- commands.py   Write Number
- events.py     what happened, every roll included
- state.py      the table: one sheet per trekker, the roll, who has written it
- rules.py      initial, start, decide, evolve, legal, to_act, concede, outcome
- scoring.py    paths, zones, bonuses and penalties
- view.py       what the table shows (every sheet is open)
- describe.py   history sentences
"""

from domain.games.trektwelve import rules
from domain.games.trektwelve.commands import Command
from domain.games.trektwelve.describe import describe
from domain.games.trektwelve.events import Event
from domain.games.trektwelve.state import Options, State
from domain.games.trektwelve.view import view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="trektwelve",
    title="Trek Twelve",
    min_players=1,
    max_players=8,
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
    outcome=rules.outcome,
    describe=describe,
    concede=rules.concede,
    conformance_options=({}, {"map": "kagkot"}, {"map": "dhaulagiri"}),
    max_moves=19 * 8,
)

register(GAME)
