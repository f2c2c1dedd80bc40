"""The scheduler: sends `TimeExpired` when a seat's turn clock runs out, and closes a
table that has waited too long for its players.

One scheduler serves a set of partitions (`tabletop serve --scheduler-partitions`). Each
pass, for each of them:

1. **Follow the log.** From its checkpoint, it reads the partition log's
   `match.clocks_set` and `match.finished` events and keeps, in Redis, every clocked
   match's running seats with their deadlines (`tt:{p}:clock:seats`) and the matches
   by their earliest deadline (`tt:{p}:clock:due`), written with the checkpoint in one
   MULTI. The deadlines are derived from the log alone, so a restart goes on from the
   checkpoint and misses none; a batch applied twice writes the same values.
2. **Fire what is due.** Each due seat gets a `TimeExpired(seat, deadline)` on the
   partition's command stream. The rules refuse one that is early or whose deadline the
   clock has moved on from, so a second sending (after a restart, or a retry while the
   first is on its way) changes nothing; the command id names the seat and deadline, so
   a resend is even answered as a duplicate. A seat still due `retry_ms` after a
   sending (its command refused as early by a command service whose clock is behind)
   is sent again, under a new id.

3. **Warn who is running low.** A seat whose clock started with at least `LOW_FROM_MS`
   is told "time running low" (a notice, `post_notice`) once a fifth of that time is
   left: `tt:{p}:clock:warn` holds each match's warnings to come, written with the
   deadlines. A deadline the log carries over unchanged keeps its warning (or its
   having been given), and the notice's id names the version that set the deadline,
   so neither a restart nor a second scheduler warns twice.

4. **Close idle tables.** A table still waiting for players with nothing happening at
   it for `idle_ms` (`TABLETOP_TABLE_IDLE_S`, a day) gets a `CloseTable` naming the
   version it was found idle at: `tt:{p}:clock:idle` holds the waiting tables by when
   they will be idle, `tt:{p}:clock:idle:version` their versions, both written from the
   log with the deadlines. The rules refuse the close if anything happened at the table
   since (a player sat down as it was sent), so it is sent once and forgotten; the
   command id names the version, so a second sending is answered as a duplicate.

The time is the scheduler's `clock` (tests inject one); the rules judge a `TimeExpired`
by the command service's, which is recorded with the decision.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import msgspec
import structlog
from redis.asyncio import Redis

from domain import match as m
from domain.clock import ClocksSet
from domain.kernel import get_game
from events.keys import Keys, reply_stream
from events.matches import load_match
from events.store import START, EventStore
from services.contracts.messages import COMMAND_FIELD, ENCODER, REPLY_DECODER, CommandMessage
from services.infra import metrics
from services.infra.passes import PassLoop
from services.readside.notices import BOT_PREFIX, notice_id, post_notice
from services.readside.schema import Notice

log = structlog.get_logger("tabletop.scheduler")
# The events that set or end the clocks, and those that open a table, change who sits at
# it (the table is not idle) or end its wait.
CLOCK_TYPES = ("match.clocks_set", "match.finished")
WAITING = ("match.created", "match.player_joined", "match.player_left")
# (A start is seen when a clocked match's ends in its clocks; otherwise, at the due time.)
DONE_WAITING = (
    "match.started",
    "match.clocks_set",
    "match.forked",
    "match.closed",
    "match.finished",
)
TYPES = tuple(sorted({*CLOCK_TYPES, *WAITING, *DONE_WAITING}))
_CLOCKS = msgspec.json.Decoder(ClocksSet)
_SEATS = msgspec.json.Decoder(dict[str, int])
_WARNINGS = msgspec.json.Decoder(dict[str, tuple[int, int, int]])  # seat: warn, deadline, version
LOW_FROM_MS = 10_000  # a clock shorter than this when it starts gets no warning
LOW_PART = 5  # warned when a fifth of the time the clock started with is left


def time_left(ms: int) -> str:
    """A player's time left, as a person says it ("2 h 5 min", "45 s")."""
    seconds = max(0, ms) // 1000
    if seconds >= 86_400:
        return f"{seconds // 86_400} d {seconds % 86_400 // 3600} h"
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60} min"
    if seconds >= 60:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds} s"


def wall_clock() -> int:
    import time

    return int(time.time() * 1000)


