"""Quick play and bots, shared by every gateway process through Redis.

Quick play. A queue per (game, seats, options) has at most one open table. One Lua
script (`SEAT_LUA`, on the exact keys of `GATEWAY`, one slot) seats a player: it opens a
table when the queue has none (a fresh match id, and a deadline for its bots), or gives
the next free seat of the open one, and closes the queue once every seat is promised.
The gateway that answered then creates the match and joins the promised seat; every
gateway sends the same create (command id `qp.create.<match>`), so the command streams
append it once whoever comes first. Whoever sees the table full after a join starts it
(command id `qp.start.<match>`, once). When a table's deadline passes, `FILL_LUA`
claims it (one ZREM: exactly one process wins, however many race) and closes the
queue; the winner seats bots in the seats the match still has empty, if anyone still
sits there. The record follows the table (`RESEAT_LUA`): a player who leaves before the
start frees their seat for the next one (a table everyone left leaves its queue, so no
bots fill it), and a seat someone took by hand is marked taken and skipped. A leave the
gateway never heard of (a platform's own command) leaves the record wrong: a table it
calls full that is not goes back on the deadlines (`LATER_LUA`), and its bots come
then.

Bots. A bot is a player of its own id that plays random legal commands through the
same client and command streams as people. Each bot is owned by one gateway process
through a lease (`BOT_LEASE_MS`) that its owner renews every second. A process that
stops hands its bots back (their leases end at once); one that dies lets them lapse.
Every process adopts lapsed bots each second, so a bot plays on as long as one gateway
runs. A process that finds a lease no longer its own stops that bot's task.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import uuid
import zlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, cast

import msgspec
import structlog
from redis.asyncio import Redis

from domain import match as m
from domain.kernel import get_game
from events.keys import GATEWAY
from events.matches import LiveMatch, fold_envelopes, load_match
from events.store import EventStore
from services.client.client import CommandRejected, TabletopClient
from services.gateway.live import LiveHub
from services.gateway.tokens import Player
from services.readside.notices import BOT_PREFIX

log = structlog.get_logger("gateway.seating")
BOT_NAMES = ("Robo Ann", "Robo Bea", "Robo Cid", "Robo Dot", "Robo Eve", "Robo Fay", "Robo Gus")
BOT_LEASE_MS = 5_000
LEASE_EVERY = 1.0  # seconds between a process's renewals and adoptions
ADOPT_AT_ONCE = 50

RememberName = Callable[[Player], Awaitable[None]]

_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""

# A queued table's seats (`p`, by seat): the player promised each, '' for a free seat (one
# left, or never given), '#' for a seat someone took by hand. Counting what is taken, and
# taking the table out of its queue when every seat is taken or nobody waits any more:
_TAKEN = """
local function taken(t)
  local n = 0
  for _, p in ipairs(t.p) do if p ~= '' then n = n + 1 end end
  return n
end
local function unqueue(mid, t)
  if redis.call('HGET', KEYS[1], t.q) == mid then redis.call('HDEL', KEYS[1], t.q) end
  redis.call('HDEL', KEYS[2], mid)
  redis.call('ZREM', KEYS[3], mid)
end
"""

# KEYS: open, tables, due. ARGV: queue, player, seats, fresh match id, wait (ms).
# -> {match id, seat (0-based), 1 when this seat was the last one}
SEAT_LUA = (
    _NOW
    + _TAKEN
    + """
local mid = redis.call('HGET', KEYS[1], ARGV[1])
local t
if mid then
  t = cjson.decode(redis.call('HGET', KEYS[2], mid))
  for i, p in ipairs(t.p) do
    if p == ARGV[2] then return {mid, i - 1, 0} end
  end
else
  mid = ARGV[4]
  t = {q = ARGV[1], n = tonumber(ARGV[3]), p = {}}
  redis.call('HSET', KEYS[1], ARGV[1], mid)
  redis.call('ZADD', KEYS[3], now + tonumber(ARGV[5]), mid)
