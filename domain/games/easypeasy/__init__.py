"""Easy Peasy: shed your hand or your row onto two piles, up or down as the arrow says.

Table of contents:
- cards.py      the cards, as data
- state.py      the table, options, setup
- commands.py   what a player may send
- events.py     what happened
- rounds.py     the deal and the scoring
- rules.py      the turn, the colour bonus, the rounds, evolve, outcome, concede
- view.py       view, redact, hidden
- describe.py   history sentences
"""

from domain.games.easypeasy import rules
from domain.games.easypeasy.commands import Command
from domain.games.easypeasy.describe import components, describe
from domain.games.easypeasy.events import Event
from domain.games.easypeasy.state import Options, State, check_options, initial
from domain.games.easypeasy.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="easypeasy",
    title="Easy Peasy",
    min_players=2,
    max_players=6,
    rules_version="1",
    rules_status="assumptions",
    assumptions=readme_assumptions(__file__),
    options_type=Options,
    state_type=State,
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
    check_options=check_options,
    conformance_options=(
        {},
        {"bonus": "flip", "reveal_uncovered": True},
        {"reveal_uncovered": True, "rounds": 1},
    ),
)

register(GAME)
