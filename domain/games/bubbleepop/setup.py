"""Setup: black Bubblees on the planets, two of each colour in the sky, the rest in the bag."""

from __future__ import annotations

from domain.games.bubbleepop.board import COLUMNS, SKY_SLOTS, sky_touching
from domain.games.bubbleepop.bubblees import (
    BASE_COLOURS,
    BLACK_IN_BAG,
    BLACK_ON_EACH_PLANET,
    IN_SKY_PER_COLOUR,
    PER_COLOUR,
    Colour,
    bubblee_id,
)
from domain.games.bubbleepop.events import Event, FirstPlayerChosen, SkyArranged, TurnBegan
from domain.games.bubbleepop.state import Options, State
from domain.kernel import Rng

ARRANGE_TRIES = 1000


def colours_in_play(options: Options) -> list[Colour]:
    """The five matching colours; an expansion colour takes the place of the one it replaces."""
    out: list[Colour] = []
    for colour in BASE_COLOURS:
        if options.orange and colour == options.orange_replaces:
            out.append("orange")
        elif options.white and colour == options.white_replaces:
            out.append("white")
        else:
            out.append(colour)
    return out


def initial(options: Options, seats: int) -> State:
    """Three black Bubblees on each planet's bottom row, one space apart; every other
    Bubblee in play in the bag until setup lays out the sky; spare blacks in the box."""
    blacks = [bubblee_id("black", n) for n in range(1, PER_COLOUR + 1)]
    per_planet = len(BLACK_ON_EACH_PLANET)
    planets: list[list[list[str]]] = []
    for seat in range(seats):
        mine = blacks[seat * per_planet : (seat + 1) * per_planet]
        columns: list[list[str]] = [[] for _ in range(COLUMNS)]
        for column, bubblee in zip(BLACK_ON_EACH_PLANET, mine, strict=True):
            columns[column] = [bubblee]
        planets.append(columns)
    used = seats * per_planet
    bag = blacks[used : used + BLACK_IN_BAG] + [
        bubblee_id(c, n) for c in colours_in_play(options) for n in range(1, PER_COLOUR + 1)
    ]
    return State(
        options=options,
        sky=[None] * len(SKY_SLOTS),
        planets=planets,
        scored=[[] for _ in range(seats)],
        bag=sorted(bag),
        box=blacks[used + BLACK_IN_BAG :],
    )


def spaced(colours: list[Colour]) -> bool:
    """Rule (setup): no two Bubblees of a colour touch, by a side or a corner."""
    return not any(
        colours[a] == colours[b] and sky_touching(a, b)
        for a in range(len(colours))
        for b in range(a + 1, len(colours))
    )


def start(state: State, rng: Rng) -> list[Event]:
    colours = colours_in_play(state.options)
    wanted = [c for c in colours for _ in range(IN_SKY_PER_COLOUR)]
    layout = next(
        (order for order in (rng.shuffled(wanted) for _ in range(ARRANGE_TRIES)) if spaced(order)),
        # A spaced layout always exists; this one is taken only if chance never finds one.
        [colours[i % 5] for i in (0, 1, 2, 3, 4, 2, 3, 4, 0, 1)],
    )
    counts: dict[Colour, int] = {}
    slots = []
    for colour in layout:
        counts[colour] = counts.get(colour, 0) + 1
        slots.append(bubblee_id(colour, counts[colour]))
    first = rng.below(len(state.planets))
    return [SkyArranged(slots=tuple(slots)), FirstPlayerChosen(seat=first), TurnBegan(seat=first)]