end
local seat = nil
for i, p in ipairs(t.p) do
  if p == '' then seat = i; break end
end
if seat then t.p[seat] = ARGV[2] else table.insert(t.p, ARGV[2]); seat = #t.p end
if taken(t) >= t.n then
  unqueue(mid, t)
  return {mid, seat - 1, 1}
end
redis.call('HSET', KEYS[2], mid, cjson.encode(t))
return {mid, seat - 1, 0}
"""
)

# KEYS: open, tables, due. ARGV: match id, who holds a seat now, what it holds then ('':
# free, '#': taken by hand), and the seat (0-based; -1: wherever `who` sits).
# A player who left a queued table frees their seat for the next one; a seat someone
# took by hand is no one's to promise. -> 1 (0: the table is no longer queued)
RESEAT_LUA = (
    _TAKEN
    + """
local raw = redis.call('HGET', KEYS[2], ARGV[1])
if not raw then return 0 end
local t = cjson.decode(raw)
local at = tonumber(ARGV[4]) + 1
if at == 0 then
  for i, p in ipairs(t.p) do
    if p == ARGV[2] then at = i end
  end
  if at == 0 then return 1 end
end
while #t.p < at do table.insert(t.p, '') end
t.p[at] = ARGV[3]
local n = taken(t)
if n == 0 or n >= t.n then
  unqueue(ARGV[1], t)
  return 0
end
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(t))
return 1
"""
)

# KEYS: open, tables, due. -> {match id, table JSON} for one table past its deadline,
# claimed by this call alone; {"", ms until the next deadline or -1} when none is due.
FILL_LUA = (
    _NOW
    + """
local due = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 1)
if #due == 0 then
  local nxt = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
  if #nxt == 0 then return {'', -1} end
  return {'', tonumber(nxt[2]) - now}
end
local mid = due[1]
redis.call('ZREM', KEYS[3], mid)
local raw = redis.call('HGET', KEYS[2], mid)
if not raw then return {mid, ''} end
redis.call('HDEL', KEYS[2], mid)
local t = cjson.decode(raw)
if redis.call('HGET', KEYS[1], t.q) == mid then redis.call('HDEL', KEYS[1], t.q) end
return {mid, raw}
"""
)

# KEYS: open, tables, due. ARGV: match id, table JSON, wait (ms). A table taken out of
# its queue as full has an empty seat after all: bots take it after the wait (unless it
# is on the deadlines already). -> 1 (0: it was)
LATER_LUA = (
    _NOW
    + """
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[3]), ARGV[1])
return 1
"""
)

# KEYS: open, tables, due. ARGV: queue, match id. The table will not fill: forget it.
CLOSE_LUA = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('HDEL', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
return 1
"""

# KEYS: bots, owners, leases. ARGV: owner, lease (ms), bot id, bot JSON.
ENLIST_LUA = (
    _NOW
    + """
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), ARGV[3])
return 1
"""
)

# KEYS: bots, owners, leases. ARGV: owner, lease (ms), max adoptions, then the bots
# this owner plays. Renews what is still its own, adopts lapsed bots.
# -> {bots of the list no longer its own..., '', adopted id, adopted JSON, ...}
LEASE_LUA = (
    _NOW
    + """
local out = {}
for i = 4, #ARGV do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[1] then
    redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), ARGV[i])
  else
    table.insert(out, ARGV[i])
  end
end
table.insert(out, '')
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, tonumber(ARGV[3]))
for _, bot in ipairs(lapsed) do
  local raw = redis.call('HGET', KEYS[1], bot)
  if raw then
    redis.call('HSET', KEYS[2], bot, ARGV[1])
    redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), bot)
    table.insert(out, bot)
    table.insert(out, raw)
  else
    redis.call('ZREM', KEYS[3], bot)
    redis.call('HDEL', KEYS[2], bot)
  end
end
return out
"""
)

