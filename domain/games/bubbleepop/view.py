"""What a seat sees: the whole board and both scoring areas; of the bag only its size.

Every event is public (Bubblees are named only once they leave the bag), so the kernel's
default stands for `redact`.
"""

from __future__ import annotations

import msgspec

from domain.games.bubbleepop.bubblees import Colour
from domain.games.bubbleepop.state import State
from domain.kernel import BySeat, ComponentId, Seat


class TableView(msgspec.Struct, frozen=True):
    sky: list[str | None]
    planets: BySeat[list[list[str]]]
    scored: BySeat[list[str]]
    points: BySeat[int]
    bag: int
    box: int
    player: Seat
    swapped: bool
    dropped: bool
    powers: list[list[Colour]]
    stuck: list[str]
    over: bool
    overfilled: Seat | None


def view(state: State, seat: Seat | None) -> TableView:
    return TableView(
        sky=list(state.sky),
        planets=[[list(stack) for stack in planet] for planet in state.planets],
        scored=[list(s) for s in state.scored],
        points=[len(s) for s in state.scored],
        bag=len(state.bag),
        box=len(state.box),
        player=state.player,
        swapped=state.swapped,
        dropped=state.dropped,
        powers=[list(b) for b in state.powers],
        stuck=list(state.stuck),
        over=state.over,
        overfilled=state.overfilled,
    )


def hidden(state: State, seat: Seat | None) -> frozenset[ComponentId]:
    """Nobody knows which Bubblees are still in the bag, nor their order."""
    return frozenset(state.bag)
