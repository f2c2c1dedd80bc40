"""What a Deluxe Camping player may ask for, one Struct per command."""

from __future__ import annotations

import msgspec

from domain.games.deluxecamping.board import Edge, PieceId, Square


class PlaceBungalow(
    msgspec.Struct,
    tag="deluxecamping.place_bungalow",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Setup: put your bungalow on an empty square, away from the pool and other bungalows."""

    square: Square


class PlaceTrailer(
    msgspec.Struct,
    tag="deluxecamping.place_trailer",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Setup: put your next trailer on an empty square."""

    square: Square


class MovePiece(
    msgspec.Struct,
    tag="deluxecamping.move_piece",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Spend one movement: one of your trailers, or the guy, one square across no fence."""

    piece: PieceId
    to: Square


class StopMoving(
    msgspec.Struct,
    tag="deluxecamping.stop_moving",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Leave the rest of your movements unused and go on to the fence."""


class AddFence(
    msgspec.Struct,
    tag="deluxecamping.add_fence",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Put a fence on a side between two squares ("c3-c4", lower square first)."""

    edge: Edge


class SkipFence(
    msgspec.Struct,
    tag="deluxecamping.skip_fence",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """With the option fence_optional: end the turn without a fence."""


Command = PlaceBungalow | PlaceTrailer | MovePiece | StopMoving | AddFence | SkipFence
