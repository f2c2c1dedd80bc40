"""The command service's application layer: decode, decide, append, reply.

`CommandProcessor.handle_batch` takes one batch of raw stream entries of a partition
(`handle_batches` several partitions' at once).
Commands are taken in rounds -- the first command of every match in the batch, then the
second, ... -- so each round is decided against the live states and appended with one
pipeline. A version conflict (another worker appended first) reloads that match and
decides again, a bounded number of times.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol, cast

import msgspec
import structlog

from domain import match as m
from domain.kernel import Rejected
from events.envelope import GENESIS, seal
from events.matches import LiveMatch, fold_envelopes, from_start, load_match
from events.store import AppendFailed, AppendRequest, AppendResult, EventStore, Snapshot
from services.commands.intake import Refusal, command_digest, read_entry
from services.contracts.messages import (
    ENCODER,
    REPLY_DECODER,
    CommandMessage,
    Limits,
    Reply,
)
from services.contracts.replies import full_reply, recorded_accept
from services.infra import metrics
from services.infra.redisconn import GONE, reason

log = structlog.get_logger("tabletop.commands")
MAX_ATTEMPTS = 5


class Ack(msgspec.Struct, frozen=True):
    """Command stream entries to acknowledge for a consumer group, once answered."""

    stream: str
    group: str
    ids: Sequence[bytes]


class Batch(NamedTuple):
    """One read of a partition's command stream: its raw entries, where that
    partition's dead letters go, and what to acknowledge once they are answered."""

    entries: Sequence[dict[bytes, bytes]]
    dead_letter_stream: str
    ack: Ack | None = None


class ReplySink(Protocol):
    async def send(self, replies: Sequence[tuple[str, bytes]]) -> None: ...


class AckingSink(ReplySink, Protocol):
    """A sink that also acknowledges, after the replies, in the same trip."""

    async def send(
        self, replies: Sequence[tuple[str, bytes]], acks: Sequence[Ack] = ()
    ) -> None: ...


