"""62 Soleils d'été: three shared dice a round, written at once on a summer sheet.

Table of contents (the rules as implemented are in README.md):

- sheet.py      the house-made sheet: slots, pearls, crabs, hats, banners, sun row (data)
- zones.py      each zone's writing rule, the crab's reach, a zone's completion
- commands.py   Write Number, Sun Only, Copy By Crab, No Copy, Choose Sun, Write Bonus,
                Skip Bonus
- events.py     what happened, every roll included
- state.py      the table, one open sheet per player, and the options
- rules.py      initial, start, decide, evolve, legal, to_act, concede, outcome
- view.py       what each seat sees (everything)
- describe.py   history sentences
"""

from domain.games.soixantedeuxsoleilsdete import rules
from domain.games.soixantedeuxsoleilsdete.commands import Command
from domain.games.soixantedeuxsoleilsdete.describe import describe
from domain.games.soixantedeuxsoleilsdete.events import Event
from domain.games.soixantedeuxsoleilsdete.state import SoleilsOptions, Table
from domain.games.soixantedeuxsoleilsdete.view import view
from domain.kernel import GameSpec, readme_assumptions, readme_designed, register

GAME = GameSpec[Table, Command, Event, SoleilsOptions](
    name="soixantedeuxsoleilsdete",
    title="62 Soleils d'été",
    min_players=1,
    max_players=10,
    rules_version="1",
    rules_status="house-completed",
    assumptions=readme_assumptions(__file__),
    designed=readme_designed(__file__),
    options_type=SoleilsOptions,
    state_type=Table,
    command_type=Command,
    event_type=Event,
    initial=rules.initial,
    start=rules.start,
    decide=rules.decide,
    evolve=rules.evolve,
    legal=rules.legal,
    to_act=rules.to_act,
    view=view,
    outcome=rules.outcome,
    describe=describe,
    concede=rules.concede,
    conformance_options=({}, {"koi_free_direction": True}),
    max_moves=3000,
)

register(GAME)
