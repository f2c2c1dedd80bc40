"""Love Letter: the 16-card game for 2-4 players, the 32-card premium deck for 5-8.

Table of contents:
- cards.py      the deck as data
- state.py      the table, options
- commands.py   what a player may send
- events.py     what happened
- choosing.py   who a card may choose
- effects.py    one function per card
- round_end.py  turns, showdown, tokens, the next deal
- rules.py      setup, decide, legal, to_act, outcome, concede
- evolve.py     the fold
- view.py       view, redact, hidden
- describe.py   history sentences
"""

from domain.games.loveletter import rules
from domain.games.loveletter.commands import Command
from domain.games.loveletter.describe import components, describe
from domain.games.loveletter.events import Event
from domain.games.loveletter.evolve import evolve
from domain.games.loveletter.state import Options, State
from domain.games.loveletter.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="loveletter",
    title="Love Letter",
    min_players=2,
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
    evolve=evolve,
    legal=rules.legal,
    to_act=rules.to_act,
    view=view,
    outcome=rules.outcome,
    describe=describe,
    components=components,
    redact=redact,
    hidden=hidden,
    concede=rules.concede,
    conformance_options=({}, {"two_player_face_up": False}),
    max_moves=3000,
)

register(GAME)
