"""The Redis event store: one Lua call per partition of a batch, each decision atomic.

Layout per match (the names are in events/keys.py; all keys of a partition share the
hash tag `{p}`): `tt:{p}:match:<id>` holds the events with entry ids `0-<version>`
(XRANGE by version), each in one field `e` (a MessagePack array, `Stored`);
`tt:{p}:log` one entry per command in commit order for projectors, naming its events
(match, first version, count, last type), which they read from the match stream;
`tt:{p}:cmds:<id>` each command id's reply and, under `#<command id>`, the digest of its
body (idempotency), `tt:{p}:snap:<id>` the latest snapshot. A match's own keys leave
Redis only when the archiver has put the match in cold storage (events/archive.py),
leaving a tombstone in `tt:{p}:archived`, which the script reads so that an archived
match takes no event.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import msgspec
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoScriptError, ResponseError

from events.envelope import GENESIS, Envelope
from events.keys import DEFAULT_PARTITIONS, Keys, partition_of
from events.store import (
    START,
    AppendFailed,
    AppendRequest,
    AppendResult,
    LogEntry,
    Skipped,
    Snapshot,
    Start,
    check_request,
)

APPEND_LUA = (Path(__file__).parent / "append.lua").read_text()
READ_COUNT = 2000  # match-stream entries per XRANGE


class Stored(msgspec.Struct, array_like=True, frozen=True):
    """An event as its match-stream entry holds it, in one field `e`: one argument of
    the append script and one bulk string a reader parses, where seven fields were."""

    type: str
    payload: bytes  # the event's JSON
    command_id: str
    recorded_at: int
    schema: int
    hash: str
    command: bytes  # the command's JSON on a command's first event, `null` after


_STORED_ENCODER = msgspec.msgpack.Encoder()
_STORED = msgspec.msgpack.Decoder(Stored)


def stored(e: Envelope) -> bytes:
    """An envelope as its entry's field `e` (its match and version are the entry's)."""
    return _STORED_ENCODER.encode(
        (e.type, bytes(e.payload), e.command_id, e.recorded_at, e.schema, e.hash,
         bytes(e.command))
    )  # fmt: skip


def _unstored(match_id: str, version: int, blob: bytes, prev: str) -> Envelope:
    s = _STORED.decode(blob)
    return Envelope(
        match_id=match_id,
        version=version,
        type=s.type,
        payload=msgspec.Raw(s.payload),
        command_id=s.command_id,
        recorded_at=s.recorded_at,
        schema=s.schema,
        prev=prev,
        hash=s.hash,
        command=msgspec.Raw(s.command),
    )


def entry_to_envelope(
    match_id: str, entry_id: bytes | str, fields: Mapping[bytes, bytes], prev: str = ""
) -> Envelope:
    """Rebuild an envelope from a match-stream entry of any layout, or from a log entry
    written when the log carried each event (without the hash chain and the command).
    A match stream's entry links to the hash of the one before it, `prev`; entries
    written before that was left out of them carry it (`pv`)."""
    get = fields.get
    v = get(b"v")
    if v is not None:
        version = int(v)
    elif isinstance(entry_id, bytes):
        version = int(entry_id.rpartition(b"-")[2])
    else:
        version = int(entry_id.rpartition("-")[2])
    blob = get(b"e")
    if blob is not None:
        return _unstored(match_id, version, blob, prev)
    # The layouts before one field an event: a field each.
    pv = get(b"pv")
    return Envelope(
        match_id=match_id,
        version=version,
        type=fields[b"t"].decode(),
        payload=msgspec.Raw(fields[b"d"]),
        command_id=fields[b"c"].decode(),
        recorded_at=int(fields[b"at"]),
        schema=int(fields[b"s"]),
        prev=pv.decode() if pv is not None else prev,
        hash=get(b"h", b"").decode(),
        command=msgspec.Raw(get(b"x", b"null")),
    )


Fields = dict[bytes, bytes] | list[bytes]


# A client's response callbacks without XRANGE's, made once per client: copying the
# client's (171 callbacks in a case-insensitive dict) took 90 µs, once per read.
# Keyed by the id of the client's own dict, which the entry keeps alive.
_RAW_CALLBACKS: dict[int, tuple[Any, Any]] = {}


def raw_streams(pipe: Any) -> None:
    """Let `pipe`'s XRANGEs reply as Redis sends them, each entry's fields a flat list,
    not a dict redis-py builds per entry (a cluster pipeline parses on its nodes and
    keeps the dicts: readers take both)."""
    if isinstance(pipe, Pipeline):
        own = pipe.response_callbacks
        found = _RAW_CALLBACKS.get(id(own))
        if found is None or found[0] is not own:
            if len(_RAW_CALLBACKS) >= 64:  # clients come and go (tests make many)
                _RAW_CALLBACKS.clear()
            callbacks = copy.copy(own)  # the client's own stay as they are
            callbacks.pop("XRANGE", None)
            found = _RAW_CALLBACKS[id(own)] = (own, callbacks)
        pipe.response_callbacks = found[1]


def event_of(match_id: str, entry_id: bytes, fields: Fields, prev: str) -> Envelope:
    """A match-stream entry as an envelope linked to `prev`, however it was read."""
    if isinstance(fields, list):
        if len(fields) == 2 and fields[0] == b"e":  # the usual entry: taken by position
            return _unstored(match_id, int(entry_id[2:]), fields[1], prev)  # id 0-<version>
        it = iter(fields)  # an earlier layout: by name
        return entry_to_envelope(match_id, entry_id, dict(zip(it, it, strict=True)), prev)
    return entry_to_envelope(match_id, entry_id, fields, prev)


def chained(
    match_id: str, after_version: int, rows: Sequence[tuple[bytes, Fields]]
) -> list[Envelope]:
    """A match stream's entries after `after_version` as envelopes, each linked to its
    predecessor's hash. `rows` may begin with the entry at `after_version` itself, read
    for its hash only (from version 1 on the chain starts at GENESIS)."""
    prev = GENESIS
    if rows and after_version and rows[0][0] == b"0-%d" % after_version:
        prev = event_of(match_id, rows[0][0], rows[0][1], GENESIS).hash
        rows = rows[1:]
    out = []
    for eid, fields in rows:
        env = event_of(match_id, eid, fields, prev)
        out.append(env)
        prev = env.hash
    return out


# Reads a match's envelopes after a version (the archive's, for a match Redis no longer
# holds): where a log entry's events are found when their match stream is gone.
Loader = Callable[[str, int], Awaitable[list[Envelope]]]


def _snapshot(found: Any) -> Snapshot | None:
    """A snapshot from its hash as HGETALL returns it (empty: none)."""
    if not found:
        return None
    return Snapshot(
        version=int(found[b"v"]), state=bytes(found[b"state"]), last_hash=found[b"h"].decode()
    )


# The fields append.lua writes for a command's log entry, in its order (read as Redis
# sends them, by position).
LOGGED = [b"m", b"v", b"n", b"t"]

# A log entry as its reader needs it: its last event's type, and its events (match,
# first version, count), or, for an entry written before one entry per command, the
# fields of the one event it carries itself.
Logged = tuple[bytes, tuple[str, int, int] | Mapping[bytes, bytes]]


def logged(fields: Fields) -> Logged:
    if isinstance(fields, list):
        if fields[::2] == LOGGED:
            return fields[7], (fields[1].decode(), int(fields[3]), int(fields[5]))
        it = iter(fields)
        fields = dict(zip(it, it, strict=True))
    if b"n" not in fields:
        return fields[b"t"], fields
    return fields[b"t"], (fields[b"m"].decode(), int(fields[b"v"]), int(fields[b"n"]))


async def read_entries(
    redis: Redis,
    p: int,
    found: Sequence[tuple[bytes, Fields]],
    wanted: Collection[bytes] | None,
    fallback: Loader | None = None,
) -> list[LogEntry | Skipped]:
    """Partition p's log entries as events, each at its entry's position: a command's
    events are read from its match stream, one pipelined XRANGE per match however many
    of its entries the batch holds (a match's entries in a stretch of the log name
    consecutive versions). An entry whose (last) event type is not `wanted` comes as
    its position only."""
    return (await read_partitions_entries(redis, {p: found}, wanted, fallback))[p]


async def read_partitions_entries(
    redis: Redis,
    founds: Mapping[int, Sequence[tuple[bytes, Fields]]],
    wanted: Collection[bytes] | None,
    fallback: Loader | None = None,
) -> dict[int, list[LogEntry | Skipped]]:
    """`read_entries` for the log entries of several partitions at once: one pipeline
    of XRANGEs for them all (one round trip on one server)."""
    # Each entry as `logged` reads it, or None where it is not wanted: parsed once, for
    # the reads and for placing what they return.
    named: dict[int, list[Logged | None]] = {}
    # (partition, match) -> the versions to read, first and last
    spans: dict[tuple[int, str], tuple[int, int]] = {}
    for p, found in founds.items():
        mine = named[p] = []
        for _, fields in found:
            one = logged(fields)
            if wanted is not None and one[0] not in wanted:
                mine.append(None)
                continue
            mine.append(one)
            if isinstance(one[1], tuple):
                match_id, first, n = one[1]
                # From the entry before, whose hash the first one links to.
                low, high = max(first - 1, 1), first + n - 1
                known = spans.get((p, match_id))
                spans[p, match_id] = (
                    (min(known[0], low), max(known[1], high)) if known else (low, high)
                )
    Row = tuple[bytes, Fields]
    # Per span, its rows: as read where the span is whole (entry ids 0-low..0-high, one
    # per version, so a slice places them), else by entry id (some were archived since).
    rows_of: dict[tuple[int, str], list[Row] | dict[bytes, Row]] = {}
    if spans:
        async with redis.pipeline(transaction=False) as pipe:
            raw_streams(pipe)
            for (p, match_id), (low, high) in spans.items():
                pipe.xrange(Keys(p).match(match_id), min=f"0-{low}", max=f"0-{high}")
            ranges: list[Any] = await pipe.execute()
        for (span, (low, high)), rows in zip(spans.items(), ranges, strict=True):
            rows_of[span] = rows if len(rows) == high - low + 1 else {r[0]: r for r in rows}
    out: dict[int, list[LogEntry | Skipped]] = {}
    for p, found in founds.items():
        entries: list[LogEntry | Skipped] = []
        out[p] = entries
        for (eid, _), read in zip(found, named[p], strict=True):
            if read is None:
                entries.append((eid, None))
                continue
            if not isinstance(read[1], tuple):  # an entry of the older layout: its one event
                old = read[1]
                entries.append((eid, entry_to_envelope(old[b"m"].decode(), eid, old)))
                continue
            match_id, first, n = read[1]
            held = rows_of[p, match_id]
            if isinstance(held, list):
                low = spans[p, match_id][0]
                rows = held[max(first - 1, 1) - low : first + n - low]
            else:
                versions = range(max(first - 1, 1), first + n)
                rows = [row for v in versions if (row := held.get(b"0-%d" % v)) is not None]
            events = chained(match_id, first - 1, rows)
            if len(events) < n and fallback is not None:
                events = (await fallback(match_id, first - 1))[:n]  # archived since
            entries += [(eid, env) for env in events]
    return out


# A call of append.lua: its keys and its arguments.
Call = tuple[list[str], list[Any]]


def _decision(r: AppendRequest, k: Keys) -> Call:
    """One request's keys and arguments within a call of append.lua."""
    check_request(r)
    envelopes = r.envelopes
    first, last = (envelopes[0].version, envelopes[-1].type) if envelopes else (0, "")
    args: list[Any] = [r.command_id, r.expected_version, r.reply, len(envelopes)]
    args += [r.match_id, r.digest, first, last]
    # The link to the event before (e.prev) is not sent: the script does not keep it.
    args += [stored(e) for e in envelopes]
    return [k.match(r.match_id), k.replies(r.match_id)], args


