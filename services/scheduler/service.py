"""The scheduler: sends `TimeExpired` when a seat's turn clock runs out.

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
from events.keys import Keys, reply_stream
from events.store import START, EventStore
from services.contracts.messages import COMMAND_FIELD, ENCODER, REPLY_DECODER, CommandMessage
from services.infra.passes import PassLoop

log = structlog.get_logger("tabletop.scheduler")
TYPES = ("match.clocks_set", "match.finished")
_CLOCKS = msgspec.json.Decoder(ClocksSet)
_SEATS = msgspec.json.Decoder(dict[str, int])


def wall_clock() -> int:
    import time

    return int(time.time() * 1000)


class Scheduler(PassLoop):
    role = "scheduler"
    failed_event = "scheduler_failed"
    idle_sleep = 0.2

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
    ) -> None:
        self.redis = redis
        self.store = store
        self.partitions = list(partitions)
        self.clock = clock or wall_clock
        self.batch_size = batch_size
        self.retry_ms = retry_ms
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
        for _, env in found:
            if env is None:
                continue
            if env.type == "match.clocks_set":
                clocks = _CLOCKS.decode(env.payload)
                latest[env.match_id] = {
                    str(s): clocks.at + clocks.remaining[s] for s in clocks.running
                }
            else:
                latest[env.match_id] = {}
        async with self.redis.pipeline(transaction=True) as tx:
            for match_id, seats in latest.items():
                if seats:
                    tx.hset(keys.clock_seats, match_id, ENCODER.encode(seats))
                    tx.zadd(keys.clock_due, {match_id: min(seats.values())})
                else:
                    tx.hdel(keys.clock_seats, match_id)
                    tx.zrem(keys.clock_due, match_id)
            tx.set(keys.clock_checkpoint, found[-1][0])
            await tx.execute()
        for match_id in latest:
            self._forget(match_id)
        return len(found)

    def _forget(self, match_id: str) -> None:
        for key in [k for k in self._sent if k[0] == match_id]:
            del self._sent[key]

    # --- firing -------------------------------------------------------------------------

    async def fire(self, p: int) -> int:
        """Send `TimeExpired` for every seat of partition p whose deadline has passed;
        the number sent."""
        keys = Keys(p)
        now = self.clock()
        due = cast("list[bytes]", await self.redis.zrangebyscore(keys.clock_due, "-inf", now))
        if not due:
            return 0
        ids = [d.decode() for d in due]
        found = cast("list[bytes | None]", await self.redis.hmget(keys.clock_seats, ids))
        sendings: list[bytes] = []
        for match_id, raw in zip(ids, found, strict=True):
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
            event = "time_expired_applied" if reply.status == "accepted" else "time_expired_refused"
            log.info(
                event,
                match_id=reply.match_id,
                command_id=reply.command_id,
                status=reply.status,
                code=reply.code or reply.original_status,
            )
        return len(found)

    async def pass_once(self) -> int:
        """Follow every partition's log to its end, then fire what is due; work done."""
        done = 0
        for p in self.partitions:
            while n := await self.follow(p):
                done += n
            done += await self.fire(p)
        done += await self.read_replies()
        return done
