"""The Kokeshi table: each workshop (tiles, dolls, animal markers), the two tile bags
(secret: drawn at random), and the work a turn still has to resolve."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.games.kokeshi.tiles import NORMAL_TILES, QUALITY_TILES, TileId
from domain.games.kokeshi.workshop import (
    ANIMALS,
    DOLL_HOMES,
    DOLLS,
    TOP_ROW,
    TRACKS,
    Animal,
    Doll,
)
from domain.kernel import Seat, between

Phase = Literal["setup", "starting", "turn", "over"]
"""starting: seats in order place their two starting tiles; turn: a seat's turn."""

TaskKind = Literal["step", "land", "effect", "apply", "choose_half", "choose_doll", "choose_animal"]
"""step: move `doll` up `spaces`, resolving only the last; land: resolve the space `doll`
stands on; effect: resolve `tile` (a slash asks for a half); apply: do `effect`;
choose_*: the seat must answer before the cascade goes on."""


class Task(msgspec.Struct, frozen=True):
    """One piece of work of the cascade still to do (the last in the agenda comes first)."""

    kind: TaskKind
    doll: str | None = None
    tile: TileId | None = None
    spaces: int = 0
    effect: str | None = None
    track: int = 0
    """The track of the tile being resolved (where its arrows point from)."""


class ToPlace(msgspec.Struct, frozen=True):
    """A tile gained and not yet placed: on `track` (None: a starting tile, row 1)."""

    tile: TileId
    track: int | None


class Spot(msgspec.Struct, frozen=True):
    """Where a doll stands: a track (0-based) and a row (0 is home)."""

    track: int
    row: int


class Workshop(msgspec.Struct):
    tiles: list[list[TileId | None]]
    """tiles[track][row - 1]: the tile on that space, or None."""
    dolls: dict[str, Spot]
    animals: dict[str, int]
    happiness: int = 0
    """3 per doll that reached the top (in-game scoring)."""
    top_outs: int = 0


MAX_ROUNDS = 30


class KokeshiOptions(msgspec.Struct, forbid_unknown_fields=True):
    rounds: Annotated[int, between(1, MAX_ROUNDS)] = 14
    """House-made: the game ends after this many rounds (earlier if a workshop fills)."""
    lead_ties: Literal["nobody", "shared"] = "nobody"
    """Who is "ahead" on an animal track when the best marker is shared: nobody (the page's
    reading) or every seat sharing it."""


class ScoreSheet(msgspec.Struct, frozen=True):
    animals: int
    leads: int
    recognition: int
    dolls: int
    adjacency: int
    happiness: int
    total: int


class Table(msgspec.Struct):
    seats: int
    options: KokeshiOptions
    workshops: list[Workshop]
    bag: list[TileId]
    """Normal tiles not yet drawn (sorted; drawn at random, so hidden)."""
    quality_bag: list[TileId]
    phase: Phase = "setup"
    player: Seat = 0
    round: int = 0
    agenda: list[Task] = []
    """Only while the seat must choose: the cascade's remaining work, last first."""
    to_place: list[ToPlace] = []
    triggered: list[TileId] = []
    """Tiles whose effect resolved this turn (each resolves once a turn)."""
    conceded: list[Seat] = []
    sheets: list[ScoreSheet] = []


def empty_workshop() -> Workshop:
    return Workshop(
        tiles=[[None] * TOP_ROW for _ in range(TRACKS)],
        dolls={doll: Spot(DOLL_HOMES[doll], 0) for doll in DOLLS},
        animals={animal: 0 for animal in ANIMALS},
    )


def initial(options: KokeshiOptions, seats: int) -> Table:
    """Empty workshops, dolls at home, animal markers at the start, both bags full."""
    return Table(
        seats=seats,
        options=options,
        workshops=[empty_workshop() for _ in range(seats)],
        bag=list(NORMAL_TILES),
        quality_bag=list(QUALITY_TILES),
    )


__all__ = ["Animal", "Doll", "Table", "Task", "ToPlace", "Spot", "Workshop"]
