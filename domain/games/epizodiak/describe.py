"""One sentence per event, for the reader: "You" for their own seat."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.epizodiak.events import (
    DialRefilled,
    Event,
    RoundDealt,
    RoundEnded,
    SetDiscarded,
    TileDrawn,
    TilePickedUp,
    TilesPlaced,
    TurnPassed,
    ValueContested,
)
from domain.games.epizodiak.tiles import TILES, value_of
from domain.kernel import Seat


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    def plural(n: int, word: str) -> str:
        return f"{n} {word}" + ("" if n == 1 else "s")

    match event:
        case RoundDealt(round=number, first=first, flipped=flipped):
            return (
                f"Round {number} is dealt; a {value_of(flipped)} is turned onto the dial "
                f"and {who(first)} {'play' if first == reader else 'plays'} first."
            )
        case TileDrawn(seat=seat, tile=tile):
            drawn = f"a {value_of(tile)}" if tile else "a tile"
            return f"{who(seat)} drew {drawn} from the pile."
        case TilePickedUp(seat=seat, value=value):
            return f"{who(seat)} picked up the {value} from the dial."
        case TilesPlaced(seat=seat, direction=direction, values=values):
            run = ", ".join(str(v) for v in values)
            return f"{who(seat)} placed {run} {direction}."
        case SetDiscarded(seat=seat, value=value):
            return f"{who(seat)} discarded a set of three {value}s."
        case TurnPassed(seat=seat, automatic=automatic):
            how = " (nothing could be played)" if automatic else ""
            return f"{who(seat)} passed{how}."
        case ValueContested(seat=seat, value=value, taken=taken):
            losers = " and ".join(
                f"{who(s)} ({plural(n, 'tile')})" for s, n in enumerate(taken) if n
            )
            return (
                f"{who(seat)} contested the {value}s: {losers} gave them up; "
                "three are discarded as a scoring set and the fourth is kept as a single tile."
            )
        case DialRefilled(pile_size=size, flipped=flipped):
            return (
                f"The dial was full: it was shuffled into a pile of {size} tiles "
                f"and a {value_of(flipped)} was turned over."
            )
        case RoundEnded(emptier=emptier, points=points, game_over=over):
            scored = ", ".join(f"{who(s)} {plural(p, 'point')}" for s, p in enumerate(points))
            tail = " The match is over." if over else ""
            return f"{who(emptier)} emptied a hand and the round is scored: {scored}.{tail}"
        case _:
            return "Something happened at the table."


def components() -> dict[str, str]:
    """What the table calls each tile: the number printed on it, shared by its four copies."""
    return {tile: str(value_of(tile)) for tile in TILES}