# KEYS: bots, owners, leases. ARGV: owner, 1 to retire (the match is over) or 0 to hand
# back (the process stops), then bot ids. Touches only the owner's own bots.
LET_GO_LUA = """
for i = 3, #ARGV do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[1] then
    if ARGV[2] == '1' then
      redis.call('HDEL', KEYS[1], ARGV[i])
      redis.call('HDEL', KEYS[2], ARGV[i])
      redis.call('ZREM', KEYS[3], ARGV[i])
    else
      redis.call('ZADD', KEYS[3], 0, ARGV[i])
    end
  end
end
return 1
"""

QUEUE_KEYS = [GATEWAY.quickplay_open, GATEWAY.quickplay_tables, GATEWAY.quickplay_due]
BOT_KEYS = [GATEWAY.bots, GATEWAY.bot_owners, GATEWAY.bot_leases]


class NoTable(Exception):
    """Quick play found no table to seat the player (each was taken as it tried)."""


class BotRecord(msgspec.Struct):
    match: str
    name: str


class QueuedTable(msgspec.Struct):
    q: str
    n: int
    p: list[str]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def first_free(players: Sequence[str | None]) -> int | None:
    """The first seat nobody sits in (None: the table is full)."""
    return next((i for i, p in enumerate(players) if p is None), None)


def bot_name(match_id: str, seat: int | None) -> str:
    """A bot's name at a table: the seat's own, so two bots at one table never share a
    name (a person could not tell "Robo Cid" from "Robo Cid"), from a start that varies
    from table to table. Past the list's length a number tells them apart."""
    if seat is None:  # no free seat: the join is refused anyway
        return BOT_NAMES[0]
    at = zlib.crc32(match_id.encode()) + seat
    name = BOT_NAMES[at % len(BOT_NAMES)]
    return name if seat < len(BOT_NAMES) else f"{name} {seat // len(BOT_NAMES) + 1}"


