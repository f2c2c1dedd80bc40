"""What a seat sees: the whole table (nothing in Hypnosia is secret).

Every event is public and nothing is hidden, so the kernel's defaults stand for `redact`
and `hidden`.
"""

from __future__ import annotations

import msgspec

from domain.games.hypnosia.board import BOARD, Board, Colour, SpaceId
from domain.games.hypnosia.state import Phase, State
from domain.games.hypnosia.track import PAWNS, PawnId
from domain.kernel import BySeat, Seat


class PawnView(msgspec.Struct, frozen=True):
    pawn: PawnId
    seat: Seat
    colour: Colour
    space: SpaceId
    stacked: bool


class TableView(msgspec.Struct, frozen=True):
    board: Board
    colours: BySeat[Colour]
    pawns: list[PawnView]
    """Every pawn on the board, start squares included."""
    centre: list[PawnId]
    """In arrival order."""
    out: list[PawnId]
    """Captured pawns (and those of players who conceded)."""
    scores: list[int]
    phase: Phase
    turn: Seat
    dice: list[int]
    """Dice still to burn this turn."""
    conceded: list[Seat]


def view(state: State, seat: Seat | None) -> TableView:
    heights: dict[SpaceId, int] = {}
    for space in state.positions.values():
        heights[space] = heights.get(space, 0) + 1
    pawns = []
    for pawn, space in sorted(state.positions.items()):
        owner = state.owner(pawn)
        assert owner is not None
        colour = state.colours[owner]
        pawns.append(PawnView(pawn, owner, colour, space, stacked=heights[space] == 2))
    every = [p for colour in state.colours for p in PAWNS[colour]]
    out = [p for p in every if p not in state.positions and p not in state.centre]
    return TableView(
        board=BOARD,
        colours=list(state.colours),
        pawns=pawns,
        centre=list(state.centre),
        out=out,
        scores=list(state.scores),
        phase=state.phase,
        turn=state.turn,
        dice=list(state.dice),
        conceded=list(state.conceded),
    )
