"""Bubblee Pop (Bankiiiz): let Bubblees fall from the sky, line up three, use their powers.

Table of contents:

- board.py      the planets and the sky as data
- bubblees.py   the Bubblees as data: colours, counts, where they start
- planet.py     reading the table: where a Bubblee is, room in a column, neighbours
- commands.py   Swap Sky, Drop Bubblees, Use Blue ... Use White (the powers), Skip Power
- events.py     what happened, every draw included
- state.py      the table and the options
- setup.py      initial and start: blacks on the planets, the sky, the bag
- rules.py      decide, evolve, legal, to_act, outcome, check_options
- matches.py    lines of three, what they take with them, chains
- powers.py     one function per colour's power, and what each may target
- view.py       what the table shows, and the bag kept hidden
- describe.py   history sentences
"""

from domain.games.bubbleepop import rules, setup
from domain.games.bubbleepop.commands import Command
from domain.games.bubbleepop.describe import components, describe
from domain.games.bubbleepop.events import Event
from domain.games.bubbleepop.state import Options, State
from domain.games.bubbleepop.view import hidden, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="bubbleepop",
    title="Bubblee Pop",
    min_players=2,
    max_players=2,
    rules_version="1",
    rules_status="assumptions",
    assumptions=readme_assumptions(__file__),
    options_type=Options,
    state_type=State,
    command_type=Command,
    event_type=Event,
    initial=setup.initial,
    start=setup.start,
    decide=rules.decide,
    evolve=rules.evolve,
    legal=rules.legal,
    to_act=rules.to_act,
    view=view,
    outcome=rules.outcome,
    describe=describe,
    components=components,
    # Two players only: with one gone, a bot would be playing the last one alone.
    absent="end",
    hidden=hidden,
    check_options=rules.check_options,
    conformance_options=(
        {},
        {"orange": True},
        {"white": True},
        {"orange": True, "white": True, "orange_replaces": "red", "white_replaces": "green"},
    ),
)

register(GAME)
