"""Arctic Scavengers (base game): deck building, gathering, and skirmishes over resources.

Table of contents:

- cards.py      every card, its skills and counts (data)
- commands.py   Play Card, Perform Action, Keep Dug Card, Hire, End Gathering, Snipe, ...
- events.py     what happened, every shuffle and draw included
- state.py      the table by zone, options
- evolve.py     one event folded onto the table; the decision recorder
- rounds.py     setup, the drawing that opens each round, the end and the outcome
- gathering.py  dig, draw, hunt, hire and trash
- skirmish.py   snipers, saboteurs and the fight
- rules.py      decide, legal, to_act, concede: the round's flow
- view.py       what each seat sees (hands, decks, discards and the junkyard are hidden)
- describe.py   history sentences
"""

from domain.games.arcticscavengers import rounds, rules
from domain.games.arcticscavengers.commands import Command
from domain.games.arcticscavengers.describe import components, describe
from domain.games.arcticscavengers.events import Event
from domain.games.arcticscavengers.evolve import evolve
from domain.games.arcticscavengers.state import Options, State, initial
from domain.games.arcticscavengers.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="arcticscavengers",
    title="Arctic Scavengers",
    min_players=2,
    max_players=5,
    rules_version="2",
    rules_status="assumptions",
    assumptions=readme_assumptions(__file__),
    options_type=Options,
    state_type=State,
    command_type=Command,
    event_type=Event,
    initial=initial,
    start=rounds.set_up,
    decide=rules.decide,
    evolve=evolve,
    legal=rules.legal,
    to_act=rules.to_act,
    view=view,
    outcome=rounds.outcome,
    describe=describe,
    components=components,
    redact=redact,
    hidden=hidden,
    concede=rules.concede,
    conformance_options=(
        {},
        {"two_player_variant": False},
        {"final_tie_break": "contested_resources"},
        {"used_cards": "aside"},
    ),
    max_moves=3000,
)

register(GAME)
