"""The Gatsby table: the board's tokens and characters, the secret piles, each player's board."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.gatsby.board import (
    ALL_SPACES,
    CABARET_COLS,
    CABARET_ROWS,
    RACE_LINES,
    ActionSpace,
    Bonus,
    Space,
    Step,
)
from domain.games.gatsby.events import ScoreSheet
from domain.games.gatsby.tiles import CHARACTERS, INFLUENCE_TOKENS, SPECIAL_TILES, TileId
from domain.kernel import Seat

Phase = Literal["setup", "keep_special", "first_token", "turn", "action", "over"]
"""keep_special: choosing among drawn Special Action tiles; first_token: the second player's
setup token; turn: choose an action space or play the special; action: its steps and bonuses."""

EndRule = Literal["last_character", "location_emptied"]


class Options(msgspec.Struct, forbid_unknown_fields=True):
    end: EndRule = "last_character"
    """last_character (the page): the game ends when the last character is rallied;
    location_emptied (facts file): when the last character of any one location is."""


class Player(msgspec.Struct):
    reserve: int = INFLUENCE_TOKENS
    height: int = 0
    """The Ascension token's space on the Finance track."""
    special: TileId | None = None
    specials_discarded: int = 0
    characters: list[TileId] = []


class State(msgspec.Struct):
    options: Options
    players: list[Player]
    characters: dict[Space, TileId | None]
    """Character spaces -> the character there (None once rallied)."""
    face_up: list[TileId]
    spares: list[TileId]
    """The 3 characters left in the box (secret)."""
    special_pile: list[TileId]
    """Face down, top tile last (secret)."""
    special_discard: list[TileId] = []
    cabaret_tiles: list[TileId] = []
    """The Cabaret tile on each section, top first."""
    cabaret: list[Seat | None] = msgspec.field(
        default_factory=lambda: [None] * (CABARET_ROWS * CABARET_COLS)
    )
    """Influence tokens on the Cabaret, row by row."""
    race: list[list[Seat]] = msgspec.field(default_factory=lambda: [[] for _ in RACE_LINES])
    race_closed: list[bool] = msgspec.field(default_factory=lambda: [False for _ in RACE_LINES])
    phase: Phase = "setup"
    player: Seat = 0
    first: Seat = 0
    last_action: ActionSpace | None = None
    blocked: ActionSpace | None = None
    blocked_for: Seat | None = None
    """`blocked` is closed to this seat's next choice of action (the opponent's bonus)."""
    steps: list[Step] = []
    pending: list[Bonus] = []
    in_special: bool = False
    special_used: bool = False
    drawn: list[TileId] = []
    """Special Action tiles drawn to choose from (seen by `player` only)."""
    reason: str | None = None
    winner: Seat | None = None
    sheets: list[ScoreSheet] = []


def initial(options: Options, seats: int) -> State:
    """The board empty, every character and special tile aside, 20 tokens each."""
    return State(
        options=options,
        players=[Player() for _ in range(seats)],
        characters={space: None for space in ALL_SPACES},
        face_up=[],
        spares=sorted(CHARACTERS),
        special_pile=sorted(SPECIAL_TILES),
    )