class Bots:
    """The bots this gateway process plays now: one task per bot, each under a lease."""

    def __init__(
        self,
        client: TabletopClient,
        store: EventStore,
        hub: LiveHub,
        remember: RememberName,
        redis: Redis,
        *,
        delay: float = 0.0,
        owner: str | None = None,
        rematch_wait: float = 600.0,
    ) -> None:
        self.client = client
        self.store = store
        self.hub = hub
        self.remember = remember
        self.redis = redis
        self.delay = delay
        self.rematch_wait = rematch_wait  # how long a finished match's bot stays to answer
        self.owner = owner or f"gw-{uuid.uuid4().hex[:12]}"
        self.adopted = 0  # bots taken over from another process (tests read it)
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._rng = random.Random()
        self._enlist = redis.register_script(ENLIST_LUA)
        self._lease = redis.register_script(LEASE_LUA)
        self._let_go = redis.register_script(LET_GO_LUA)
        self._keeper: asyncio.Task[None] | None = None
        self._keeping = False

    @property
    def playing(self) -> set[str]:
        return set(self._tasks)

    def start(self) -> None:
        self._keeping = True
        self._keeper = asyncio.create_task(self._keep_leases())

    async def seat(self, match_id: str, seat: int | None = None) -> tuple[Player, int | None]:
        """A new bot sits down at the table (seat: the first free one, read from the
        match); the bot and the seat it asked for. It is enlisted before it joins, so a
        seated bot always has an owner."""
        if seat is None:
            live = await load_match(self.store, match_id)
            seat = first_free(live.state.players if live is not None else [])
        name = bot_name(match_id, seat)
        bot = Player(id=f"{BOT_PREFIX}{uuid.uuid4().hex[:12]}", name=name)
        await self.remember(bot)
        record = msgspec.json.encode(BotRecord(match_id, bot.name))
        await self._enlist(keys=BOT_KEYS, args=[self.owner, BOT_LEASE_MS, bot.id, record])
        try:
            await self.client.join(match_id, bot.id, seat)
        except BaseException:
            await self._let_go(keys=BOT_KEYS, args=[self.owner, 1, bot.id])
            raise
        self._play_later(match_id, bot)
        return bot, seat

    def _play_later(self, match_id: str, bot: Player) -> None:
        task = asyncio.create_task(self._play(match_id, bot))
        self._tasks[bot.id] = task
        task.add_done_callback(lambda _: self._tasks.pop(bot.id, None))

    async def renew(self) -> None:
        """Renew this process's leases, stop the bots it lost, adopt lapsed ones."""
        mine = list(self._tasks)
        raw = cast(
            "list[Any]",
            await self._lease(keys=BOT_KEYS, args=[self.owner, BOT_LEASE_MS, ADOPT_AT_ONCE, *mine]),
        )
        out = [_text(x) for x in raw]
        cut = out.index("")
        for lost in out[:cut]:
            task = self._tasks.get(lost)
            if task is not None:
                log.info("bot_lease_lost", bot=lost)
                task.cancel()
        adopted = out[cut + 1 :]
        for bot_id, record_raw in zip(adopted[::2], adopted[1::2], strict=True):
            if bot_id in self._tasks:
                continue
            record = msgspec.json.decode(record_raw, type=BotRecord)
            log.info("bot_adopted", bot=bot_id, match_id=record.match, owner=self.owner)
            self.adopted += 1
            self._play_later(record.match, Player(bot_id, record.name))

    async def _keep_leases(self) -> None:
        # The flag as well as the cancel: a cancel that lands inside a Redis call can be
        # swallowed by the client, and the loop would renew for ever.
        while self._keeping:
            try:
                await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away for a moment: the leases outlast a few tries
                log.exception("bot_leases_failed")
            await asyncio.sleep(LEASE_EVERY)

    async def stop(self) -> None:
        """Stop playing and hand every bot back: another process adopts it within a
        second (its lease ends now)."""
        self._keeping = False
        if self._keeper is not None:
            self._keeper.cancel()
            await asyncio.wait({self._keeper}, timeout=5)
        mine = list(self._tasks)
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if mine:
            with contextlib.suppress(Exception):
                await self._let_go(keys=BOT_KEYS, args=[self.owner, 0, *mine])

    async def _play(self, match_id: str, bot: Player) -> None:
        """Play the match to its end, then a rematch the table agrees on, and so on."""
        try:
            while match_id:
                match_id = await self._play_match(match_id, bot)
                if match_id:  # its rematch: another process adopting the bot goes there
                    record = msgspec.json.encode(BotRecord(match_id, bot.name))
                    await self._enlist(
                        keys=BOT_KEYS, args=[self.owner, BOT_LEASE_MS, bot.id, record]
                    )
            await self._let_go(keys=BOT_KEYS, args=[self.owner, 1, bot.id])
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot_failed", match_id=match_id, bot=bot.id)

    async def _play_match(self, match_id: str, bot: Player) -> str:
        """Play while the bot has moves here; once the match is over, answer a rematch
        offered within `rematch_wait` seconds (a bot always accepts). The rematch's id
        once agreed, else ""."""
        with self.hub.subscribe(match_id) as news:
            live = await load_match(self.store, match_id)
            while not _done_for(live, bot):
                if live is not None and self._to_act(live, bot):
                    await self._move(match_id, bot, live)
                else:
                    # A nudge from the hub, or a look at the store now and then.
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(news.get(), timeout=2.0)
                live = await _caught_up(self.store, match_id, live)
            assert live is not None
            if not _people_left(live.state):
                return ""  # nobody is left at the table to offer a rematch
            until = asyncio.get_running_loop().time() + self.rematch_wait
            while bot.id in live.state.players and live.state.status == "finished":
                talk = live.state.rematch
                if talk is not None and talk.match_id:
                    return talk.match_id
                if talk is not None and talk.declined is not None:
                    return ""
                seat = live.state.players.index(bot.id)
                if talk is not None and seat not in talk.accepted:
                    try:
                        await self.client.accept_rematch(match_id, bot.id)
                    except CommandRejected as err:
                        log.info("bot_rematch_rejected", match_id=match_id, code=err.code)
                left = until - asyncio.get_running_loop().time()
                if left <= 0:
                    return ""
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(news.get(), timeout=min(2.0, left))
                live = await _caught_up(self.store, match_id, live) or live
        return ""

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


