"""Escape from the Hidden Castle (Wolfgang Kramer; "Hugo", "Midnight Party").

Guests hide from Hugo the castle ghost in the rooms off the gallery; whom he catches goes
down the cellar steps with fright points. Fewest fright points wins. Table of contents:

- castle.py     the board as data: gallery, rooms, cellar steps, Hugo's clock
- figures.py    the guests and the die (data)
- commands.py   Place Guest, Roll Die, Move Guest, Stay Put (Midnight Party)
- events.py     what happened, every roll included
- state.py      the table, options, setup
- rules.py      start, decide, legal, to_act, concede, outcome
- moves.py      moving a guest: gallery, rooms, expulsions, the cellar
- hugo.py       Hugo's walk, his clock and his captures
- party.py      the Midnight Party rounds
- table.py      reading the table (who stands where, free steps, next player)
- evolve.py     the fold
- view.py       what the table shows (nothing is secret)
- describe.py   history sentences
"""

from domain.games.escapefromthehiddencastle import rules
from domain.games.escapefromthehiddencastle.commands import Command
from domain.games.escapefromthehiddencastle.describe import components, describe
from domain.games.escapefromthehiddencastle.events import Event
from domain.games.escapefromthehiddencastle.evolve import evolve
from domain.games.escapefromthehiddencastle.state import Options, State, initial
from domain.games.escapefromthehiddencastle.view import view
from domain.kernel import GameSpec, readme_assumptions, register

GAME = GameSpec[State, Command, Event, Options](
    name="escapefromthehiddencastle",
    title="Escape from the Hidden Castle",
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
    evolve=evolve,
    legal=rules.legal,
    to_act=rules.to_act,
    view=view,
    outcome=rules.outcome,
    describe=describe,
    components=components,
    concede=rules.concede,
    conformance_options=({}, {"midnight_party": True}),
    max_moves=3000,
)

register(GAME)
