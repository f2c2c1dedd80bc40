"""End-game scoring, the page's five lines plus the in-game happiness."""

from __future__ import annotations

from domain.games.kokeshi.state import KokeshiOptions, ScoreSheet, Table, Workshop
from domain.games.kokeshi.tiles import TILES
from domain.games.kokeshi.workshop import (
    ADJACENT_SAME_COLOUR,
    ANIMAL_POINTS,
    ANIMALS,
    LEAD_BONUS,
    ROW_POINTS,
    TOP_ROW,
    TRACKS,
)
from domain.kernel import Seat


def animal_points(workshop: Workshop) -> int:
    """Page, 1: each animal track scores the points printed above your marker."""
    return sum(ANIMAL_POINTS[workshop.animals[animal]] for animal in ANIMALS)


def leads(workshops: list[Workshop], seat: Seat, options: KokeshiOptions) -> int:
    """Page, 2: 3 more for each animal track on which you are ahead of your opponents.
    A shared best step is nobody's lead unless `lead_ties="shared"` (and a marker still on
    the start leads nothing)."""
    total = 0
    for animal in ANIMALS:
        mine = workshops[seat].animals[animal]
        others = [w.animals[animal] for s, w in enumerate(workshops) if s != seat]
        best_other = max(others, default=0)
        if mine > best_other or (options.lead_ties == "shared" and mine == best_other > 0):
            total += LEAD_BONUS
    return total


def recognition(workshop: Workshop) -> int:
    """Page, 3: tiles on your workshop score the points printed on them."""
    return sum(TILES[t].points for column in workshop.tiles for t in column if t is not None)


def doll_points(workshop: Workshop) -> int:
    """Page, 4: each doll scores the points printed on the right of its row."""
    return sum(ROW_POINTS[spot.row] for spot in workshop.dolls.values())


def adjacency(workshop: Workshop) -> int:
    """Page, 5: -3 for each two orthogonally adjacent tiles of the same colour."""
    pairs = 0
    for track in range(TRACKS):
        for row in range(TOP_ROW):
            tile = workshop.tiles[track][row]
            if tile is None:
                continue
            colour = TILES[tile].colour
            above = workshop.tiles[track][row + 1] if row + 1 < TOP_ROW else None
            right = workshop.tiles[track + 1][row] if track + 1 < TRACKS else None
            pairs += sum(1 for n in (above, right) if n is not None and TILES[n].colour == colour)
    return ADJACENT_SAME_COLOUR * pairs


def score_sheet(workshops: list[Workshop], seat: Seat, options: KokeshiOptions) -> ScoreSheet:
    workshop = workshops[seat]
    parts = (
        animal_points(workshop),
        leads(workshops, seat, options),
        recognition(workshop),
        doll_points(workshop),
        adjacency(workshop),
        workshop.happiness,
    )
    return ScoreSheet(*parts, total=sum(parts))


def score_sheets(state: Table) -> tuple[ScoreSheet, ...]:
    return tuple(score_sheet(state.workshops, s, state.options) for s in range(state.seats))
