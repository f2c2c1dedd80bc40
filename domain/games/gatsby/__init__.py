"""Gatsby: rally characters in the Cabaret, the Finance Center and the Racetrack.

Two players. The page is thin: the board, the action spaces, the bonuses and the special
tiles are house-made data (see the README). Table of contents:

- tiles.py      the characters, Cabaret tiles and Special Action tiles (data)
- board.py      the Cabaret grid, Finance track, race lines, action spaces, bonuses (data)
- commands.py   Choose Action, Use Special, Keep Special, Place In Cabaret / Racetrack,
                Swap Characters, Swap Influence, Restrict, Skip Bonus
- events.py     what happened, every shuffle included
- state.py      the table, options, setup
- rules.py      start, decide, the steps in order, legal, to_act, outcome
- locations.py  the Cabaret, Finance Center and Racetrack rules
- bonuses.py    the bonuses and the Special Action tiles
- ending.py     the end of a turn: rallies, instant wins, the end, scoring
- spots.py      token positions written as strings
- evolve.py     the fold
- view.py       what the table shows (face-down characters and the pile are hidden)
- describe.py   history sentences
"""

from domain.games.gatsby import rules
from domain.games.gatsby.commands import Command
from domain.games.gatsby.describe import components, describe
from domain.games.gatsby.events import Event
from domain.games.gatsby.evolve import evolve
from domain.games.gatsby.state import Options, State, initial
from domain.games.gatsby.view import hidden, redact, view
from domain.kernel import GameSpec, readme_assumptions, readme_designed, register

GAME = GameSpec[State, Command, Event, Options](
    name="gatsby",
    title="Gatsby",
    min_players=2,
    max_players=2,
    rules_version="1",
    rules_status="house-completed",
    assumptions=readme_assumptions(__file__),
    designed=readme_designed(__file__),
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
    check_options=rules.check_options,
    conformance_options=({}, {"end": "location_emptied"}),
    max_moves=2000,
)

register(GAME)