class Scheduler(PassLoop):
    role = "scheduler"
    failed_event = "scheduler_failed"
    idle_sleep = 0.2
    # Each pass reads every log to its end, and a deadline is seconds away: waiting a
    # tenth of a second between passes under load costs no expiry its moment.
    linger = 0.1

    """Built by the composition root (`services.compose.scheduler`)."""

    def __init__(
        self,
        redis: Redis,
        store: EventStore,
        partitions: Sequence[int],
        *,
        clock: Callable[[], int] | None = None,
        batch_size: int = 500,
        retry_ms: int = 2000,
        name: str = "scheduler",
        idle_ms: int = 24 * 3600 * 1000,
    ) -> None:
        self.redis = redis
        self.store = store
        self.partitions = list(partitions)
        self.clock = clock or wall_clock
        self.batch_size = batch_size
        self.retry_ms = retry_ms
        self.idle_ms = idle_ms  # 0: tables wait for ever
        self.reply_to = reply_stream(name)
        # (match, seat, deadline) -> (sendings so far, when last sent): this process's
        # memory of what it sent, so a pass does not send an expiry again at once.
        self._sent: dict[tuple[str, int, int], tuple[int, int]] = {}
        self._replies_seen = "0-0"

    # --- following the log --------------------------------------------------------------

    async def follow(self, p: int) -> int:
        """One batch of partition p's log applied to its deadlines; the entries read."""
        keys = Keys(p)
        raw: Any = await self.redis.get(keys.clock_checkpoint)
        at = raw.decode() if raw else START
        found = (await self.store.read_logs({p: at}, self.batch_size, TYPES))[p]
        if not found:
            return 0
        latest: dict[str, dict[str, int]] = {}  # match -> seat -> deadline; {} = none
        fresh: dict[str, dict[str, tuple[int, int, int]]] = {}  # match -> seat -> warning
        waiting: dict[str, tuple[int, int] | None] = {}  # match -> version, since; None: no
        for _, env in found:
            if env is None:
                continue
            if env.type in WAITING:
                waiting[env.match_id] = (env.version, env.recorded_at)
                continue
            if env.type in DONE_WAITING:
                waiting[env.match_id] = None
            if env.type not in CLOCK_TYPES:
                continue
            if env.type == "match.clocks_set":
                clocks = _CLOCKS.decode(env.payload)
                latest[env.match_id] = {
                    str(s): clocks.at + clocks.remaining[s] for s in clocks.running
                }
                fresh[env.match_id] = {
                    str(s): (
                        clocks.at + clocks.remaining[s] - clocks.remaining[s] // LOW_PART,
                        clocks.at + clocks.remaining[s],
                        env.version,
                    )
                    for s in clocks.running
                    if clocks.remaining[s] >= LOW_FROM_MS
                }
            else:
                latest[env.match_id] = {}
        warnings = await self._carry_warnings(keys, latest, fresh)
        async with self.redis.pipeline(transaction=True) as tx:
            for match_id, seats in latest.items():
                if seats:
                    tx.hset(keys.clock_seats, match_id, ENCODER.encode(seats))
                    tx.zadd(keys.clock_due, {match_id: min(seats.values())})
                else:
                    tx.hdel(keys.clock_seats, match_id)
                    tx.zrem(keys.clock_due, match_id)
                _write_warnings(tx, keys, match_id, warnings[match_id])
            for match_id, wait in waiting.items():
                if wait is not None and self.idle_ms:
                    version, since = wait
                    tx.zadd(keys.idle_due, {match_id: since + self.idle_ms})
                    tx.hset(keys.idle_version, match_id, version)
                else:
                    tx.zrem(keys.idle_due, match_id)
                    tx.hdel(keys.idle_version, match_id)
            tx.set(keys.clock_checkpoint, found[-1][0])
            await tx.execute()
        for match_id in latest:
            self._forget(match_id)
        return len(found)

    async def _carry_warnings(
        self,
        keys: Keys,
        latest: dict[str, dict[str, int]],
        fresh: dict[str, dict[str, tuple[int, int, int]]],
    ) -> dict[str, dict[str, tuple[int, int, int]]]:
        """Each match's warnings to come: a seat whose deadline the batch left as it was
        keeps the warning it had (none, once given); a new deadline brings a new one."""
        ids = list(latest)
        if not ids:
            return {}
        old_seats = cast("list[bytes | None]", await self.redis.hmget(keys.clock_seats, ids))
        old_warn = cast("list[bytes | None]", await self.redis.hmget(keys.clock_warn, ids))
        out: dict[str, dict[str, tuple[int, int, int]]] = {}
        for match_id, seats_raw, warn_raw in zip(ids, old_seats, old_warn, strict=True):
            before = _SEATS.decode(seats_raw) if seats_raw else {}
            pending = _WARNINGS.decode(warn_raw) if warn_raw else {}
            new = fresh.get(match_id, {})
            out[match_id] = {}
            for seat, deadline in latest[match_id].items():
                if before.get(seat) == deadline:
                    if seat in pending:
                        out[match_id][seat] = pending[seat]
                elif seat in new:
                    out[match_id][seat] = new[seat]
        return out

    def _forget(self, match_id: str) -> None:
        for key in [k for k in self._sent if k[0] == match_id]:
            del self._sent[key]

    # --- firing -------------------------------------------------------------------------

    async def fire(self, p: int) -> int:
        """Send `TimeExpired` for every seat of partition p whose deadline has passed;
        the number sent."""
        keys = Keys(p)
        now = self.clock()
        sendings: list[bytes] = []
        for match_id, raw in await self._due(keys.clock_due, keys.clock_seats, now):
            if raw is None:
                continue
            for seat_key, deadline in sorted(_SEATS.decode(raw).items()):
                if deadline > now:
                    continue
                seat = int(seat_key)
                sent, last = self._sent.get((match_id, seat, deadline), (0, 0))
                if sent and now - last < self.retry_ms:
                    continue
                self._sent[(match_id, seat, deadline)] = (sent + 1, now)
                suffix = f":{sent}" if sent else ""
                message = CommandMessage(
                    command_id=f"clock:{seat}:{deadline}{suffix}",
                    match_id=match_id,
                    reply_to=self.reply_to,
                    command=m.TimeExpired(seat=seat, deadline=deadline),
                )
                sendings.append(ENCODER.encode(message))
                metrics.EXPIRIES.labels("again" if sent else "first").inc()
                if not sent:
                    metrics.EXPIRY_LATENESS.observe((now - deadline) / 1000)
                log.info(
                    "time_expired_sent",
                    match_id=match_id,
                    command_id=message.command_id,
                    seat=seat,
                    deadline=deadline,
                    late_ms=now - deadline,
                )
        if sendings:
            async with self.redis.pipeline(transaction=False) as pipe:
                for body in sendings:
                    pipe.xadd(keys.commands, {COMMAND_FIELD: body})
                await pipe.execute()
        return len(sendings)

    async def close_idle(self, p: int) -> int:
        """Send `CloseTable` for every table of partition p idle past `idle_ms`, and
        forget it (the rules refuse a close the table has moved on from); the number
        sent."""
        keys = Keys(p)
        due = await self._due(keys.idle_due, keys.idle_version, self.clock())
        if not due:
            return 0
        # A table still at the version it was idle at (its stream that long) is sent the
        # close; one that has moved on since (its start is not in the log the scheduler
        # reads: it ends in the game's events) is only forgotten.
        async with self.redis.pipeline(transaction=False) as pipe:
            for match_id, _ in due:
                pipe.xlen(keys.match(match_id))
            lengths: list[int] = await pipe.execute()
        sent = 0
        async with self.redis.pipeline(transaction=True) as tx:
            for (match_id, raw), length in zip(due, lengths, strict=True):
                if raw is not None and int(raw) == length:
                    sent += 1
                    version = int(raw)
                    message = CommandMessage(
                        command_id=f"idle:{version}",
                        match_id=match_id,
                        reply_to=self.reply_to,
                        command=m.CloseTable(version=version),
                    )
                    tx.xadd(keys.commands, {COMMAND_FIELD: ENCODER.encode(message)})
                    log.info("table_close_sent", match_id=match_id, version=version)
                tx.zrem(keys.idle_due, match_id)
                tx.hdel(keys.idle_version, match_id)
            await tx.execute()
        metrics.TABLES_CLOSED.inc(sent)
        return sent

    async def adopt(self, p: int, waiting: Sequence[tuple[str, int, int]]) -> int:
        """Learn tables of partition p still waiting for players that the log never
        showed this scheduler (opened before it closed idle tables, its checkpoint past
        their entries): each (match id, version, last change in ms) is closed once idle
        like any other. A table it knows keeps its own entry; the number adopted."""
        if not self.idle_ms or not waiting:
            return 0
        keys = Keys(p)
        async with self.redis.pipeline(transaction=True) as tx:
            for match_id, version, since in waiting:
                tx.zadd(keys.idle_due, {match_id: since + self.idle_ms}, nx=True)
                tx.hsetnx(keys.idle_version, match_id, version)
            added: list[int] = await tx.execute()
        return sum(1 for new in added[::2] if new)

    async def warn(self, p: int) -> int:
        """Post "time running low" to every seat of partition p whose warning is due and
        whose deadline is still ahead; the number posted."""
        keys = Keys(p)
        now = self.clock()
        due = await self._due(keys.clock_warn_due, keys.clock_warn, now)
        if not due:
            return 0
        posted = 0
        left: dict[str, dict[str, tuple[int, int, int]]] = {}
        for match_id, raw in due:
            pending = _WARNINGS.decode(raw) if raw else {}  # none: its due entry goes
            ripe = {s: w for s, w in pending.items() if w[0] <= now}
            if ripe:
                posted += await self._post_warnings(match_id, ripe, now)
            left[match_id] = {s: w for s, w in pending.items() if s not in ripe}
        # Posting is idempotent by notice id: a pass cut short here posts nothing twice.
        async with self.redis.pipeline(transaction=True) as tx:
            for match_id, warnings in left.items():
                _write_warnings(tx, keys, match_id, warnings)
            await tx.execute()
        return posted

    async def _due(self, by_time: str, entries: str, now: int) -> list[tuple[str, bytes | None]]:
        """The matches `by_time` holds as due by `now`, each with its entry in `entries`
        (None: gone)."""
        due = cast("list[bytes]", await self.redis.zrangebyscore(by_time, "-inf", now))
        if not due:
            return []
        ids = [d.decode() for d in due]
        found = cast("list[bytes | None]", await self.redis.hmget(entries, ids))
        return list(zip(ids, found, strict=True))

    async def _post_warnings(
        self, match_id: str, ripe: dict[str, tuple[int, int, int]], now: int
    ) -> int:
        live = await load_match(self.store, match_id)
        if live is None or live.state.status != "playing":
            return 0
        state, posted = live.state, 0
        title = get_game(state.game).title
        for seat_key, (_, deadline, version) in sorted(ripe.items()):
            player = state.players[int(seat_key)]
            if deadline <= now or not player or player.startswith(BOT_PREFIX):
                continue
            notice = Notice(
                id=notice_id(match_id, version, "time_running_low", player),
                kind="time_running_low",
                player=player,
                match_id=match_id,
                game=state.game,
                version=version,
                at=now,
                text=f"Your time at {title} is running low: {time_left(deadline - now)} left.",
                seconds_left=(deadline - now) // 1000,
            )
            if await post_notice(self.redis, self.store.partitions, notice):
                posted += 1
                metrics.TIME_LOW.inc()
                log.info("time_low_posted", match_id=match_id, seat=int(seat_key))
        return posted

    async def read_replies(self) -> int:
        """Log what the command service answered (a refusal says why an expiry did not
        take effect); the replies read."""
        found = cast(
            "list[tuple[bytes, dict[bytes, bytes]]]",
            await self.redis.xrange(self.reply_to, min=f"({self._replies_seen}", max="+"),
        )
        for entry_id, fields in found:
            self._replies_seen = entry_id.decode()
            reply = REPLY_DECODER.decode(fields[b"r"])
            what = "table_close" if reply.command_id.startswith("idle:") else "time_expired"
            event = f"{what}_applied" if reply.status == "accepted" else f"{what}_refused"
            log.info(
                event,
                match_id=reply.match_id,
                command_id=reply.command_id,
                status=reply.status,
                code=reply.code or reply.original_status,
            )
        return len(found)

    async def pass_once(self) -> int:
        """Follow every partition's log to its end, then fire what is due; work done.

        One round trip first finds the partitions with news or with something due:
        a pass that finds neither costs nothing more. (Asked of each partition in turn,
        an idle pass cost four round trips a partition, five times a second.)"""
        done = 0
        now = self.clock()
        async with self.redis.pipeline(transaction=False) as pipe:
            for p in self.partitions:
                keys = Keys(p)
                pipe.xrevrange(keys.log, count=1)
                pipe.get(keys.clock_checkpoint)
                # (ZRANGEBYSCORE, as `fire` sends: the scheduler's user may send no other.)
                pipe.zrangebyscore(keys.clock_due, "-inf", now, start=0, num=1)
                pipe.zrangebyscore(keys.clock_warn_due, "-inf", now, start=0, num=1)
                pipe.zrangebyscore(keys.idle_due, "-inf", now, start=0, num=1)
            found: list[Any] = await pipe.execute()
        for i, p in enumerate(self.partitions):
            head, checkpoint, due, warn_due, idle_due = found[5 * i : 5 * i + 5]
            followed = 0
            if head and head[0][0] != checkpoint:
                while n := await self.follow(p):
                    followed += n
            done += followed
            # What the log just brought may be due already (a clock set to nothing).
            if due or followed:
                done += await self.fire(p)
            if warn_due or followed:
                done += await self.warn(p)
            if idle_due or followed:
                done += await self.close_idle(p)
        done += await self.read_replies()
        return done


def _write_warnings(
    tx: Any, keys: Keys, match_id: str, warnings: dict[str, tuple[int, int, int]]
) -> None:
    """Queue the match's warnings to come (none: its entries go) on the transaction."""
    if warnings:
        tx.hset(keys.clock_warn, match_id, ENCODER.encode(warnings))
        tx.zadd(keys.clock_warn_due, {match_id: min(w[0] for w in warnings.values())})
    else:
        tx.hdel(keys.clock_warn, match_id)
        tx.zrem(keys.clock_warn_due, match_id)
