"""The Jewel Box table: the log, the face-down supply (secret), each box and its tools."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.games.jewelbox.beetles import BEETLES, LOG_SPACES, TOOLS, BeetleId, Tool
from domain.games.jewelbox.box import BOX_SIDE, GRIDS
from domain.games.jewelbox.events import ScoreSheet
from domain.kernel import Seat, one_of

Phase = Literal["setup", "collect", "choose", "place", "after", "over"]
"""collect: roll or use a tool; choose: a 6 was rolled; place: holding a beetle;
after: placed, the forceps may still be used; over: every box is full."""

ScarabRule = Literal["all_different", "no_scarab"]
WeevilRule = Literal["connected", "lines"]


class JewelBoxOptions(msgspec.Struct, forbid_unknown_fields=True):
    scarab_neighbours: ScarabRule = "all_different"
    """all_different: a scoring scarab's neighbours are all of different families and none
    is a scarab; no_scarab: it is enough that no neighbour is a scarab."""
    weevil_groups: WeevilRule = "connected"
    """connected: a group is weevils joined side by side, horizontally or vertically (an L
    counts); lines: only straight unbroken rows or columns count."""
    box_side: Annotated[int, one_of(*GRIDS)] | None = None
    """None: 5x5 for one or two players, 4x4 otherwise; 4 or 5 forces a size."""


class Table(msgspec.Struct):
    seats: int
    options: JewelBoxOptions
    side: int
    supply: list[BeetleId]
    """The face-down beetles (sorted; hidden from everyone: drawn at random)."""
    boxes: list[list[BeetleId | None]]
    """Per seat, the box cells row by row."""
    tools: list[list[Tool]]
    """Per seat, the unused tokens."""
    log: list[BeetleId | None] = msgspec.field(default_factory=lambda: [None] * len(LOG_SPACES))
    phase: Phase = "setup"
    player: Seat = 0
    tool_used: bool = False
    rolled: int | None = None
    holding: BeetleId | None = None
    conceded: list[Seat] = []
    sheets: list[ScoreSheet] = []


def initial(options: JewelBoxOptions, seats: int) -> Table:
    """Empty boxes (5x5 for one or two players unless `box_side` says), every beetle face
    down, three tokens each."""
    side = options.box_side or BOX_SIDE[seats]
    return Table(
        seats=seats,
        options=options,
        side=side,
        supply=sorted(BEETLES),
        boxes=[[None] * (side * side) for _ in range(seats)],
        tools=[list(TOOLS) for _ in range(seats)],
    )
