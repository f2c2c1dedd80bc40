"""Zenith: a two-player tug of war over five planets, won by influence tokens.

Table of contents:

- agents.py        the 90 Agent cards (data)
- technology.py    the three double-sided technology boards (data)
- bonus.py         the 16 bonus tokens (data)
- board.py         planets, edges, victory thresholds, hand sizes, diplomacy bonuses (data)
- effects.py       the effect vocabulary the data is written in
- commands.py      the three actions, the answers effects ask for, Pass
- events.py        what happened
- state.py         the table, options
- rules.py         start, decide (the three actions), legal, to_act, outcome
- carrying_out.py  effects carried out left to right; influence, tokens, victory
- evolve.py        the fold
- table.py         reading the table (costs, hand size, direction)
- view.py          what each seat sees (hands, deck, face-down tokens hidden)
- describe.py      history sentences
"""

from domain.games.zenith import rules
from domain.games.zenith.commands import Command
from domain.games.zenith.describe import components, describe
from domain.games.zenith.events import Event
from domain.games.zenith.evolve import evolve
from domain.games.zenith.state import Options, State, initial
from domain.games.zenith.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="zenith",
    title="Zenith",
    min_players=2,
    max_players=2,
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
    evolve=evolve,
    legal=rules.legal,
    to_act=rules.to_act,
    view=view,
    outcome=rules.outcome,
    describe=describe,
    components=components,
    # Two players only: with one gone, a bot would be playing the last one alone.
    absent="end",
    redact=redact,
    hidden=hidden,
    conformance_options=({}, {"board_sides": "first"}, {"board_sides": "second"}),
    max_moves=2000,
)

register(GAME)
