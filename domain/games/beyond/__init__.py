"""Beyond: reveal spirit cards, enchant 4-card patterns, capture with Yin and Yang.

The advanced mode (protection tokens, spirit summoning) is an option. Table of contents:

- cards.py      the 80 spirit cards, the Nian Shou, tokens and points (data)
- commands.py   Place Cards, Reveal Card, Take Cards, Enchant, Capture, Protect, the five
                summonings, Choose Card, End Turn
- events.py     what happened, every shuffle and reveal included
- state.py      the table, options, setup
- rules.py      start, decide, phases 1 and 2, legal, to_act, concede, outcome
- phase3.py     enchant, capture, compensate, protect
- summoning.py  the advanced mode's spirit summonings
- ending.py     the end of a turn and of the game
- evolve.py     the fold
- scoring.py    energy points and the tie-break
- view.py       what the table shows (the pile and others' starting hands are hidden)
- describe.py   history sentences
"""

from domain.games.beyond import rules
from domain.games.beyond.commands import Command
from domain.games.beyond.describe import components, describe
from domain.games.beyond.events import Event
from domain.games.beyond.evolve import evolve
from domain.games.beyond.state import Options, State, initial
from domain.games.beyond.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="beyond",
    title="Beyond",
    min_players=2,
    max_players=4,
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
    redact=redact,
    hidden=hidden,
    concede=rules.concede,
    conformance_options=({}, {"advanced": True}),
    max_moves=3000,
)

register(GAME)
