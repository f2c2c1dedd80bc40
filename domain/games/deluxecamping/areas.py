"""The fenced sections of the ground and what each is worth.

Rule (seed 002 line 547): the game ends when each section only contains one player's
pieces; each player scores every square of their areas, +5 an ice cream in them, -10 the
pain-in-the-neck guy (never below 0), and the area beside the pool counts its squares
twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import msgspec

from domain.games.deluxecamping.board import (
    BY_THE_POOL,
    GUY,
    GUY_POINTS,
    ICE_CREAM_POINTS,
    ICE_CREAMS,
    NEIGHBOURS,
    POOL_FACTOR,
    SQUARES,
    Edge,
    Square,
    edge,
    owner_of,
)
from domain.games.deluxecamping.state import Table
from domain.kernel import Seat

Section = frozenset[Square]


class Area(msgspec.Struct, frozen=True):
    """A section that holds one player's pieces only, with what it scores."""

    seat: Seat
    squares: int
    by_the_pool: bool
    ice_creams: int
    guy: bool

    @property
    def points(self) -> int:
        squares = self.squares * (POOL_FACTOR if self.by_the_pool else 1)
        return squares + ICE_CREAM_POINTS * self.ice_creams + (GUY_POINTS if self.guy else 0)


def reachable(start: Square, fences: Iterable[Edge]) -> Section:
    """Every square reached from `start` without crossing a fence (or the pool)."""
    closed = set(fences)
    seen = {start}
    todo = [start]
    while todo:
        square = todo.pop()
        for n in NEIGHBOURS[square]:
            if n not in seen and edge(square, n) not in closed:
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


@lru_cache(maxsize=4096)
def sections(fences: tuple[Edge, ...]) -> tuple[Section, ...]:
    """The ground cut by its fences, each section once, in the order of its first square."""
    closed = set(fences)
    out: list[Section] = []
    done: set[Square] = set()
    for square in SQUARES:
        if square not in done:
            section = reachable(square, closed)
            done |= section
            out.append(section)
    return tuple(out)


def campers(state: Table, section: Section) -> set[Seat]:
    """The players with a bungalow or trailer in the section."""
    return {owner_of(state.pieces[s]) for s in section if s in state.pieces}


def everyone_apart(state: Table) -> bool:
    """Rule: the game ends when each section only contains one player's pieces."""
    return all(len(campers(state, s)) <= 1 for s in sections(tuple(state.fences)))


def closes_off_nobody(state: Table, side: Edge) -> bool:
    """Rule (facts): a fence may not close off an area that holds no camper."""
    return side in cutting_off_nobody(tuple(state.fences), frozenset(state.pieces))


@lru_cache(maxsize=4096)
def cutting_off_nobody(fences: tuple[Edge, ...], camped: frozenset[Square]) -> frozenset[Edge]:
    """The open sides whose fence would split a section leaving one part without a camper:
    the bridges of the open ground (Tarjan's low links) with no camper beyond them, or
    none on this side. A fence that splits nothing is always allowed."""
    closed = set(fences)
    open_ = {s: [n for n in NEIGHBOURS[s] if edge(s, n) not in closed] for s in SQUARES}
    found: dict[Square, int] = {}
    low: dict[Square, int] = {}
    beyond: dict[Square, int] = {}
    bad: set[Edge] = set()

    def visit(square: Square, came_by: Edge | None, bridges: list[tuple[Edge, Square]]) -> None:
        found[square] = low[square] = len(found)
        beyond[square] = int(square in camped)
        for n in open_[square]:
            side = edge(square, n)
            if side == came_by:
                continue
            if n in found:
                low[square] = min(low[square], found[n])
                continue
            visit(n, side, bridges)
            low[square] = min(low[square], low[n])
            beyond[square] += beyond[n]
            if low[n] > found[square]:
                bridges.append((side, n))

    for root in SQUARES:
        if root in found:
            continue
        bridges: list[tuple[Edge, Square]] = []
        visit(root, None, bridges)
        total = beyond[root]
        bad.update(side for side, far in bridges if beyond[far] == 0 or beyond[far] == total)
    return frozenset(bad)


def areas(state: Table) -> list[Area]:
    """Every section that holds one player's pieces only, as scored."""
    out = []
    for section in sections(tuple(state.fences)):
        owners = campers(state, section)
        if len(owners) != 1:
            continue
        tokens = [state.tokens[s] for s in section if s in state.tokens]
        out.append(
            Area(
                seat=owners.pop(),
                squares=len(section),
                by_the_pool=bool(section & BY_THE_POOL),
                ice_creams=sum(1 for t in tokens if t in ICE_CREAMS),
                guy=GUY in tokens,
            )
        )
    return out


def scores(state: Table) -> tuple[int, ...]:
    """Each player's areas added up, never below 0."""
    totals = [0] * state.seats
    for area in areas(state):
        totals[area.seat] += area.points
    return tuple(max(0, t) for t in totals)
