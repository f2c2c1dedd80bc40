"""What happened at a Deluxe Camping table, one Struct per event.

Hidden part: which mystery token lies on which marked square (`TokensLaid.tokens`) is
None for every reader until `TokensRevealed`.
"""

from __future__ import annotations

import msgspec

from domain.games.deluxecamping.board import Edge, PieceId, Square
from domain.kernel import Seat


class TokensLaid(msgspec.Struct, tag="deluxecamping.tokens_laid", tag_field="type", frozen=True):
    """The three mystery tokens were shuffled face down onto the marked squares."""

    squares: tuple[Square, ...]
    tokens: tuple[PieceId, ...] | None


class PiecePlaced(msgspec.Struct, tag="deluxecamping.piece_placed", tag_field="type", frozen=True):
    seat: Seat
    piece: PieceId
    square: Square


class FenceRaised(msgspec.Struct, tag="deluxecamping.fence_raised", tag_field="type", frozen=True):
    """A fence on `edge`: put by the player, or automatically between two players' pieces."""

    edge: Edge
    seat: Seat
    automatic: bool


class TokensRevealed(
    msgspec.Struct, tag="deluxecamping.tokens_revealed", tag_field="type", frozen=True
):
    """The setup is over: the mystery tokens are turned face up."""

    squares: tuple[Square, ...]
    tokens: tuple[PieceId, ...]


class TurnBegan(msgspec.Struct, tag="deluxecamping.turn_began", tag_field="type", frozen=True):
    seat: Seat


class PieceMoved(msgspec.Struct, tag="deluxecamping.piece_moved", tag_field="type", frozen=True):
    seat: Seat
    piece: PieceId
    start: Square
    to: Square


class MovingStopped(
    msgspec.Struct, tag="deluxecamping.moving_stopped", tag_field="type", frozen=True
):
    seat: Seat


class FenceSkipped(
    msgspec.Struct, tag="deluxecamping.fence_skipped", tag_field="type", frozen=True
):
    """No fence this turn: declined, at a table with the option fence_optional."""

    seat: Seat


class AreaScored(msgspec.Struct, tag="deluxecamping.area_scored", tag_field="type", frozen=True):
    """One fenced section and the player whose pieces alone are in it."""

    seat: Seat
    squares: int
    by_the_pool: bool
    ice_creams: int
    guy: bool
    points: int


class GameEnded(msgspec.Struct, tag="deluxecamping.game_ended", tag_field="type", frozen=True):
    """Every section holds only one player's pieces: the areas are scored."""

    scores: tuple[int, ...]


Event = (
    TokensLaid
    | PiecePlaced
    | FenceRaised
    | TokensRevealed
    | TurnBegan
    | PieceMoved
    | MovingStopped
    | FenceSkipped
    | AreaScored
    | GameEnded
)
