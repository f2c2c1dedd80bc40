"""Quick play and bots.

A quick-play queue per (game, options, seats) is an open table: the first player in
creates it and sits down, the next ones join it, and the match starts when every seat
is taken. After `wait` seconds the empty seats get bots. A bot is a player of its own
id that plays random legal commands through the same command path as people.

The queues live in the gateway process that took the first request; several gateway
processes each fill tables of their own (the platform may route quick play to one).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import structlog

from domain.kernel import get_game
from events.matches import LiveMatch, fold_envelopes, load_match
from events.store import EventStore
from services.client.client import CommandRejected, TabletopClient
from services.gateway.live import LiveHub
from services.gateway.tokens import Player

log = structlog.get_logger("gateway.seating")
BOT_NAMES = ("Robo Ann", "Robo Bea", "Robo Cid", "Robo Dot", "Robo Eve", "Robo Fay", "Robo Gus")

RememberName = Callable[[Player], Awaitable[None]]


class Bots:
    """The bots of this gateway process, one task per bot seat."""

    def __init__(
        self,
        client: TabletopClient,
        store: EventStore,
        hub: LiveHub,
        remember: RememberName,
        *,
        delay: float = 0.0,
    ) -> None:
        self.client = client
        self.store = store
        self.hub = hub
        self.remember = remember
        self.delay = delay
        self._tasks: set[asyncio.Task[None]] = set()
        self._rng = random.Random()

    async def seat(self, match_id: str, seat: int | None = None) -> Player:
        """A new bot sits down at the table (seat: the first free one)."""
        n = len(self._tasks)
        bot = Player(id=f"bot-{uuid.uuid4().hex[:12]}", name=BOT_NAMES[n % len(BOT_NAMES)])
        await self.remember(bot)
        await self.client.join(match_id, bot.id, seat)
        task = asyncio.create_task(self._play(match_id, bot))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return bot

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _play(self, match_id: str, bot: Player) -> None:
        bound = log.bind(match_id=match_id, bot=bot.id)
        try:
            with self.hub.subscribe(match_id) as news:
                live = await load_match(self.store, match_id)
                while live is None or live.state.status != "finished":
                    if live is not None and self._to_act(live, bot):
                        await self._move(match_id, bot, live)
                    else:
                        # A nudge from the hub, or a look at the store now and then.
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(news.get(), timeout=2.0)
                    live = await _caught_up(self.store, match_id, live)
        except asyncio.CancelledError:
            raise
        except Exception:
            bound.exception("bot_failed")

    def _to_act(self, live: LiveMatch, bot: Player) -> bool:
        state = live.state
        if state.status != "playing" or bot.id not in state.players:
            return False
        seat = state.players.index(bot.id)
        return seat not in state.conceded and seat in get_game(state.game).to_act(state.game_state)

    async def _move(self, match_id: str, bot: Player, live: LiveMatch) -> None:
        state = live.state
        game = get_game(state.game)
        seat = state.players.index(bot.id)
        move = self._rng.choice(list(game.legal(state.game_state, seat)))
        if self.delay:
            await asyncio.sleep(self.delay)
        try:
            await self.client.play(match_id, bot.id, move)
        except CommandRejected as err:  # another seat moved first: look again
            log.info("bot_move_rejected", match_id=match_id, code=err.code)


async def _caught_up(store: EventStore, match_id: str, live: LiveMatch | None) -> LiveMatch | None:
    if live is None:
        return await load_match(store, match_id)
    return fold_envelopes(await store.load(match_id, after_version=live.state.version), live)


class QuickPlayAnswer(msgspec.Struct):
    match_id: str
    seat: int


class QuickPlay:
    def __init__(self, client: TabletopClient, store: EventStore, bots: Bots, wait: float) -> None:
        self.client = client
        self.store = store
        self.bots = bots
        self.wait = wait
        self._open: dict[tuple[str, str, int], str] = {}
        self._lock = asyncio.Lock()
        self._timers: set[asyncio.Task[None]] = set()

    async def find(
        self, player: Player, game: str, seats: int, options: dict[str, Any]
    ) -> QuickPlayAnswer:
        """Seat the player at the open table of that queue, or open one."""
        queue = (game, msgspec.json.encode(options, order="sorted").decode(), seats)
        async with self._lock:
            match_id = self._open.get(queue)
            if match_id is not None:
                seat = await self._sit(match_id, player)
                if seat is not None:
                    await self._start_if_full(queue, match_id, player)
                    return QuickPlayAnswer(match_id, seat)
                self._open.pop(queue, None)
            match_id = await self.client.create(game, seats, options)
            await self.client.join(match_id, player.id)
            self._open[queue] = match_id
            await self._start_if_full(queue, match_id, player)
            if queue in self._open:
                timer = asyncio.create_task(self._fill_later(queue, match_id))
                self._timers.add(timer)
                timer.add_done_callback(self._timers.discard)
            return QuickPlayAnswer(match_id, await self._seat_in(match_id, player))

    async def _sit(self, match_id: str, player: Player) -> int | None:
        live = await load_match(self.store, match_id)
        if live is None or live.state.status != "lobby":
            return None
        if player.id in live.state.players:
            return live.state.players.index(player.id)
        try:
            await self.client.join(match_id, player.id)
        except CommandRejected:
            return None
        return await self._seat_in(match_id, player)

    async def _seat_in(self, match_id: str, player: Player) -> int:
        live = await load_match(self.store, match_id)
        assert live is not None
        return live.state.players.index(player.id)

    async def _start_if_full(self, queue: tuple[str, str, int], match_id: str, by: Player) -> None:
        live = await load_match(self.store, match_id)
        if live is None or any(p is None for p in live.state.players):
            return
        self._open.pop(queue, None)
        await self.client.start(match_id, by.id)

    async def _fill_later(self, queue: tuple[str, str, int], match_id: str) -> None:
        await asyncio.sleep(self.wait)
        async with self._lock:
            if self._open.get(queue) != match_id:
                return
            live = await load_match(self.store, match_id)
            if live is None or live.state.status != "lobby":
                self._open.pop(queue, None)
                return
            first = next((p for p in live.state.players if p), None)
            if first is None:  # everybody left: the table closes unplayed
                self._open.pop(queue, None)
                return
            for _ in range(sum(1 for p in live.state.players if p is None)):
                await self.bots.seat(match_id)
            self._open.pop(queue, None)
            await self.client.start(match_id, first)

    async def stop(self) -> None:
        for timer in list(self._timers):
            timer.cancel()
