"""Reading the board: where a step leads, which space is a bridge, who owns a pawn.

Everything here is computed once from `board.BOARD`; a corrected board is a data change.
"""

from __future__ import annotations

from domain.games.hypnosia.board import BOARD, Colour, SpaceId

PawnId = str
"""A pawn: "hy-<colour>-<k>", starting on its colour's k-th start square."""

CENTRE: SpaceId = BOARD.centre
CENTRE_SIZE = len(BOARD.centre_points)

NEXT: dict[SpaceId, SpaceId] = {
    f"{c.name}-{i:02d}": f"{c.name}-{(i + 1) % c.spaces:02d}"
    for c in BOARD.circles
    for i in range(c.spaces)
}
"""The next space counter-clockwise on the same circle."""

CIRCLE_OF: dict[SpaceId, str] = {
    f"{c.name}-{i:02d}": c.name for c in BOARD.circles for i in range(c.spaces)
}

BRIDGE_TO: dict[SpaceId, SpaceId] = {b.space: b.leads_to for b in BOARD.bridges}
"""Double-coloured spaces and the space one step across their bridge."""

SPECIAL_SPACES: tuple[SpaceId, ...] = tuple(b.space for b in BOARD.bridges if b.leads_to == CENTRE)
"""The six spaces around the centre."""

LANE_STEPS: dict[SpaceId, tuple[int, SpaceId]] = {
    square: (k, lane.entry)
    for lane in BOARD.lanes
    for k, square in enumerate(lane.squares, start=1)
}
"""A start square: the steps it takes to reach its entry space, and that entry space."""

PAWNS: dict[Colour, tuple[PawnId, ...]] = {
    lane.colour: tuple(f"hy-{lane.colour}-{k}" for k in range(1, len(lane.squares) + 1))
    for lane in BOARD.lanes
}

HOME: dict[PawnId, SpaceId] = {
    pawn: square
    for lane in BOARD.lanes
    for pawn, square in zip(PAWNS[lane.colour], lane.squares, strict=True)
}
"""Each pawn's start square."""

COLOUR_OF: dict[PawnId, Colour] = {p: colour for colour, ps in PAWNS.items() for p in ps}


def along(space: SpaceId, steps: int) -> SpaceId:
    """The space `steps` steps counter-clockwise round the circle of `space`."""
    for _ in range(steps):
        space = NEXT[space]
    return space


def seating(seats: int) -> tuple[Colour, ...]:
    return BOARD.seating[seats]
