"""The Deluxe Camping table. One secret: which mystery token lies where, until revealed."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.deluxecamping.board import Edge, PieceId
from domain.kernel import Seat

Phase = Literal["setup", "bungalows", "trailers", "move", "fence", "over"]
"""bungalows / trailers: the setup placements; move: up to two movements; fence: the
turn's fence; over: every section has one player's pieces and is scored."""


class DeluxeCampingOptions(msgspec.Struct, forbid_unknown_fields=True):
    fence_optional: bool = False
    """False: a fence every turn, as the facts file reads the rules ("place 1 fence");
    True: the page's "you can add a fence", so a turn may end without one."""


class Table(msgspec.Struct):
    seats: int
    options: DeluxeCampingOptions
    phase: Phase = "setup"
    player: Seat = 0
    pieces: dict[str, PieceId] = {}
    """Square -> the bungalow or trailer standing on it."""
    tokens: dict[str, PieceId] = {}
    """Square -> the ice cream or guy on it (face down until `revealed`)."""
    revealed: bool = False
    fences: list[Edge] = []
    """Every fence standing, sorted."""
    movements_left: int = 0
    scores: tuple[int, ...] | None = None
