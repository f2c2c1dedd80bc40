"""Chicken! (Scott Almes, Keymaster Games), with the Eggspansion as an option.

Push your luck with dice: roll chickens, dodge foxes, hatch more dice from eggs, and be
the first farmer to end a turn with 25 points. Table of contents:

- dice.py       the dice and their faces (data)
- coop.py       the Coop and the Seed Bag: which die an egg hatches, refilling
- commands.py   Go For It, Chicken Out, Hatch (Eggspansion), Reroll, Count Your Chickens
- events.py     what happened, every roll and draw included
- state.py      the table, options, setup
- rules.py      decide, evolve, legal, to_act, concede, skip_turn, outcome
- view.py       what the table shows (nothing is secret)
- describe.py   history sentences
"""

from domain.games.chicken import rules
from domain.games.chicken.commands import Command
from domain.games.chicken.describe import describe
from domain.games.chicken.events import Event
from domain.games.chicken.state import Options, State, initial
from domain.games.chicken.view import view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="chicken",
    title="Chicken!",
    min_players=2,
    max_players=8,
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
    concede=rules.concede,
    skip=rules.skip_turn,
    conformance_options=({}, {"eggspansion": True}),
    max_moves=3000,
)

register(GAME)
