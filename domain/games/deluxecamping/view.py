"""What a seat sees of the camping ground (everything but the face-down tokens)."""

from __future__ import annotations

import msgspec

from domain.games.deluxecamping.areas import scores
from domain.games.deluxecamping.board import (
    COLUMNS,
    GUY,
    MYSTERY_SQUARES,
    POOL,
    ROWS,
    TOKENS,
    TRAILERS,
    Edge,
    PieceId,
    Square,
    bungalow,
    edge,
    owner_of,
)
from domain.games.deluxecamping.events import Event, TokensLaid
from domain.games.deluxecamping.rules import square_of, trailers_placed
from domain.games.deluxecamping.state import DeluxeCampingOptions, Phase, Table
from domain.kernel import ComponentId, Seat

Cell = str | None


class CamperView(msgspec.Struct):
    bungalow: Square | None
    trailers: list[Square]
    trailers_to_place: int
    points: int
    """What this player's areas are worth now (the score, once the game is over)."""


class TokenView(msgspec.Struct):
    square: Square
    token: PieceId | None
    """None while the tokens lie face down."""


class DeluxeCampingView(msgspec.Struct):
    options: DeluxeCampingOptions
    phase: Phase
    player: Seat
    movements_left: int
    board: list[list[Cell]]
    """Row 8 on top: squares ("B1" a bungalow of seat 1, "T1" a trailer, "ice", "guy",
    "?" a face-down token, "~" the pool) with fences between them ("|", "—")."""
    fences: list[Edge]
    tokens: list[TokenView]
    players: list[CamperView]
    scores: list[int]


def label(state: Table, square: Square) -> Cell:
    if square in POOL:
        return "~"
    if square in state.pieces:
        piece = state.pieces[square]
        return f"{'B' if piece.endswith('-bungalow') else 'T'}{owner_of(piece) + 1}"
    if square in state.tokens:
        if not state.revealed:
            return "?"
        return "guy" if state.tokens[square] == GUY else "ice"
    return None


def board(state: Table) -> list[list[Cell]]:
    """The ground as a grid: squares at even places, the sides between them at odd ones."""
    fenced = set(state.fences)
    size = 2 * len(COLUMNS) - 1
    rows: list[list[Cell]] = []
    for r in range(ROWS, 0, -1):
        line: list[Cell] = []
        below: list[Cell] = []
        for i, c in enumerate(COLUMNS):
            square = f"{c}{r}"
            line.append(label(state, square))
            if i + 1 < len(COLUMNS):
                right = f"{COLUMNS[i + 1]}{r}"
                line.append("|" if edge(square, right) in fenced else "")
            if r > 1:
                below.append("—" if edge(square, f"{c}{r - 1}") in fenced else "")
                if i + 1 < len(COLUMNS):
                    below.append("")
        rows.append(line)
        if r > 1:
            rows.append(below)
    assert all(len(row) == size for row in rows)
    return rows


def view(state: Table, seat: Seat | None) -> DeluxeCampingView:
    now = scores(state) if state.phase != "setup" else tuple(0 for _ in range(state.seats))
    players = [
        CamperView(
            bungalow=square_of(state, bungalow(s)),
            trailers=sorted(
                sq for sq, p in state.pieces.items() if owner_of(p) == s and "trailer" in p
            ),
            trailers_to_place=TRAILERS - trailers_placed(state, s),
            points=now[s],
        )
        for s in range(state.seats)
    ]
    return DeluxeCampingView(
        options=state.options,
        phase=state.phase,
        player=state.player,
        movements_left=state.movements_left,
        board=board(state),
        fences=list(state.fences),
        tokens=[
            TokenView(square=sq, token=state.tokens.get(sq) if state.revealed else None)
            for sq in sorted(state.tokens)
        ]
        or [TokenView(square=sq, token=None) for sq in MYSTERY_SQUARES],
        players=players,
        scores=list(state.scores if state.scores is not None else now),
    )


def redact(event: Event, seat: Seat | None) -> Event:
    match event:
        case TokensLaid():
            return msgspec.structs.replace(event, tokens=None)
        case _:
            return event


def hidden(state: Table, seat: Seat | None) -> frozenset[ComponentId]:
    """The mystery tokens, until they are turned face up."""
    return frozenset() if state.revealed else frozenset(TOKENS)
