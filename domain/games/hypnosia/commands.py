"""What a Hypnosia player may say at the table: roll, then move with one die at a time."""

from __future__ import annotations

import msgspec

from domain.games.hypnosia.track import PawnId


class _Move(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, frozen=True):
    """Shared config: tagged on "type", strict, comparable by value."""


class RollDice(_Move, tag="hypnosia.roll_dice", frozen=True):
    """Start of the turn: throw the two dice."""


class MovePawns(_Move, tag="hypnosia.move_pawns", frozen=True):
    """Use one die: move one pawn, or both pawns of a stack, exactly `pips` spaces.

    `pawns` is one pawn id, or the two ids of a stack in sorted order. `cross_bridge`
    makes the first step go over the bridge of the space the pawns stand on (from a
    special space, into the centre).
    """

    pawns: tuple[PawnId, ...]
    pips: int
    cross_bridge: bool = False


Command = RollDice | MovePawns
