"""Live pushes: one fold per match and gateway process, shared by every socket on it.

A `Feed` follows one match through the live hub while at least one socket watches it:
it folds each new batch of envelopes once and hands every socket the same `Batch`;
a socket asks the batch for its seat's message, which is rendered (redacted events and
their sentences, the view, the legal commands) and encoded once per seat, however many
sockets share that seat. The message is one frame per batch: the events, the view
after them and whether it is the reader's turn.

A socket joins a feed synchronously, at the feed's version, and takes the fold at that
version as its starting point: every batch folded after reaches its queue, so a socket
misses nothing and gets nothing twice. A reconnect `since` an older version first reads
what it missed from the store, up to the version it joined at.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec
import structlog

from domain import match as m
from domain.kernel import Seat, get_game, keeps_no_secrets
from events.envelope import Envelope
from events.matches import LiveMatch, decode_events, game_of, load_match
from events.store import EventStore
from services.gateway import tables
from services.gateway.live import LiveHub

log = structlog.get_logger("gateway.feeds")


class Push(msgspec.Struct, kw_only=True):
    """One live message: on connect (`hello`), then after each batch of events (`update`):
    the events the reader may see, with their sentences, the view after them, the
    commands legal for the reader now, and whether the reader may act."""

    kind: Literal["hello", "update"]
    version: int
    seat: Seat | None
    events: list[tables.Line]
    view: dict[str, Any]
    commands: list[tables.CommandChoice]
    your_turn: bool


class LiveError(msgspec.Struct, kw_only=True):
    kind: Literal["error"] = "error"
    message: str


ENCODER = msgspec.json.Encoder()


def my_turn(state: m.MatchState, seat: Seat | None) -> bool:
    if seat is None or state.status != "playing" or seat in state.conceded:
        return False
    return seat in get_game(state.game).to_act(state.game_state)


@dataclass
class Batch:
    """Events folded together, and the match after them; each seat's message is made on
    first request and kept for the other sockets of that seat."""

    kind: Literal["hello", "update"]
    state: m.MatchState
    names: list[str]
    envelopes: Sequence[Envelope] = ()
    events: Sequence[Any] = ()
    by_id: dict[str, str] = field(default_factory=dict)  # who the events name (of_lines)
    _texts: dict[Seat | None, str] = field(default_factory=dict)
    _table: dict[str, Any] | None = None  # the view every reader shares, if the game allows

    @property
    def version(self) -> int:
        return self.state.version

    def text_for(self, player: str) -> str:
        seat = tables.seat_of(self.state, player)
        text = self._texts.get(seat)
        if text is None:
            text = self._texts[seat] = ENCODER.encode(self._render(seat)).decode()
        return text

    def _render(self, seat: Seat | None) -> Push:
        state = self.state
        lines = tables.lines_for(
            state.game, self.envelopes, self.events, seat, self.names, self.by_id
        )
        return Push(
            kind=self.kind,
            version=state.version,
            seat=seat,
            events=lines,
            view=self._view(seat),
            commands=tables.commands_for(state, seat),
            your_turn=my_turn(state, seat),
        )

    def _view(self, seat: Seat | None) -> dict[str, Any]:
        # A game that keeps no secrets shows every reader the same table: rendered once
        # for the batch, each seat's view differs only in naming its reader.
        if not keeps_no_secrets(get_game(self.state.game)):
            return tables.view_for(self.state, seat, self.names)
        if self._table is None:
            self._table = tables.view_for(self.state, None, self.names)
        return {**self._table, "you": seat}


Closed = None  # put in a socket's queue when the socket has gone
Inbox = asyncio.Queue[Batch | None]


class Feed:
    """One match's fold in this process, and the sockets following it."""

    def __init__(
        self,
        match_id: str,
        store: EventStore,
        names: tables.NameBook,
        news: asyncio.Queue[Envelope],
    ) -> None:
        self.match_id = match_id
        self.store = store
        self._names = names
        self._news = news
        self.live: LiveMatch | None = None
        self.ready = asyncio.Event()
        self.failed = False
        self.inboxes: set[Inbox] = set()
        self.followers = 0  # sockets in `Feeds.follow`, joined or about to
        self.task: asyncio.Task[None] | None = None

    @property
    def version(self) -> int:
        return self.live.state.version if self.live is not None else 0

    def join(self) -> tuple[Inbox, LiveMatch | None]:
        """A socket's queue, and the fold every batch it will get comes after."""
        inbox: Inbox = asyncio.Queue()
        self.inboxes.add(inbox)
        return inbox, self.live

    def leave(self, inbox: Inbox) -> None:
        self.inboxes.discard(inbox)

    async def run(self) -> None:
        bound = log.bind(match_id=self.match_id)
        try:
            self.live = await load_match(self.store, self.match_id)
        except Exception:
            bound.exception("feed_load_failed")
            self._fail()
            return
        finally:
            self.ready.set()
        while True:
            batch = [await self._news.get()]
            while not self._news.empty():
                batch.append(self._news.get_nowait())
            try:
                made = await self._advance(batch)
            except Exception:
                bound.exception("feed_failed", version=self.version)
                self._fail()
                return
            if made is not None:
                for inbox in self.inboxes:
                    inbox.put_nowait(made)

    async def _advance(self, arrived: list[Envelope]) -> Batch | None:
        fresh = [e for e in arrived if e.version > self.version]
        if not fresh:
            return None
        if fresh[0].version != self.version + 1:  # the hub started after: read the gap
            fresh = await self.store.load(self.match_id, after_version=self.version)
        if not fresh:
            return None
        game = self.live.state.game if self.live is not None else game_of(fresh)
        events = decode_events(game, fresh)
        state = m.fold(events, self.live.state if self.live is not None else None)
        names = await self._names.of(state.players)
        by_id = await self._names.of_lines(state.players, names, events)
        # The fold changes only here, with no await between it and the hand-out below:
        # a socket joining in between would otherwise miss this batch.
        self.live = LiveMatch(state=state, last_hash=fresh[-1].hash)
        return Batch("update", state, names, fresh, events, by_id)

    def _fail(self) -> None:
        self.failed = True
        for inbox in self.inboxes:
            inbox.put_nowait(Closed)


