"""What each seat sees: its own hand; of the others, how many tiles they hold."""

from __future__ import annotations

import msgspec

from domain.games.epizodiak.dial import ends
from domain.games.epizodiak.events import (
    DialRefilled,
    Event,
    RoundDealt,
    SetDiscarded,
    TileDrawn,
    TilePickedUp,
    TilesPlaced,
    ValueContested,
)
from domain.games.epizodiak.state import Mode, Phase, State
from domain.games.epizodiak.tiles import TileId, Value, value_of
from domain.games.epizodiak.turn import singles
from domain.kernel import ComponentId, Seat


class PlayerView(msgspec.Struct, frozen=True):
    seat: Seat
    tiles_in_hand: int
    sets: list[Value]  # values of the sets discarded this round
    score: int


class TableView(msgspec.Struct, frozen=True):
    mode: Mode
    target_score: int  # not `target`: a name the web table reads as a seat
    round: int
    you: Seat | None
    hand: list[TileId] | None
    players: list[PlayerView]
    pile_size: int
    dial: list[TileId | None]  # place v-1 holds the tile of value v
    waiting_for: list[Value]  # the values immediately playable at the two ends
    single_values: list[Value]  # values whose set is discarded
    current: Seat
    phase: Phase
    passes: int
    pickable: TileId | None
    picked_value: Value | None
    emptier: Seat | None


def view(state: State, seat: Seat | None) -> TableView:
    return TableView(
        mode=state.options.mode,
        target_score=state.options.target,
        round=state.round,
        you=seat,
        hand=list(state.hands[seat]) if seat is not None and state.hands else None,
        players=[
            PlayerView(
                seat=s,
                tiles_in_hand=len(state.hands[s]) if state.hands else 0,
                sets=list(state.sets[s]) if state.sets else [],
                score=state.scores[s],
            )
            for s in range(len(state.scores))
        ],
        pile_size=len(state.pile),
        dial=list(state.dial),
        waiting_for=list(ends(state.dial)) if any(state.dial) else [],
        single_values=sorted(singles(state)),
        current=state.current,
        phase=state.phase,
        passes=state.passes,
        pickable=state.pickable,
        picked_value=value_of(state.picked) if state.picked else None,
        emptier=state.emptier,
    )


def redact(event: Event, seat: Seat | None) -> Event | None:
    match event:
        case RoundDealt(hands=hands):
            shown = tuple(hand if s == seat else None for s, hand in enumerate(hands))
            return msgspec.structs.replace(event, hands=shown, pile=None)
        case TileDrawn(seat=drawer) if drawer != seat:
            return msgspec.structs.replace(event, tile=None)
        case TilePickedUp(seat=picker, swept=swept) if swept or picker != seat:
            return msgspec.structs.replace(event, tile=None)
        case TilesPlaced(swept=True) | SetDiscarded(swept=True):
            return msgspec.structs.replace(event, tiles=None)
        case ValueContested(seat=contester, swept=swept) if swept or contester != seat:
            return msgspec.structs.replace(event, kept=None)
        case DialRefilled():
            return msgspec.structs.replace(event, pile=None)
        case _:
            return event


def hidden(state: State, seat: Seat | None) -> frozenset[ComponentId]:
    """Other players' hands and the whole draw pile."""
    secret = {t for s, hand in enumerate(state.hands) if s != seat for t in hand}
    return frozenset(secret | set(state.pile))
