"""First Giants: dig for fossils and amber, build a workshop of dinosaurs, exhibit them.

Table of contents:

- cards.py      the 36 dinosaurs, dig sites, bag and token values (data)
- commands.py   Excavate, Exhibit, Complete Set, Spend News, Secure Initiative,
                Double Action, End Turn
- events.py     what happened, every draw included
- state.py      the table, options, setup
- rules.py      start, decide, evolve, legal, to_act, concede, outcome, scoring
- view.py       what the table shows (the deck is hidden)
- describe.py   history sentences
"""

from domain.games.firstgiants import rules
from domain.games.firstgiants.commands import Command
from domain.games.firstgiants.describe import components, describe
from domain.games.firstgiants.events import Event
from domain.games.firstgiants.state import FirstGiantsOptions, Table, initial
from domain.games.firstgiants.view import hidden, view
from domain.kernel import GameSpec, readme_assumptions, readme_designed, register

GAME = GameSpec[Table, Command, Event, FirstGiantsOptions](
    name="firstgiants",
    title="First Giants",
    min_players=2,
    max_players=5,
    rules_version="1",
    rules_status="house-completed",
    assumptions=readme_assumptions(__file__),
    designed=readme_designed(__file__),
    options_type=FirstGiantsOptions,
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
    conformance_options=({}, {"exhibit_cost": "amber"}),
    max_moves=2000,
)

register(GAME)
