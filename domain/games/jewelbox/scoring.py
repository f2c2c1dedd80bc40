"""End-of-game scoring of one jewel box, family by family (seed 002, "Scoring Guide")."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.jewelbox.beetles import (
    FAMILY_OF,
    JEWEL_PAIR_POINTS,
    LADYBUG_POINTS,
    LONGHORN_EVEN_EACH,
    LONGHORN_ODD_EACH,
    SCARAB_EDGE_POINTS,
    SCARAB_MIDDLE_POINTS,
    UNUSED_TOOL_POINTS,
    WEEVIL_GROUP_POINTS,
    WEEVIL_LINE_POINTS,
    BeetleId,
    Family,
)
from domain.games.jewelbox.box import Cell, Grid
from domain.games.jewelbox.events import ScoreSheet
from domain.games.jewelbox.state import JewelBoxOptions, ScarabRule, WeevilRule

Box = Sequence[BeetleId | None]


def family_at(box: Box, cell: Cell) -> Family | None:
    beetle = box[cell]
    return None if beetle is None else FAMILY_OF[beetle]


def cells_of(box: Box, family: Family) -> list[Cell]:
    return [cell for cell in range(len(box)) if family_at(box, cell) == family]


def scarabs(box: Box, grid: Grid, rule: ScarabRule) -> int:
    """Each scarab alone: 2 on the edge, 3 in the middle, if its neighbours qualify."""
    points = 0
    for cell in cells_of(box, "scarab"):
        around = [f for n in grid.neighbours[cell] if (f := family_at(box, n)) is not None]
        if "scarab" in around:
            continue
        if rule == "all_different" and len(set(around)) != len(around):
            continue
        points += SCARAB_EDGE_POINTS if grid.on_edge[cell] else SCARAB_MIDDLE_POINTS
    return points


def weevils(box: Box, grid: Grid, rule: WeevilRule = "connected") -> int:
    """Groups of 2, 3, 4 weevils; each weevil counts in one group, split for the most points.

    connected: a group is joined side by side, so a group of five or more scores as its best
    split into groups of two to four; lines: straight unbroken lines of 2, 3, 4 (5)."""
    weevil_cells = frozenset(cells_of(box, "weevil"))
    if rule == "lines":
        return _best_split(weevil_cells, _straight_lines(weevil_cells, grid), WEEVIL_LINE_POINTS)
    groups = _joined_groups(weevil_cells, grid, max(WEEVIL_GROUP_POINTS))
    return _best_split(weevil_cells, groups, WEEVIL_GROUP_POINTS)


def _straight_lines(cells: frozenset[Cell], grid: Grid) -> list[frozenset[Cell]]:
    """Every unbroken run of two or more of `cells` along a row or a column."""
    segments: list[frozenset[Cell]] = []
    for line in grid.lines:
        for start in range(len(line)):
            for end in range(start + 2, len(line) + 1):
                piece = line[start:end]
                if all(c in cells for c in piece):
                    segments.append(frozenset(piece))
    return segments


def _joined_groups(cells: frozenset[Cell], grid: Grid, largest: int) -> list[frozenset[Cell]]:
    """Every set of two to `largest` of `cells` joined side by side."""
    found: set[frozenset[Cell]] = set()
    grown = {frozenset({cell}) for cell in cells}
    for _ in range(2, largest + 1):
        grown = {
            group | {n}
            for group in grown
            for cell in group
            for n in grid.neighbours[cell]
            if n in cells and n not in group
        }
        found |= grown
    return sorted(found, key=sorted)


def _best_split(
    cells: frozenset[Cell], pieces: list[frozenset[Cell]], points: dict[int, int]
) -> int:
    """The most points from disjoint `pieces` within `cells`, each cell in one piece at most."""
    memo: dict[frozenset[Cell], int] = {}

    def best(left: frozenset[Cell]) -> int:
        """The most points from disjoint segments within `left` (its lowest cell decides)."""
        if not left:
            return 0
        if left not in memo:
            first = min(left)
            most = best(left - {first})  # this weevil scores in no line
            for piece in pieces:
                if first in piece and piece <= left:
                    most = max(most, points[len(piece)] + best(left - piece))
            memo[left] = most
        return memo[left]

    return best(cells)


def ladybugs(box: Box, grid: Grid) -> int:
    """By the number of ladybugs touching no other ladybug."""
    alone = sum(
        1
        for cell in cells_of(box, "ladybug")
        if all(family_at(box, n) != "ladybug" for n in grid.neighbours[cell])
    )
    return LADYBUG_POINTS[min(alone, max(LADYBUG_POINTS))]


def longhorns(box: Box) -> int:
    """An even number of longhorns scores 2 each, an odd number 1 each."""
    count = len(cells_of(box, "longhorn"))
    return count * (LONGHORN_EVEN_EACH if count % 2 == 0 else LONGHORN_ODD_EACH)


def jewels(box: Box, grid: Grid) -> int:
    """Each group of exactly two touching jewels scores 5; lone jewels and bigger groups 0."""
    jewel_cells = set(cells_of(box, "jewel"))
    points = 0
    seen: set[Cell] = set()
    for cell in sorted(jewel_cells):
        if cell in seen:
            continue
        group = {cell}
        frontier = [cell]
        while frontier:
            here = frontier.pop()
            for n in grid.neighbours[here]:
                if n in jewel_cells and n not in group:
                    group.add(n)
                    frontier.append(n)
        seen |= group
        if len(group) == 2:
            points += JEWEL_PAIR_POINTS
    return points


def score_sheet(box: Box, unused_tools: int, grid: Grid, options: JewelBoxOptions) -> ScoreSheet:
    parts = {
        "scarab": scarabs(box, grid, options.scarab_neighbours),
        "weevil": weevils(box, grid, options.weevil_groups),
        "ladybug": ladybugs(box, grid),
        "longhorn": longhorns(box),
        "jewel": jewels(box, grid),
        "tools": unused_tools * UNUSED_TOOL_POINTS,
    }
    return ScoreSheet(**parts, total=sum(parts.values()))
