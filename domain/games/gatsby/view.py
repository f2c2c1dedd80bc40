"""What a seat sees of a Gatsby table: all but face-down characters, the box's spares,
the Special Action pile and the tiles another player is choosing from."""

from __future__ import annotations

import msgspec

from domain.games.gatsby.board import CABARET_COLS, CABARET_ROWS, ActionSpace, Bonus, Space, Step
from domain.games.gatsby.events import (
    CharactersLaid,
    Event,
    ScoreSheet,
    SpecialsDrawn,
    SpecialsShuffled,
)
from domain.games.gatsby.state import Options, Phase, Player, State
from domain.games.gatsby.tiles import TileId
from domain.kernel import ComponentId, Seat


class GatsbyView(msgspec.Struct, frozen=True):
    you: Seat | None
    options: Options
    phase: Phase
    player: Seat
    first: Seat
    players: list[Player]
    characters: dict[Space, TileId | None]
    """The character on each space still to rally (None: face down)."""
    rallied: list[Space]
    cabaret_tiles: list[TileId]
    cabaret: list[list[Seat | None]]
    race: list[list[Seat]]
    race_closed: list[bool]
    special_pile: int
    special_discard: list[TileId]
    drawn: list[TileId | None]
    last_action: ActionSpace | None
    blocked: ActionSpace | None
    blocked_for: Seat | None
    steps: list[Step]
    pending: list[Bonus]
    reason: str | None
    winner: Seat | None
    sheets: list[ScoreSheet]


def view(state: State, seat: Seat | None) -> GatsbyView:
    return GatsbyView(
        you=seat,
        options=state.options,
        phase=state.phase,
        player=state.player,
        first=state.first,
        players=state.players,
        characters={
            space: c if c in state.face_up else None
            for space, c in state.characters.items()
            if c is not None
        },
        rallied=[space for space, c in state.characters.items() if c is None],
        cabaret_tiles=state.cabaret_tiles,
        cabaret=[
            state.cabaret[row * CABARET_COLS : (row + 1) * CABARET_COLS]
            for row in range(CABARET_ROWS)
        ],
        race=state.race,
        race_closed=state.race_closed,
        special_pile=len(state.special_pile),
        special_discard=state.special_discard,
        drawn=[t if seat == state.player else None for t in state.drawn],
        last_action=state.last_action,
        blocked=state.blocked,
        blocked_for=state.blocked_for,
        steps=state.steps,
        pending=state.pending,
        reason=state.reason,
        winner=state.winner,
        sheets=state.sheets,
    )


def redact(event: Event, seat: Seat | None) -> Event:
    """Hide the characters laid face down, the shuffled pile, and others' drawn tiles."""
    match event:
        case CharactersLaid():
            return msgspec.structs.replace(event, placed=None, spares=None)
        case SpecialsShuffled():
            return msgspec.structs.replace(event, tiles=None)
        case SpecialsDrawn(seat=drawer) if drawer != seat:
            return msgspec.structs.replace(event, tiles=None)
        case _:
            return event


def hidden(state: State, seat: Seat | None) -> frozenset[ComponentId]:
    secret = set(state.special_pile) | set(state.spares)
    secret |= {c for c in state.characters.values() if c is not None and c not in state.face_up}
    if seat != state.player:
        secret |= set(state.drawn)
    return frozenset(secret)