class Feeds:
    """The feeds of this gateway process, one per match watched here."""

    def __init__(self, hub: LiveHub, store: EventStore, names: tables.NameBook) -> None:
        self.hub = hub
        self.store = store
        self.names = names
        self._feeds: dict[str, tuple[Feed, contextlib.ExitStack]] = {}

    @property
    def following(self) -> int:
        return len(self._feeds)

    def state_of(self, match_id: str) -> m.MatchState | None:
        """The match as a feed here last folded it, if one follows it."""
        found = self._feeds.get(match_id)
        if found is None or found[0].live is None:
            return None
        return found[0].live.state

    @contextlib.contextmanager
    def follow(self, match_id: str) -> Iterator[Feed]:
        """The match's feed (started by its first socket, stopped after its last)."""
        found = self._feeds.get(match_id)
        if found is None or found[0].failed:
            exits = contextlib.ExitStack()
            news = exits.enter_context(self.hub.subscribe(match_id))
            feed = Feed(match_id, self.store, self.names, news)
            feed.task = asyncio.create_task(feed.run())
            found = self._feeds[match_id] = (feed, exits)
        feed = found[0]
        feed.followers += 1
        try:
            yield feed
        finally:
            feed.followers -= 1
            if not feed.followers:
                # The last socket of this feed has gone (a failed feed may already have
                # been replaced by a new one for the sockets that came back).
                if self._feeds.get(match_id) is found:
                    del self._feeds[match_id]
                if feed.task is not None:
                    feed.task.cancel()
                found[1].close()

    async def stop(self) -> None:
        for feed, exits in list(self._feeds.values()):
            if feed.task is not None:
                feed.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await feed.task
            exits.close()
        self._feeds.clear()


async def catch_up(
    store: EventStore, book: tables.NameBook, match_id: str, since: int, base: LiveMatch
) -> Batch:
    """What a reconnecting socket missed: the events after `since` up to the fold it
    joined at, with the match as it stands there."""
    missed = await store.load(match_id, after_version=since)
    envelopes = [e for e in missed if e.version <= base.state.version]
    events = decode_events(base.state.game, envelopes)
    names = await book.of(base.state.players)
    by_id = await book.of_lines(base.state.players, names, events)
    return Batch("update", base.state, names, envelopes, events, by_id)