def _call(shared: Sequence[str], decisions: Sequence[Call]) -> Call:
    """One call of append.lua: its partition's shared keys (the log, the tombstones),
    then its decisions in order."""
    keys, args = list(shared), [len(decisions)]
    for own_keys, own_args in decisions:
        keys += own_keys
        args += own_args
    return keys, args


def append_call(r: AppendRequest, partitions: int) -> Call:
    """The keys and arguments of append.lua for one request alone (the benchmarks'
    loaders send these, and `merged` joins a partition's into one call)."""
    k = Keys(partition_of(r.match_id, partitions))
    return _call([k.log, k.archived], [_decision(r, k)])


def merged(calls: Sequence[Call]) -> Call:
    """One call of append.lua for several one-request calls of the same partition, in
    their order."""
    return _call(calls[0][0][:2], [(keys[2:], args[1:]) for keys, args in calls])


def per_partition(
    requests: Sequence[AppendRequest], partitions: int
) -> list[tuple[Call, list[int]]]:
    """One call of append.lua per partition the requests touch, each with the indices of
    the requests it carries, in the order they came."""
    groups: dict[int, tuple[list[Call], list[int]]] = {}
    for i, r in enumerate(requests):
        p = partition_of(r.match_id, partitions)
        group = groups.get(p)
        if group is None:
            group = groups[p] = ([], [])
        decisions, indices = group
        decisions.append(_decision(r, Keys(p)))
        indices.append(i)
    return [
        (_call([Keys(p).log, Keys(p).archived], decisions), indices)
        for p, (decisions, indices) in groups.items()
    ]


