"""Reading a match back from the store: snapshot (if any) plus the tail of its stream."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain import match as m
from events.envelope import GENESIS, Envelope
from events.store import EventStore, Start
from events.upcast import upcast


class LiveMatch(msgspec.Struct):
    """A match as the command service holds it: the fold and its last hash-chain link."""

    state: m.MatchState
    last_hash: str


class _Opening(msgspec.Struct):
    game: str


_OPENING = msgspec.json.Decoder(_Opening)


def game_of(envelopes: Sequence[Envelope]) -> str:
    """The game named by a stream's first event (match.created)."""
    return _OPENING.decode(envelopes[0].payload).game


def decode_events(game: str, envelopes: Sequence[Envelope]) -> list[object]:
    """The events in their current shape (older schemas upcast first)."""
    codec = m.codec(game)
    return [codec.decode(bytes(upcast(e).payload)) for e in envelopes]


def fold_envelopes(
    envelopes: Sequence[Envelope], start: LiveMatch | None = None
) -> LiveMatch | None:
    if start is None and not envelopes:
        return None
    game = start.state.game if start is not None else game_of(envelopes)
    state = m.fold(decode_events(game, envelopes), start.state if start else None)
    last = envelopes[-1].hash if envelopes else (start.last_hash if start else GENESIS)
    return LiveMatch(state=state, last_hash=last)


@dataclass
class Recorded:
    """A match read back whole from its stream (a history and a replay need every
    event, not a snapshot)."""

    game: str
    envelopes: list[Envelope]
    events: list[Any]

    def state_at(self, version: int) -> m.MatchState:
        return m.fold(self.events[: max(1, version)])

    @property
    def state(self) -> m.MatchState:
        """As it is now, after its last event."""
        return self.state_at(len(self.events))


def recorded(envelopes: list[Envelope]) -> Recorded | None:
    """A stream's envelopes decoded (None: no events, no match)."""
    if not envelopes:
        return None
    game = game_of(envelopes)
    return Recorded(game, envelopes, decode_events(game, envelopes))


async def read_back(store: EventStore, match_id: str) -> Recorded | None:
    return recorded(await store.load(match_id))


async def load_match(store: EventStore, match_id: str) -> LiveMatch | None:
    """Snapshot plus tail when there is a snapshot, else the whole stream."""
    snap = await store.load_snapshot(match_id)
    tail = await store.load(match_id, after_version=snap.version if snap else 0)
    return from_start(Start(snap, tail))


def from_start(start: Start) -> LiveMatch | None:
    """A match as its snapshot and the events after it leave it (None: no match)."""
    if start.snapshot is None:
        return fold_envelopes(start.tail)
    state = m.decode_snapshot(start.snapshot.state)
    return fold_envelopes(start.tail, LiveMatch(state=state, last_hash=start.snapshot.last_hash))
