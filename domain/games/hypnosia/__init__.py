"""Hypnosia: race your pawns inward over the bridges of concentric circles into the centre.

Roll two dice, burn every pip with one pawn or two, stack and capture on the way, and
enter the centre from one of its six special spaces with an exact 1. Table of contents:

- board.py      the board as data (circles, bridges, centre, start lanes, seating)
- track.py      reading the board: next space, bridges, start squares, pawn ids
- commands.py   Roll Dice, Move Pawns (one die at a time)
- events.py     what happened, every throw of the dice included
- state.py      the table, options, setup
- moves.py      where a die takes a pawn or stack, landing, the dice rule
- rules.py      decide, evolve, legal, to_act, concede, outcome
- view.py       what the table shows (nothing is secret)
- describe.py   history sentences
"""

from domain.games.hypnosia import rules
from domain.games.hypnosia.commands import Command
from domain.games.hypnosia.describe import components, describe
from domain.games.hypnosia.events import Event
from domain.games.hypnosia.state import Options, State, initial
from domain.games.hypnosia.view import view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="hypnosia",
    title="Hypnosia",
    min_players=2,
    max_players=6,
    rules_version="2",
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
    concede=rules.concede,
    conformance_options=({}, {"stacks_cannot_cross": True}, {"must_use_both_dice": True}),
    max_moves=3000,
)

register(GAME)