class RedisEventStore:
    """`wait_replicas`: after each batch of appends, WAIT until that many replicas of
    every master written have them (at most `wait_ms`), before anyone is answered; a
    batch whose replicas did not all confirm in time is counted in `unreplicated`."""

    def __init__(
        self,
        redis: Redis,
        partitions: int = DEFAULT_PARTITIONS,
        *,
        wait_replicas: int = 0,
        wait_ms: int = 1_000,
    ) -> None:
        self.redis = redis
        self.partitions = partitions
        self._append = redis.register_script(APPEND_LUA)
        self.wait_replicas = wait_replicas
        self.wait_ms = wait_ms
        self.unreplicated = 0  # batches a WAIT returned short for (tests, the operator)

    def keys(self, match_id: str) -> Keys:
        return Keys(partition_of(match_id, self.partitions))

    async def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendResult]:
        """One script call per partition the batch touches, all in one pipeline."""
        calls = per_partition(requests, self.partitions)
        if len(calls) == 1 and not self.wait_replicas:
            (keys, args), _ = calls[0]
            try:
                raw = [await self._append(keys=keys, args=args)]
            except ResponseError as err:  # the script failed; a lost connection is raised
                raise AppendFailed([err] * len(requests)) from err
        else:
            raw = await self._evalsha_all([call for call, _ in calls])
            missing = [i for i, x in enumerate(raw) if isinstance(x, NoScriptError)]
            if missing:
                # The server lost its scripts (a restart, SCRIPT FLUSH). A NOSCRIPT call
                # ran nothing, so loading the script and sending those calls again is safe.
                await self.redis.script_load(APPEND_LUA)
                again = await self._evalsha_all([calls[i][0] for i in missing])
                for i, x in zip(missing, again, strict=True):
                    raw[i] = x
        outcomes: list[AppendResult | Exception] = [ResponseError("not sent")] * len(requests)
        for (_, indices), found in zip(calls, raw, strict=True):
            if isinstance(found, Exception):
                # The call failed as a whole (nothing of it ran): each of its requests.
                for i in indices:
                    outcomes[i] = found
                continue
            for i, one in zip(indices, found, strict=True):
                outcomes[i] = _result(one)
        if any(isinstance(x, Exception) for x in outcomes):
            # Each decision is atomic on its own: the others ran, whatever this one met.
            raise AppendFailed(outcomes)
        return outcomes  # type: ignore[return-value]  # no exception among them

    async def _evalsha_all(self, calls: Sequence[Call]) -> list[Any]:
        # EVALSHA by hand: a Script object in a pipeline costs a SCRIPT EXISTS round trip
        # before every execute. Through `execute_command`: a cluster pipeline refuses
        # `evalsha()` (it cannot tell in general that the keys share a slot), and routes
        # the command by its keys, all of one partition, to the node owning that slot.
        sha = self._append.sha
        async with self.redis.pipeline(transaction=False) as pipe:
            for keys, args in calls:
                pipe.execute_command("EVALSHA", sha, len(keys), *keys, *args)
            waits = self._wait_after(pipe, calls)
            found: list[Any] = await pipe.execute(raise_on_error=False)
        if waits:
            confirmed, found = found[len(calls) :], found[: len(calls)]
            if any(isinstance(n, Exception) or int(n) < self.wait_replicas for n in confirmed):
                self.unreplicated += 1
        return found

    def _wait_after(self, pipe: Any, calls: Sequence[tuple[list[str], list[Any]]]) -> int:
        """Queue one WAIT per server the appends go to, after them on the same connection
        (WAIT counts the replicas holding this connection's writes); how many."""
        if not self.wait_replicas:
            return 0
        if not isinstance(self.redis, RedisCluster):
            pipe.execute_command("WAIT", self.wait_replicas, self.wait_ms)
            return 1
        nodes = {self.redis.get_node_from_key(keys[0]).name: keys[0] for keys, _ in calls}
        for key in nodes.values():
            node = self.redis.get_node_from_key(key)
            pipe.execute_command("WAIT", self.wait_replicas, self.wait_ms, target_nodes=node)
        return len(nodes)

    async def load(self, match_id: str, after_version: int = 0) -> list[Envelope]:
        key = self.keys(match_id).match(match_id)
        out: list[Envelope] = []
        after = after_version  # each read starts at the entry before, for its hash
        while True:
            start = f"0-{max(after, 1)}"
            batch: Any = await self.redis.xrange(key, min=start, max="+", count=READ_COUNT)
            out += chained(match_id, after, batch)
            if len(batch) < READ_COUNT:
                return out
            after = out[-1].version

    async def version(self, match_id: str) -> int:
        return int(await self.redis.xlen(self.keys(match_id).match(match_id)))

    async def reply_for(self, match_id: str, command_id: str) -> bytes | None:
        found: Any = await self.redis.hget(self.keys(match_id).replies(match_id), command_id)
        return bytes(found) if found is not None else None

    async def recorded_replies(self, match_id: str) -> dict[str, bytes]:
        found = cast(
            "dict[bytes, bytes]", await self.redis.hgetall(self.keys(match_id).replies(match_id))
        )
        # Fields under '#' hold the digests of the commands' bodies, not replies.
        return {
            command_id.decode(): reply
            for command_id, reply in found.items()
            if not command_id.startswith(b"#")
        }

    async def save_snapshot(self, match_id: str, snapshot: Snapshot) -> None:
        await self.save_snapshots({match_id: snapshot})

    async def save_snapshots(self, snapshots: Mapping[str, Snapshot]) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for match_id, snap in snapshots.items():
                pipe.hset(
                    self.keys(match_id).snapshot(match_id),
                    mapping={"v": snap.version, "state": snap.state, "h": snap.last_hash},
                )
            await pipe.execute()

    async def load_snapshot(self, match_id: str) -> Snapshot | None:
        return _snapshot(await self.redis.hgetall(self.keys(match_id).snapshot(match_id)))

    async def load_starts(self, match_ids: Sequence[str]) -> dict[str, Start]:
        """Two pipelines for them all: the snapshots, then the streams after them. A
        match with more than READ_COUNT events past its snapshot reads on alone."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for match_id in match_ids:
                pipe.hgetall(self.keys(match_id).snapshot(match_id))
            found: list[Any] = await pipe.execute()
        snapshots = [_snapshot(raw) for raw in found]
        afters = [snap.version if snap else 0 for snap in snapshots]
        async with self.redis.pipeline(transaction=False) as pipe:
            raw_streams(pipe)
            for match_id, after in zip(match_ids, afters, strict=True):
                key = self.keys(match_id).match(match_id)
                pipe.xrange(key, min=f"0-{max(after, 1)}", max="+", count=READ_COUNT)
            rows: list[Any] = await pipe.execute()
        out = {}
        for match_id, snap, after, batch in zip(match_ids, snapshots, afters, rows, strict=True):
            tail = chained(match_id, after, batch)
            if len(batch) >= READ_COUNT:
                tail += await self.load(match_id, tail[-1].version)
            out[match_id] = Start(snap, tail)
        return out

    async def match_ids(self) -> list[str]:
        out = []
        for p in range(self.partitions):
            prefix = Keys(p).match("")
            async for key in self.redis.scan_iter(match=Keys(p).match_pattern, count=1000):
                out.append(key.decode()[len(prefix) :])
        return sorted(out)

    # --- the partition logs ---------------------------------------------------------

    async def read_log(
        self, p: int, after: str, count: int, *, fallback: Loader | None = None
    ) -> list[LogEntry]:
        async with self.redis.pipeline(transaction=False) as pipe:
            raw_streams(pipe)
            pipe.xrange(Keys(p).log, min=f"({after}", max="+", count=count)
            [found] = await pipe.execute()
        return cast("list[LogEntry]", await read_entries(self.redis, p, found, None, fallback))

    async def read_logs(
        self,
        after: Mapping[int, str],
        count: int,
        types: Collection[str],
        *,
        fallback: Loader | None = None,
    ) -> dict[int, list[LogEntry | Skipped]]:
        wanted = {t.encode() for t in types}
        async with self.redis.pipeline(transaction=False) as reads:
            raw_streams(reads)
            for p, at in after.items():
                reads.xrange(Keys(p).log, min=f"({at}", max="+", count=count)
            founds = cast("list[list[tuple[bytes, Fields]]]", await reads.execute())
        out: dict[int, list[LogEntry | Skipped]] = {}
        for p, found in zip(after, founds, strict=True):
            out[p] = await read_entries(self.redis, p, found, wanted, fallback)
        return out

    async def log_heads(self) -> list[bytes]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for p in range(self.partitions):
                pipe.xrevrange(Keys(p).log, count=1)
            found = cast("list[list[tuple[bytes, Any]]]", await pipe.execute())
        return [rows[0][0] if rows else START.encode() for rows in found]

    async def log_clock(self) -> int | None:
        # An XADD's id is the server's clock (or past the stream's last id): read every
        # server's, and the earliest bounds what any of them will append.
        if isinstance(self.redis, RedisCluster):
            found: Any = await self.redis.time(target_nodes=RedisCluster.PRIMARIES)
            # redis-py answers a dict per node, but the bare reply when one node answers.
            clocks = list(found.values()) if isinstance(found, dict) else [found]
        else:
            clocks = [await self.redis.time()]
        return min(int(s) * 1000 + int(us) // 1000 for s, us in clocks)


def _result(raw: Any) -> AppendResult | Exception:
    status = raw[0].decode() if isinstance(raw[0], bytes) else raw[0]
    if status == "error":
        why = raw[1].decode() if isinstance(raw[1], bytes) else str(raw[1])
        return ResponseError(why)
    if status == "ok":
        return AppendResult("ok", version=int(raw[1]))
    if status == "conflict":
        return AppendResult("conflict", version=int(raw[1]))
    if status == "reused":
        return AppendResult("reused", reply=bytes(raw[1]))
    return AppendResult("duplicate", reply=bytes(raw[1]))
