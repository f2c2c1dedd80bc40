"""EpiZodiak (Cigitur), for three players: empty your hand around a twelve-place dial.

Table of contents:
- tiles.py, dial.py  the components
- state.py           the table, options, setup
- commands.py        what a player may send
- events.py          what happened
- turn.py            draw, pick up, place, discard, pass
- contest.py         contests and forced play
- round_end.py       deal, refill, scoring
- rules.py           decide, settle, evolve, legal, to_act, outcome
- view.py            view, redact, hidden
- describe.py        history sentences

EpiZodiak needs all three players, so a concession ends the match (the kernel's default).
"""

from domain.games.epizodiak import rules
from domain.games.epizodiak.commands import Command
from domain.games.epizodiak.describe import components, describe
from domain.games.epizodiak.events import Event
from domain.games.epizodiak.state import Options, State, check_options, initial
from domain.games.epizodiak.tiles import PLAYERS
from domain.games.epizodiak.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="epizodiak",
    title="EpiZodiak",
    min_players=PLAYERS,
    max_players=PLAYERS,
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
    check_options=check_options,
    conformance_options=({"mode": "one_round"}, {}, {"mode": "score", "target": 13}),
    max_moves=30000,
)

register(GAME)
