"""Visions: two dreams per player, built card by card by colour or symbol.

Table of contents:

- cards.py      the deck, hand and River sizes, the track (data)
- commands.py   Play Card, Play Nightmare, End Turn (after an Echo), Take Card
- events.py     what happened (deals, nightmares and thefts are secret)
- state.py      the table, options
- rules.py      start, decide, evolve, legal, to_act, outcome; Reflection, Echo, scoring
- view.py       what each seat sees
- describe.py   history sentences
"""

from domain.games.visions import rules
from domain.games.visions.commands import Command
from domain.games.visions.describe import components, describe
from domain.games.visions.events import Event
from domain.games.visions.state import Options, State, initial
from domain.games.visions.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="visions",
    title="Visions",
    min_players=2,
    max_players=5,
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
    conformance_options=(
        {},
        {"reflection": "whole_dream"},
        {"nightmare_by_choice": True, "reflection_feeds_river": False},
    ),
    max_moves=1000,
)

register(GAME)
