"""Deluxe Camping events as one sentence for a reader (redacted forms included)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.deluxecamping.board import (
    GUY,
    ICE_CREAMS,
    MAX_PLAYERS,
    TRAILERS,
    bungalow,
    trailer,
)
from domain.games.deluxecamping.events import (
    AreaScored,
    Event,
    FenceRaised,
    FenceSkipped,
    GameEnded,
    MovingStopped,
    PieceMoved,
    PiecePlaced,
    TokensLaid,
    TokensRevealed,
    TurnBegan,
)
from domain.kernel import Seat


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case TokensLaid(squares=squares):
            return f"Three mystery tokens lie face down on {', '.join(squares)}."
        case PiecePlaced(seat=seat, piece=piece, square=square):
            return f"{who(seat)} placed {piece_name(piece)} on {square}."
        case FenceRaised(edge=side, seat=seat, automatic=automatic):
            if automatic:
                return f"A fence went up by itself on {side}."
            return f"{who(seat)} added a fence on {side}."
        case TokensRevealed(squares=squares, tokens=tokens):
            shown = ", ".join(
                f"{piece_name(t)} on {s}" for s, t in zip(squares, tokens, strict=True)
            )
            return f"The mystery tokens are revealed: {shown}."
        case TurnBegan(seat=seat):
            return f"It is {'your' if seat == reader else who(seat) + chr(39) + 's'} turn."
        case PieceMoved(seat=seat, piece=piece, start=start, to=to):
            return f"{who(seat)} moved {piece_name(piece)} from {start} to {to}."
        case MovingStopped(seat=seat):
            return f"{who(seat)} stopped moving."
        case FenceSkipped(seat=seat):
            return f"{who(seat)} added no fence."
        case AreaScored(seat=seat, squares=n, by_the_pool=pool, ice_creams=ice, guy=guy, points=p):
            extras = [
                "by the pool" if pool else "",
                plural(ice, "ice cream") if ice else "",
                "the guy" if guy else "",
            ]
            more = f" ({', '.join(x for x in extras if x)})" if any(extras) else ""
            owner = "yours" if seat == reader else who(seat) + chr(39) + "s"
            return f"An area of {plural(n, 'square')}{more} is {owner}: {plural(p, 'point')}."
        case GameEnded(scores=final):
            table = ", ".join(f"{who(s)} {score}" for s, score in enumerate(final))
            return f"Every section holds one player's pieces: {table}."
        case _:
            raise TypeError(f"not a Deluxe Camping event: {event!r}")


def components() -> dict[str, str]:
    """What the table calls each piece in the box: the mystery tokens by their faces,
    and each player's bungalow and numbered trailers by that player's number."""
    # A trailer's number keeps the Move Piece buttons of two trailers apart.
    tokens = {GUY: "pain-in-the-neck guy", **{ice: "ice-cream stand" for ice in ICE_CREAMS}}
    pieces: dict[str, str] = {}
    for seat in range(MAX_PLAYERS):
        player = f"player {seat + 1}"
        pieces[bungalow(seat)] = f"bungalow ({player})"
        for n in range(1, TRAILERS + 1):
            pieces[trailer(seat, n)] = f"trailer {n} ({player})"
    return {**tokens, **pieces}


def piece_name(piece: str) -> str:
    if piece == GUY:
        return "the pain-in-the-neck guy"
    if piece.startswith("dc-icecream"):
        return "an ice-cream stand"
    if piece.endswith("-bungalow"):
        return "a bungalow"
    return "a trailer"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n in (1, -1) else f"{n} {word}s"