def _people_left(state: m.MatchState) -> bool:
    """Someone other than a bot still sits at the table (and so may offer a rematch)."""
    return any(
        p and not p.startswith(BOT_PREFIX) and i not in state.conceded
        for i, p in enumerate(state.players)
    )


def _done_for(live: LiveMatch | None, bot: Player) -> bool:
    """The bot has nothing more to do here: the match is over, or it started without it."""
    if live is None:
        return False
    state = live.state
    return state.status == "finished" or (state.status != "lobby" and bot.id not in state.players)


async def _caught_up(store: EventStore, match_id: str, live: LiveMatch | None) -> LiveMatch | None:
    if live is None:
        return await load_match(store, match_id)
    return fold_envelopes(await store.load(match_id, after_version=live.state.version), live)


class QuickPlayAnswer(msgspec.Struct):
    match_id: str
    seat: int


class QuickPlay:
    """Quick-play queues in Redis, shared by every gateway process; each process also
    sweeps for tables whose wait is over (`fill_due`)."""

    def __init__(
        self,
        client: TabletopClient,
        store: EventStore,
        bots: Bots,
        redis: Redis,
        wait: float,
        *,
        sweep_every: float = 0.5,
    ) -> None:
        self.client = client
        self.store = store
        self.bots = bots
        self.wait = wait
        self.sweep_every = sweep_every
        self.filled = 0  # tables this process filled with bots (tests read it)
        self._seat = redis.register_script(SEAT_LUA)
        self._fill = redis.register_script(FILL_LUA)
        self._close = redis.register_script(CLOSE_LUA)
        self._reseat = redis.register_script(RESEAT_LUA)
        self._later = redis.register_script(LATER_LUA)
        self._sweeper: asyncio.Task[None] | None = None
        self._sweeping = False
        self._fills: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._sweeping = True
        self._sweeper = asyncio.create_task(self._sweep())

    async def stop(self) -> None:
        self._sweeping = False
        tasks = [t for t in [self._sweeper, *self._fills] if t is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5)

    async def find(
        self, player: Player, game: str, seats: int, options: dict[str, Any]
    ) -> QuickPlayAnswer:
        """Seat the player at the open table of that queue, or open one."""
        queue = f"{game}|{seats}|{msgspec.json.encode(options, order='sorted').decode()}"
        for _ in range(3):
            raw = cast(
                "list[Any]",
                await self._seat(
                    keys=QUEUE_KEYS,
                    args=[queue, player.id, seats, uuid.uuid4().hex[:16], int(self.wait * 1000)],
                ),
            )
            match_id, seat, last = _text(raw[0]), int(raw[1]), int(raw[2])
            try:
                # Every gateway sends the same create; the streams append it once.
                create = m.CreateMatch(game=game, seats=seats, options=options)
                await self.client.send(match_id, create, command_id=f"qp.create.{match_id}")
            except CommandRejected:
                await self._close(keys=QUEUE_KEYS, args=[queue, match_id])
                raise
            try:
                join = m.JoinMatch(player=player.id, seat=seat)
                await self.client.send(
                    match_id, join, command_id=f"qp.join.{match_id}.{player.id}.{seat}"
                )
            except CommandRejected as err:
                log.info("quickplay_seat_lost", match_id=match_id, seat=seat, code=err.code)
                if err.code == "seat_taken":
                    # Someone sat there by hand: that seat is theirs, the table still
                    # waits for others; the next try gets another seat at it.
                    await self._reseat(keys=QUEUE_KEYS, args=[match_id, player.id, "#", seat])
                    await self._start_if_full(match_id)
                else:  # the table went (started, or gone): a fresh one
                    await self._close(keys=QUEUE_KEYS, args=[queue, match_id])
                continue
            empty = await self._start_if_full(match_id)
            if last and empty:
                # Every seat was promised and one is empty: its player left without the
                # gateway hearing of it, or their join is still on its way. Whatever is
                # still empty after the wait, bots take.
                await self._fill_later(match_id, queue, seats, empty)
            return QuickPlayAnswer(match_id, seat)
        raise NoTable("No quick-play table could seat you; try again.")

    async def left(self, match_id: str, player: str) -> None:
        """The player left the table before it started: if it is still queued, their seat
        is free for the next to quick-play (and with nobody left, no bots fill it)."""
        await self._reseat(keys=QUEUE_KEYS, args=[match_id, player, "", -1])

    async def _fill_later(self, match_id: str, queue: str, seats: int, empty: list[int]) -> None:
        record = QueuedTable(q=queue, n=seats, p=["" if i in empty else "#" for i in range(seats)])
        wait = int(self.wait * 1000)
        if await self._later(keys=QUEUE_KEYS, args=[match_id, msgspec.json.encode(record), wait]):
            log.info("quickplay_seat_empty", match_id=match_id, seats=empty)

    async def _start_if_full(self, match_id: str) -> list[int]:
        """Start the table once every seat is taken; whoever sees it full first sends the
        start, and the same command id makes the others' the same command. The seats
        still empty, if it is still in the lobby."""
        live = await load_match(self.store, match_id)
        if live is None or live.state.status != "lobby":
            return []
        players = live.state.players
        empty = [i for i, p in enumerate(players) if p is None]
        if empty:
            return empty
        starter = players[0]
        assert starter is not None
        reply = await self.client.send(
            match_id, m.StartMatch(player=starter), command_id=f"qp.start.{match_id}", check=False
        )
        if reply.status == "rejected":
            log.info("quickplay_start_refused", match_id=match_id, code=reply.code)
        return []

    async def fill_due(self) -> float | None:
        """Claim one table whose wait is over and seat bots in its free seats; the
        seconds until the next deadline when none is due (None: no table waits)."""
        raw = cast("list[Any]", await self._fill(keys=QUEUE_KEYS))
        match_id = _text(raw[0])
        if not match_id:
            left = int(raw[1])
            return None if left < 0 else left / 1000
        record = _text(raw[1])
        if not record:
            return 0.0
        self.filled += 1
        task = asyncio.create_task(self._seat_bots(match_id))
        self._fills.add(task)
        task.add_done_callback(self._fills.discard)
        return 0.0

    async def _seat_bots(self, match_id: str) -> None:
        bound = log.bind(match_id=match_id)
        try:
            # The match, not the queue's record, says which seats are empty: a leave the
            # gateway never heard of is in the match.
            live = await load_match(self.store, match_id)
            if live is None or live.state.status != "lobby":
                return
            players = live.state.players
            if not any(p and not p.startswith(BOT_PREFIX) for p in players):
                bound.info("quickplay_table_left")  # nobody to play with
                return
            free = [i for i, p in enumerate(players) if p is None]
            for seat in free:
                try:
                    await self.bots.seat(match_id, seat)
                except CommandRejected as err:  # taken by hand meanwhile
                    bound.info("quickplay_bot_not_seated", seat=seat, code=err.code)
            await self._start_if_full(match_id)
            bound.info("quickplay_filled", bots=len(free))
        except asyncio.CancelledError:
            raise
        except Exception:
            bound.exception("quickplay_fill_failed")

    async def _sweep(self) -> None:
        while self._sweeping:  # a flag too: see Bots._keep_leases
            try:
                left = await self.fill_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("quickplay_sweep_failed")
                left = None
            if left == 0.0:
                continue
            await asyncio.sleep(self.sweep_every if left is None else min(left, self.sweep_every))