class MatchCache:
    """A bounded LRU of live matches."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, LiveMatch] = OrderedDict()

    def get(self, match_id: str) -> LiveMatch | None:
        live = self._items.get(match_id)
        if live is not None:
            self._items.move_to_end(match_id)
        return live

    def put(self, match_id: str, live: LiveMatch) -> None:
        self._items[match_id] = live
        self._items.move_to_end(match_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def drop(self, match_id: str) -> None:
        self._items.pop(match_id, None)

    def __contains__(self, match_id: str) -> bool:
        return match_id in self._items

    def __len__(self) -> int:
        return len(self._items)


class Plan(msgspec.Struct):
    """One decided command: what to append, what to answer, what the match becomes."""

    message: CommandMessage
    request: AppendRequest
    reply: Reply
    after: LiveMatch | None


class CommandProcessor:
    def __init__(
        self,
        store: EventStore,
        replies: ReplySink,
        *,
        cache_size: int = 10_000,
        snapshot_every: int = 100,
        dead_letters: ReplySink | None = None,
        trust_seeds: bool = False,
        limits: Limits | None = None,
        clock: Callable[[], int] | None = None,
    ) -> None:
        self.store = store
        # The time of each decision (unix ms): recorded as its envelopes' `recorded_at`
        # and handed to the rules, which run turn clocks from it (tests inject one).
        self.clock = clock or wall_clock
        # Players must not choose the deal: a seed in a start command is taken only where
        # the deployment trusts every writer of the command streams (tests, tooling).
        self.trust_seeds = trust_seeds
        self.replies = replies
        self.cache = MatchCache(cache_size)
        self.snapshot_every = snapshot_every
        self.dead_letters = dead_letters
        self.limits = limits or Limits()
        self.stats: dict[str, int] = defaultdict(int)
        self.tally = metrics.Tally()  # counted per command, handed over per batch

    async def handle_batch(
        self,
        entries: Sequence[dict[bytes, bytes]],
        dead_letter_stream: str,
        ack: Ack | None = None,
    ) -> list[int]:
        """Decide and append every command of one batch, in order per match, and reply.

        A batch comes from one partition; what nobody can be answered about goes to
        that partition's `dead_letter_stream` (`Keys(p).dead`). A command the store
        fails on (a script error, a key of the wrong type) fails alone: the others are
        decided, appended and answered, and the indices of the failed entries are
        returned, for the caller to leave pending (retried, then dead-lettered). A lost
        connection raises: then nothing of the batch is known.

        `ack` (its ids those of `entries`, in order): the entries that did not fail are
        acknowledged here, after their replies and dead letters, in the replies' round
        trip when the sink can (`AckingSink`): for the small batches of a light load
        that round trip was a quarter of the service's."""
        [failed] = await self.handle_batches([Batch(entries, dead_letter_stream, ack)])
        return failed

    async def handle_batches(self, batches: Sequence[Batch]) -> list[list[int]]:
        """Several partitions' batches as one: every command decided in the same rounds,
        appended in the same pipelines, answered and acknowledged in one round trip.
        What `handle_batch` does for one, with each batch's failed indices in turn.

        Why: under a light or middling load each partition's read brings a command or
        two, and a batch's round trips and bookkeeping cost about as much as its
        commands; the service hands over every batch that arrived meanwhile at once."""
        try:
            return await self._handle_batches(batches)
        finally:
            self.tally.flush()

    async def _handle_batches(self, batches: Sequence[Batch]) -> list[list[int]]:
        out: list[tuple[str, bytes]] = []
        dead: list[tuple[str, bytes]] = []
        rounds: list[list[tuple[int, CommandMessage]]] = []
        depth: dict[str, int] = defaultdict(int)
        received = time.time()
        starts: list[int] = []
        n = 0
        for batch in batches:
            starts.append(n)
            metrics.BATCH_SIZE.observe(len(batch.entries))
            refused: list[bytes] = []
            for i, fields in enumerate(batch.entries, start=n):
                message = read_entry(fields, self.limits)
                if isinstance(message, Refusal):
                    self._refuse(fields, message, out, refused)
                    continue
                r = depth[message.match_id]
                depth[message.match_id] += 1
                if r == len(rounds):
                    rounds.append([])
                rounds[r].append((i, message))
            dead += [(batch.dead_letter_stream, d) for d in refused]
            n += len(batch.entries)
        failed: list[int] = []
        for items in rounds:
            answered, lost = await self._run_round(items)
            out += answered
            failed += lost
        unanswered = set(failed)
        done: list[Ack] = []
        for batch, start in zip(batches, starts, strict=True):
            if batch.ack is not None:
                ids = [eid for i, eid in enumerate(batch.ack.ids, start) if i not in unanswered]
                if ids:
                    done.append(Ack(batch.ack.stream, batch.ack.group, ids))
        # Dead letters ride with the replies unless they go to a sink of their own, which
        # must have them before the entries are acknowledged.
        apart = bool(dead) and self.dead_letters is not None
        if dead and not apart:
            out += dead
        if out:
            if done and not apart:
                await self._acking().send(out, acks=done)
                done = []
            else:
                await self.replies.send(out)
            # From the sender's clock when it says (the client library does), else from
            # this batch's arrival: the reply is on its stream now.
            sent = time.time()
            for items in rounds:
                for i, msg in items:
                    if i not in unanswered:
                        metrics.REPLY_LATENCY.observe(max(0.0, sent - (msg.sent_at or received)))
        if apart and self.dead_letters is not None:
            await self.dead_letters.send(dead)
        if done:
            await self._acking().send([], acks=done)
        ordered = sorted(failed)
        ends = [*starts[1:], n]
        return [
            [i - start for i in ordered if start <= i < end]
            for start, end in zip(starts, ends, strict=True)
        ]

    def _acking(self) -> AckingSink:
        # Only the command service asks for acknowledgements, and its sink gives them.
        return cast(AckingSink, self.replies)

    def _refuse(
        self,
        fields: dict[bytes, bytes],
        refusal: Refusal,
        out: list[tuple[str, bytes]],
        dead: list[bytes],
    ) -> None:
        """Answer a refused entry when it says where; keep it for an operator otherwise."""
        self.stats["malformed"] += 1
        metrics.count(metrics.COMMANDS, "malformed")
        metrics.count(metrics.REJECTIONS, refusal.code)
        where = refusal.where
        if where is None:
            self.stats["dead_letters"] += 1
            size = sum(len(v) for v in fields.values())
            log.warning(
                "command_dead_lettered", code=refusal.code, reason=refusal.reason, size=size
            )
            dead.append(self._dead_letter(fields, refusal))
            return
        log.info(
            "command_refused",
            match_id=where.match_id,
            command_id=where.command_id,
            code=refusal.code,
            reason=refusal.reason,
        )
        reply = Reply(
            command_id=where.command_id,
            match_id=where.match_id,
            status="rejected",
            code=refusal.code,
            message=refusal.reason,
        )
        out.append((where.reply_to, ENCODER.encode(reply)))

    def _dead_letter(self, fields: dict[bytes, bytes], refusal: Refusal) -> bytes:
        """A command nobody can be answered about is kept for an operator, not dropped;
        past the size limit only its head is kept (a dead letter must not be the bomb)."""
        cap = self.limits.command_bytes
        kept = {
            k[:cap].decode(errors="replace"): v[:cap].decode(errors="replace")
            for k, v in fields.items()
        }
        return ENCODER.encode({"fields": kept, "error": refusal.reason, "code": refusal.code})

    async def _read_together(self, match_ids: list[str]) -> dict[str, LiveMatch | None]:
        """The matches of a round no cache holds, read in a few round trips for them
        all: a round of new matches, or the first after a restart, would otherwise
        read each in turn. One that fails here is read again alone, where it fails its
        own command only."""
        missing = [mid for mid in match_ids if mid not in self.cache]
        if len(missing) < 2:
            return {}
        try:
            starts = await self.store.load_starts(missing)
        except GONE:
            raise
        except Exception:  # each is read alone, as it comes
            return {}
        read: dict[str, LiveMatch | None] = {}
        for match_id, start in starts.items():
            try:
                read[match_id] = from_start(start)
            except Exception:
                continue
        return read

    async def _live(
        self, match_id: str, stale: bool = False, read: dict[str, LiveMatch | None] | None = None
    ) -> LiveMatch | None:
        """The match as it stands, from the cache, else from what the round read
        together (`read`), else from the store."""
        live = self.cache.get(match_id)
        self.tally.add(metrics.CACHE, "miss" if live is None else "hit")
        if live is None and read is not None and match_id in read:
            live = read.pop(match_id)
            if live is not None:
                self.cache.put(match_id, live)
            return live
        if live is not None and stale:
            # Another worker appended first: fold what it appended onto the cached match
            # (a few events) instead of reading the match back from its snapshot.
            # Anything else (no tail, a tail that does not chain on) means the cache is
            # not of this stream any more: read the match afresh.
            tail = await self.store.load(match_id, after_version=live.state.version)
            fits = bool(tail) and tail[0].prev == live.last_hash
            live = fold_envelopes(tail, live) if fits else None
        if live is None:
            live = await load_match(self.store, match_id)
        if live is not None:
            self.cache.put(match_id, live)
        return live

    async def _run_round(
        self, items: list[tuple[int, CommandMessage]]
    ) -> tuple[list[tuple[str, bytes]], list[int]]:
        """One command per match: decided, appended in one pipeline, answered. Returns
        the replies and the entry indices of the commands that failed."""
        out: list[tuple[str, bytes]] = []
        failed: list[int] = []
        snapshots: list[tuple[str, LiveMatch]] = []
        todo = items
        stale: set[str] = set()
        read = await self._read_together([msg.match_id for _, msg in items])
        for _attempt in range(MAX_ATTEMPTS):
            plans: list[tuple[int, Plan]] = []
            for index, msg in todo:
                try:
                    live = await self._live(msg.match_id, msg.match_id in stale, read)
                except GONE:
                    raise
                except Exception as err:  # this match cannot be read: this command fails
                    self._failed(msg, err)
                    failed.append(index)
                    continue
                plans.append((index, self.plan(msg, live)))
            try:
                outcomes: list[AppendResult | Exception] = list(
                    await self.store.append_batch([p.request for _, p in plans])
                )
            except AppendFailed as partial:
                outcomes = partial.outcomes
            retry: list[tuple[int, CommandMessage]] = []
            for (index, plan), result in zip(plans, outcomes, strict=True):
                msg = plan.message
                if isinstance(result, Exception):
                    self._failed(msg, result)
                    failed.append(index)
                    continue
                if result.status == "conflict":
                    self.stats["conflicts"] += 1
                    metrics.CONFLICTS.inc()
                    stale.add(msg.match_id)
                    retry.append((index, msg))
                    continue
                if result.status == "duplicate":
                    self.stats["duplicates"] += 1
                    metrics.count(metrics.COMMANDS, "duplicate")
                    try:
                        first = await self._first_reply(msg, result.reply)
                    except GONE:
                        raise
                    except Exception as err:  # its match cannot be read: answered later
                        self._failed(msg, err)
                        failed.append(index)
                        continue
                    out.append((msg.reply_to, as_duplicate(first)))
                    _log(msg).info("command_duplicate")
                    continue
                if result.status == "reused":
                    self.stats["reused"] += 1
                    metrics.count(metrics.COMMANDS, "reused")
                    metrics.count(metrics.REJECTIONS, "command_id_reused")
                    out.append((msg.reply_to, _reused(msg)))
                    _log(msg).info("command_refused", code="command_id_reused")
                    continue
                self.stats[plan.reply.status] += 1
                self.tally.add(metrics.COMMANDS, plan.reply.status)
                if plan.reply.status == "rejected":
                    metrics.count(metrics.REJECTIONS, plan.reply.code)
                if plan.reply.status == "accepted":
                    # Not bound: building a bound logger per command costs more than
                    # a debug line that is filtered out.
                    log.debug(
                        "command_accepted",
                        match_id=msg.match_id,
                        command_id=msg.command_id,
                        version=plan.reply.version,
                    )
                out.append((msg.reply_to, ENCODER.encode(plan.reply)))
                if plan.after is not None:
                    before = plan.after.state.version - len(plan.request.envelopes)
                    self.cache.put(msg.match_id, plan.after)
                    if (
                        plan.after.state.version // self.snapshot_every
                        > before // self.snapshot_every
                    ):
                        snapshots.append((msg.match_id, plan.after))
            todo = retry
            if not todo:
                break
        for _, msg in todo:
            _log(msg).info("command_refused", code="busy", attempts=MAX_ATTEMPTS)
            metrics.count(metrics.COMMANDS, "busy")
            metrics.count(metrics.REJECTIONS, "busy")
            reply = Reply(
                command_id=msg.command_id,
                match_id=msg.match_id,
                status="rejected",
                code="busy",
                message="The match changed under this command too often; send it again.",
            )
            out.append((msg.reply_to, ENCODER.encode(reply)))
        if snapshots:
            await self._save_snapshots(snapshots)
        return out, failed

    async def _save_snapshots(self, taken: list[tuple[str, LiveMatch]]) -> None:
        """The round's snapshots in one trip (before its replies go)."""
        snapshots = {
            match_id: Snapshot(
                version=live.state.version,
                state=m.codec(live.state.game).encode_state(live.state),
                last_hash=live.last_hash,
            )
            for match_id, live in taken
        }
        try:
            await self.store.save_snapshots(snapshots)
        except GONE:
            raise
        except Exception as err:  # a snapshot only shortens loads: the events are kept
            log.warning("snapshot_failed", matches=sorted(snapshots), error=reason(err))

    async def _first_reply(self, msg: CommandMessage, recorded: bytes) -> bytes:
        """What the command's first delivery was answered (its events read back)."""
        live = self.cache.get(msg.match_id)
        game = live.state.game if live is not None else None
        return await full_reply(self.store, msg.match_id, msg.command_id, recorded, game)

    def _failed(self, msg: CommandMessage, err: Exception) -> None:
        """A command the store failed on: not answered now, left pending for a retry
        (then a dead letter, answered as such). Its match is read afresh next time: a
        script that failed halfway may have written part of its decision."""
        self.stats["failed"] += 1
        metrics.count(metrics.COMMANDS, "failed")
        self.cache.drop(msg.match_id)
        _log(msg).error("command_failed", error=reason(err))

    def plan(self, msg: CommandMessage, live: LiveMatch | None) -> Plan:
        """Decide one command against the live match; never raises. Appends nothing:
        the benchmark prepares its commands with it, as the service decides them."""
        version = live.state.version if live is not None else 0
        command: Any = msg.command
        if isinstance(command, m.StartMatch):
            if command.seed is not None and not self.trust_seeds:
                _log(msg).info("command_rejected", code="seed_not_allowed")
                return self._rejection(
                    msg,
                    version,
                    "seed_not_allowed",
                    "Players cannot choose the deal: leave the seed out and the referee draws it.",
                )
            if command.seed is None:
                # Drawn here and recorded in the stored command, so an audit re-executes
                # exactly what was decided; 128 bits, so its commitment cannot be searched.
                command = m.StartMatch(player=command.player, seed=secrets.randbits(128))
        if isinstance(command, m.OfferRematch | m.AcceptRematch):
            # The referee names the rematch, from this match's id: whatever a player sent,
            # the agreed rematch is one match, the same after any retry.
            command = msgspec.structs.replace(command, new_match=m.rematch_id(msg.match_id))
        now = self.clock()
        try:
            events, state = m.decide_and_fold(live.state if live else None, command, now=now)
        except Rejected as rejected:
            _log(msg).info("command_rejected", code=rejected.code)
            return self._rejection(msg, version, rejected.code, rejected.message)
        except Exception as err:  # a bug in a game must not stop the partition
            _log(msg).exception("command_failed", error=repr(err))
            return self._rejection(
                msg, version, "internal_error", f"The referee could not rule: {err!r}."
            )
        codec = m.codec(state.game)
        payloads = [codec.encode(e) for e in events]
        envelopes = seal(
            match_id=msg.match_id,
            first_version=version + 1,
            prev=live.last_hash if live else GENESIS,
            items=[(m.event_tag(e), p) for e, p in zip(events, payloads, strict=True)],
            command_id=msg.command_id,
            recorded_at=now,
            command=ENCODER.encode(command),
        )
        seat = _seat(state, command)
        shown = []
        for event, payload in zip(events, payloads, strict=True):
            red = m.redact(state.game, event, seat)
            if red is not None:
                # Most events are shown as they are: reuse their encoding.
                shown.append(msgspec.Raw(payload if red is event else codec.encode(red)))
        reply = Reply(
            command_id=msg.command_id,
            match_id=msg.match_id,
            status="accepted",
            version=state.version,
            events=shown,
            sent_at=msg.sent_at,
        )
        request = AppendRequest(
            match_id=msg.match_id,
            expected_version=version,
            command_id=msg.command_id,
            # Recorded as its version range: a duplicate reads its events back.
            reply=recorded_accept(reply, len(envelopes), seat),
            envelopes=envelopes,
            digest=command_digest(msg),
        )
        return Plan(msg, request, reply, LiveMatch(state=state, last_hash=envelopes[-1].hash))

    def _rejection(self, msg: CommandMessage, version: int, code: str, text: str) -> Plan:
        reply = Reply(
            command_id=msg.command_id,
            match_id=msg.match_id,
            status="rejected",
            code=code,
            message=text,
            sent_at=msg.sent_at,
        )
        request = AppendRequest(
            match_id=msg.match_id,
            expected_version=version,
            command_id=msg.command_id,
            reply=ENCODER.encode(reply),
            digest=command_digest(msg),
        )
        return Plan(msg, request, reply, None)


def wall_clock() -> int:
    """The machine's time, unix milliseconds."""
    return int(time.time() * 1000)


def _log(msg: CommandMessage) -> Any:
    """A logger with the match id and the command id bound."""
    return log.bind(match_id=msg.match_id, command_id=msg.command_id)


def _seat(state: m.MatchState, command: Any) -> int | None:
    player = getattr(command, "player", None)
    if player is not None and player in state.players:
        return state.players.index(player)
    return None


def _reused(msg: CommandMessage) -> bytes:
    reply = Reply(
        command_id=msg.command_id,
        match_id=msg.match_id,
        status="rejected",
        code="command_id_reused",
        message=f"Command id {msg.command_id} was already used for another command; "
        "send this one with an id of its own.",
        sent_at=msg.sent_at,
    )
    return ENCODER.encode(reply)


def as_duplicate(original: bytes) -> bytes:
    first = REPLY_DECODER.decode(original)
    return ENCODER.encode(
        msgspec.structs.replace(first, status="duplicate", original_status=first.status)
    )
