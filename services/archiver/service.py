"""The archiver: keeps Redis to what live play needs.

Each pass, for every partition:

1. **Finished matches past the retention go to cold storage,** and so do tables closed
   before their match began. The finished and closed lobby sets
   (`tt:{p}:rm:lobby:finished:*`, `...:closed:*`, listed and unlisted, each scored by
   the time of that) name them, oldest first, from the archiver's cursor. Each one's
   whole record (match stream, recorded replies and digests) is put in the cold store
   and read back; then one script checks the stream is still the one archived, writes
   the tombstone (with the summary, so the lobby and `show` still list it) and deletes
   the match stream, replies, snapshot, summary, views and histories, and its table
   chat; its players' inboxes in that partition lose their notices older than the
   retention. A crash between the two steps archives it again.
2. **The partition log is trimmed** behind the slowest of the checkpoints that read it
   (the matches and public projections, the ratings, the clocks' scheduler), and never
   past the retention: what every reader has applied and is older than any match kept
   in Redis.
3. **The public stream is trimmed** to the retention as well: an integration further
   behind than that loses what it had not read (docs/operations.md says so).

And once a pass, over the whole deployment: **reply streams of clients that are gone**
(nothing added for `reply_idle_ms`) are deleted; a client still there gets its stream
back with its next reply, with later ids, so it misses nothing.

Command streams are trimmed by the command service itself (`trim.lua`) once every group
has acknowledged an entry. Readers find archived matches through `ArchivedStore`
(events/archive.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any, Literal, cast

import msgspec
import structlog
from redis.asyncio import Redis
from redis.typing import EncodableT

from events.archive import ArchivedMatch, ArchivedReply, ArchiveHeader, ColdStore, Tombstone
from events.keys import RATINGS, REPLY_PREFIX, UNLISTED, Keys
from events.store import START, EventStore, position
from services.infra import metrics
from services.infra.config import Settings
from services.infra.redisconn import GONE
from services.readside.schema import Summary

log = structlog.get_logger("tabletop.archiver")
ARCHIVE_LUA = (Path(__file__).parent / "archive.lua").read_text()
# The lobby sets of the matches over (finished, or closed before they began), listed
# and unlisted: what the archiver takes once past the retention.
ENDED_STATUSES = ("finished", "closed")
ENDED = [(status, scope) for status in ENDED_STATUSES for scope in ("*", UNLISTED)]
_ENC = msgspec.json.Encoder()
_SUMMARY = msgspec.json.Decoder(Summary)
Outcome = Literal["archived", "gone", "later"]


def now_ms() -> int:
    return int(time.time() * 1000)


class Archiver:
    """Built by the composition root (`services.compose.archiver`) on its own client."""

    def __init__(
        self,
        settings: Settings,
        redis: Redis,
        store: EventStore,
        cold: ColdStore,
        *,
        clock: Any = now_ms,
        batch: int = 200,
    ) -> None:
        self.settings = settings
        self.redis = redis
        # The Redis store alone: what is read here must be what Redis holds.
        self.store = store
        self.cold = cold
        self.clock = clock
        self.batch = batch
        self._archive = redis.register_script(ARCHIVE_LUA)
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self.started = False

    # --- one pass -----------------------------------------------------------------

    async def pass_once(self) -> dict[str, int]:
        """Archive, trim and drop what is due now; counts of what was done."""
        done = {"archived": 0, "log_trimmed": 0, "public_trimmed": 0, "replies_dropped": 0}
        for p in range(self.settings.partitions):
            done["archived"] += await self.archive_partition(p)
            done["log_trimmed"] += await self.trim_log(p)
            done["public_trimmed"] += await self.trim_public(p)
            await self.measure_backlog(p)
        done["replies_dropped"] = await self.drop_idle_replies()
        return done

    def cutoff(self) -> int:
        """Matches finished before this (ms) are due for the archive."""
        return int(self.clock()) - self.settings.archive_after_ms

    async def due(self, p: int) -> list[tuple[str, float]]:
        """Finished matches and closed tables past the retention, oldest first, from the
        cursor on."""
        k = Keys(p)
        raw: Any = await self.redis.get(k.archive_cursor)
        start = float(raw) if raw else float("-inf")
        found: list[tuple[str, float]] = []
        # The listed tables and the unlisted, finished or closed, each set by the time of
        # that: merged, the oldest first.
        for status, scope in ENDED:
            rows: Any = await self.redis.zrangebyscore(
                k.lobby(status, scope), start, self.cutoff(), start=0, num=self.batch,
                withscores=True,
            )  # fmt: skip
            found += [(mid.decode(), float(score)) for mid, score in rows]
        return sorted(found, key=lambda row: (row[1], row[0]))[: self.batch]

    async def archive_partition(self, p: int) -> int:
        k = Keys(p)
        archived = 0
        while True:
            due = await self.due(p)
            if not due:
                return archived
            stones: Any = await self.redis.hmget(k.archived, [mid for mid, _ in due])
            moved = 0
            for (match_id, score), stone in zip(due, stones, strict=True):
                if stone is None:
                    try:
                        outcome = await self.archive_match(p, match_id)
                    except GONE:
                        raise
                    except Exception as err:  # the next pass tries it again
                        metrics.ARCHIVE_FAILURES.inc()
                        log.error("archive_failed", match_id=match_id, error=repr(err))
                        return archived
                    if outcome == "later":
                        # Not projected to its end, or changed meanwhile: the cursor stays
                        # before it, and the next pass starts there.
                        return archived
                    if outcome == "archived":
                        archived += 1
                        moved += 1
                await self.redis.set(k.archive_cursor, repr(score))
            if len(due) < self.batch or not moved and due[0][1] == due[-1][1]:
                # A batch all at one score, all archived already: ties are rare; stop
                # rather than read the same batch again.
                return archived

    async def archive_match(self, p: int, match_id: str) -> Outcome:
        """Put one finished match in the cold store and take it out of Redis: `archived`;
        `gone` when Redis holds no such match; `later` when it is not ready yet."""
        k = Keys(p)
        envelopes = await self.store.load(match_id)
        if not envelopes:
            return "gone"
        raw_summary: Any = await self.redis.get(k.summary(match_id))
        summary = _SUMMARY.decode(raw_summary) if raw_summary else None
        if (
            summary is None
            or summary.status not in ENDED_STATUSES
            or summary.version != len(envelopes)
        ):
            return "later"  # not projected to its end yet: a later pass takes it
        found = cast("dict[bytes, bytes]", await self.redis.hgetall(k.replies(match_id)))
        digests = {c[1:]: d.decode() for c, d in found.items() if c.startswith(b"#")}
        replies = [
            ArchivedReply(command_id=c.decode(), reply=msgspec.Raw(r), digest=digests.get(c, ""))
            for c, r in sorted(found.items())
            if not c.startswith(b"#")
        ]
        at = int(self.clock())
        last = envelopes[-1].hash
        record = ArchivedMatch(
            header=ArchiveHeader(
                match_id=match_id,
                partition=p,
                version=len(envelopes),
                last_hash=last,
                archived_at=at,
            ),
            envelopes=envelopes,
            replies=replies,
        )
        await self.cold.put(record)
        again = await self.cold.get(match_id, p)
        if (
            again is None
            or len(again.envelopes) != len(envelopes)
            or again.header.last_hash != last
        ):
            raise RuntimeError(f"the cold store did not give back match {match_id} as put")
        stone = Tombstone(
            version=len(envelopes),
            last_hash=last,
            archived_at=at,
            where=self.cold.kind,
            summary=msgspec.Raw(raw_summary),
        )
        # Histories are no longer projected; a match projected before still has them.
        readers = [k.history(match_id, "spectator")]
        readers += [k.history(match_id, str(seat)) for seat in range(summary.seats)]
        inboxes = [k.inbox(p_id) for p_id in dict.fromkeys(summary.players) if p_id]
        keys = [
            k.match(match_id),
            k.replies(match_id),
            k.snapshot(match_id),
            k.summary(match_id),
            k.views(match_id),
            k.archived,
            k.chat_recent,
            *readers,
            *inboxes,
        ]
        old_before = at - self.settings.archive_after_ms  # notices older leave the inboxes
        args: list[EncodableT] = [match_id, len(envelopes), _ENC.encode(stone)]
        ok = await self._archive(keys=keys, args=[*args, len(inboxes), old_before])
        if int(ok) == 1:
            metrics.ARCHIVED.inc()
            log.info("match_archived", match_id=match_id, events=len(envelopes), where=stone.where)
            return "archived"
        return "later"

    async def checkpoints(self, p: int) -> list[str]:
        k = Keys(p)
        raw: Any = await self.redis.mget(
            [k.rm_checkpoint, k.public_checkpoint, RATINGS.checkpoint(p)]
        )
        return [r.decode() if r else START for r in raw]

    async def trim_log(self, p: int) -> int:
        """Trim the partition log behind every projector, the clocks' scheduler (once one
        has read the partition) and the retention."""
        marks = await self.checkpoints(p)
        if START in marks:
            return 0  # a projection has not started on it: it needs the whole log
        scheduled: Any = await self.redis.get(Keys(p).clock_checkpoint)
        if scheduled:
            marks.append(scheduled.decode())
        slowest = min(marks, key=lambda m: position(m.encode()))
        bound = min(position(slowest.encode()), (self.cutoff(), 0))
        if bound[0] <= 0:
            return 0
        removed = int(
            await self.redis.xtrim(Keys(p).log, minid=f"{bound[0]}-{bound[1]}", approximate=False)
        )
        if removed:
            metrics.TRIMMED.labels("log").inc(removed)
            log.debug("log_trimmed", partition=p, count=removed)
        return removed

    async def trim_public(self, p: int) -> int:
        """Trim the public stream to the retention: integrations follow it in consumer
        groups of their own, which nothing here can see, so time is the bound."""
        bound = self.cutoff()
        if bound <= 0:
            return 0
        removed = int(await self.redis.xtrim(Keys(p).public, minid=f"{bound}-0", approximate=False))
        if removed:
            metrics.TRIMMED.labels("public").inc(removed)
        return removed

    async def measure_backlog(self, p: int) -> int:
        k = Keys(p)
        raw: Any = await self.redis.get(k.archive_cursor)
        start = f"({float(raw)!r}" if raw else "-inf"
        count = 0
        for status, scope in ENDED:
            count += int(await self.redis.zcount(k.lobby(status, scope), start, self.cutoff()))
        metrics.ARCHIVE_BACKLOG.labels(str(p)).set(count)
        return count

    async def drop_idle_replies(self) -> int:
        """Delete reply streams whose newest entry is older than `reply_idle_ms`."""
        idle_before = int(self.clock()) - self.settings.reply_idle_ms
        dropped = 0
        async for key in self.redis.scan_iter(match=f"{REPLY_PREFIX}*", count=1000, _type="stream"):
            newest: Any = await self.redis.xrevrange(key, count=1)
            if newest and position(newest[0][0])[0] >= idle_before:
                continue
            dropped += int(await self.redis.delete(key))
        if dropped:
            metrics.REPLY_STREAMS_DROPPED.inc(dropped)
            log.info("reply_streams_dropped", count=dropped)
        return dropped

    # --- the loop -------------------------------------------------------------------

    async def run_forever(self) -> None:
        while not self._stopping.is_set():
            try:
                await self.pass_once()
            except GONE as err:  # Redis restarting: the next pass goes on
                log.warning("archiver_reconnecting", error=repr(err))
            except Exception as err:
                log.exception("archive_pass_failed", error=repr(err))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._stopping.wait(), timeout=self.settings.archive_every_ms / 1000
                )

    def start(self) -> None:
        self._stopping.clear()
        self._task = asyncio.create_task(self.run_forever())
        self.started = True
        log.info("archiver_started", where=self.cold.kind, after_ms=self.settings.archive_after_ms)

    async def stop(self) -> None:
        """Stop between passes (a pass is never cancelled inside a redis-py call)."""
        self._stopping.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, timeout=30)
            except TimeoutError:
                log.warning("archiver_stop_timeout")
            self._task = None
        self.started = False
        await self.cold.close()
        await self.redis.aclose()
