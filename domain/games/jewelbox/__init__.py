"""Jewel Box: collect beetles by die roll into a 4x4 (5x5) box and score each family.

Table of contents:

- beetles.py    the beetles, the log, the tools, the scoring tables (data)
- box.py        the grids: cells, neighbours, edges, lines (data)
- commands.py   Roll Die, Take Beetle, Use Magnifier, Use Forceps, Place Beetle, End Turn
- events.py     what happened, every roll and draw included
- state.py      the table, options, setup
- rules.py      check_options, start, decide, evolve, legal, to_act, concede, outcome
- scoring.py    each family's scoring
- view.py       what the table shows (the face-down beetles are hidden)
- describe.py   history sentences
"""

from domain.games.jewelbox import rules
from domain.games.jewelbox.commands import Command
from domain.games.jewelbox.describe import components, describe
from domain.games.jewelbox.events import Event
from domain.games.jewelbox.state import JewelBoxOptions, Table, initial
from domain.games.jewelbox.view import hidden, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[Table, Command, Event, JewelBoxOptions](
    name="jewelbox",
    title="Jewel Box",
    min_players=1,
    max_players=4,
    rules_version="2",
    rules_status="assumptions",
    assumptions=readme_assumptions(__file__),
    options_type=JewelBoxOptions,
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
    conformance_options=(
        {},
        {"scarab_neighbours": "no_scarab"},
        {"box_side": 4},
        {"weevil_groups": "lines"},
    ),
    max_moves=1000,
)

register(GAME)
