"""3-13: an eleven-round rummy with two decks and four jokers (seed 002, "Gamehelpthreethirteen").

Table of contents:
- cards.py      the cards
- melds.py      melding a hand
- state.py      the table, options
- commands.py   what a player may send
- events.py     what happened
- table.py      turn order, dealer and starter
- rules.py      the deal, the turn, the end of a round, evolve
- scoring.py    a round's score, the outcome
- view.py       view, redact, hidden
- describe.py   history sentences
"""

from domain.kernel import GameSpec, readme_assumptions, register

from . import rules
from .commands import Command
from .describe import components, describe
from .events import Event
from .scoring import outcome
from .state import Options, State, check_options
from .view import hidden, redact, view

GAME = GameSpec[State, Command, Event, Options](
    name="threethirteen",
    title="3-13",
    min_players=2,
    max_players=6,
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
    outcome=outcome,
    describe=describe,
    components=components,
    redact=redact,
    hidden=hidden,
    concede=rules.concede,
    check_options=check_options,
    conformance_options=(
        # Random play seldom goes out, so the bots play short games: see README, Testing.
        {"empty_stock": "end_round", "last_round": 2},
        {"empty_stock": "end_round", "first_round": 10, "wild_melds": False},
        {"empty_stock": "reshuffle", "last_round": 2},
        {"empty_stock": "end_round", "first_round": 7, "last_round": 8},
    ),
    max_moves=6000,
)

register(GAME)
