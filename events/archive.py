"""Cold storage for finished matches, and a store that reads them back transparently.

A finished match older than the retention leaves Redis (services/archiver/): its whole
record (every envelope with its hash chain and command, every recorded reply and body
digest) goes to a cold store, and a small tombstone stays in the partition's tombstone
hash (`Keys.archived`). `ArchivedStore` wraps the Redis store: a match Redis no longer
holds but a tombstone names is read from the cold store, so replay, audit, export,
fork, histories and the gateway read archived matches like any other.

Two cold stores, one format: a gzip-compressed JSON-lines record per match (a header,
the envelopes, the replies), written to a file (`FileArchive`, the default: a folder
under the data folder) or to a PostgreSQL row (`PostgresArchive`). The record holds the
whole truth, seeds included, as the match stream did: only the command service, the
auditor and the archiver read it, and every player-facing reader redacts as it does
for a match still in Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import os
import urllib.parse
from collections import OrderedDict
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

import msgspec
from redis.asyncio import Redis

from events.envelope import ENVELOPE_DECODER, Envelope
from events.keys import Keys, partition_of
from events.redis_store import RedisEventStore
from events.store import AppendRequest, AppendResult, LogEntry, Skipped, Snapshot, Start

ARCHIVE_SCHEMA = "tabletop.archive/1"
_ENC = msgspec.json.Encoder()


class ArchiveHeader(msgspec.Struct, kw_only=True):
    schema: str = ARCHIVE_SCHEMA
    kind: Literal["archive"] = "archive"
    match_id: str
    partition: int
    version: int
    last_hash: str
    archived_at: int


class ArchivedReply(msgspec.Struct, kw_only=True):
    kind: Literal["reply"] = "reply"
    command_id: str
    reply: msgspec.Raw
    digest: str = ""


class ArchivedMatch(msgspec.Struct, kw_only=True):
    """A match's whole record, as the archiver took it out of Redis."""

    header: ArchiveHeader
    envelopes: list[Envelope]
    replies: list[ArchivedReply]

    @property
    def match_id(self) -> str:
        return self.header.match_id


class Tombstone(msgspec.Struct, kw_only=True):
    """What stays in Redis of an archived match (one field of `Keys.archived`): enough
    to list it in the lobby, show its summary and refuse reusing its id."""

    version: int
    last_hash: str
    archived_at: int
    where: str  # the cold store's kind: "file" or "postgres"
    summary: msgspec.Raw = msgspec.Raw(b"null")  # the read model's summary, as it was


TOMBSTONE = msgspec.json.Decoder(Tombstone)
_HEADER = msgspec.json.Decoder(ArchiveHeader)
_REPLY = msgspec.json.Decoder(ArchivedReply)


def encode_record(record: ArchivedMatch) -> bytes:
    """The record as gzip-compressed JSON lines."""
    lines = [_ENC.encode(record.header)]
    lines += [_ENC.encode(e) for e in record.envelopes]
    lines += [_ENC.encode(r) for r in record.replies]
    return gzip.compress(b"\n".join(lines) + b"\n", compresslevel=6)


def decode_record(blob: bytes) -> ArchivedMatch:
    lines = [line for line in gzip.decompress(blob).split(b"\n") if line.strip()]
    header = _HEADER.decode(lines[0])
    if header.schema != ARCHIVE_SCHEMA:
        raise ValueError(f"unknown archive schema {header.schema!r}")
    envelopes: list[Envelope] = []
    replies: list[ArchivedReply] = []
    for line in lines[1:]:
        if line.startswith(b'{"kind":"reply"'):
            replies.append(_REPLY.decode(line))
        else:
            envelopes.append(ENVELOPE_DECODER.decode(line))
    if len(envelopes) != header.version:
        raise ValueError(
            f"archive of {header.match_id} holds {len(envelopes)} events, "
            f"its header says {header.version}"
        )
    return ArchivedMatch(header=header, envelopes=envelopes, replies=replies)


class ColdStore(Protocol):
    """Where archived matches live. `put` is durable when it returns, and idempotent
    (an archiver that stopped between `put` and the tombstone puts again)."""

    kind: str

    async def put(self, record: ArchivedMatch) -> None: ...

    async def get(self, match_id: str, partition: int | None = None) -> ArchivedMatch | None:
        """The record, or None; `partition` (when known) spares a file store a search."""
        ...

    async def close(self) -> None: ...


class FileArchive:
    """One `<match id>.jsonl.gz` per match, in a folder per partition."""

    kind = "file"

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, match_id: str, partition: int) -> Path:
        # Quoted, so no id can name a path outside the folder ('/', '..').
        name = urllib.parse.quote(match_id, safe="-_.") + ".jsonl.gz"
        return self.folder / str(partition) / name

    def _find(self, match_id: str) -> Path | None:
        for sub in self.folder.glob("*"):
            name = urllib.parse.quote(match_id, safe="-_.") + ".jsonl.gz"
            if (sub / name).is_file():
                return sub / name
        return None

    def _write(self, record: ArchivedMatch) -> None:
        target = self.path(record.match_id, record.header.partition)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(".tmp")
        with open(tmp, "wb") as f:
            f.write(encode_record(record))
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(target)
        # The rename itself is durable once the folder is synced.
        fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def _read(self, match_id: str, partition: int | None) -> ArchivedMatch | None:
        path = self.path(match_id, partition) if partition is not None else self._find(match_id)
        if path is None or not path.is_file():
            return None
        return decode_record(path.read_bytes())

    async def put(self, record: ArchivedMatch) -> None:
        await asyncio.to_thread(self._write, record)

    async def get(self, match_id: str, partition: int | None = None) -> ArchivedMatch | None:
        return await asyncio.to_thread(self._read, match_id, partition)

    async def close(self) -> None:
        pass


class PostgresArchive:
    """One row per match in `tabletop_archive`, the same compressed record as a file.

    psycopg 3 (`pip install -e ".[postgres]"`); the table is made on first use."""

    kind = "postgres"
    DDL = (
        "CREATE TABLE IF NOT EXISTS tabletop_archive ("
        " match_id text PRIMARY KEY, partition integer NOT NULL, version integer NOT NULL,"
        " archived_at bigint NOT NULL, record bytea NOT NULL)"
    )

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._conn: Any = None
        self._lock = asyncio.Lock()

    async def _connection(self) -> Any:
        if self._conn is None or self._conn.closed:
            import psycopg

            self._conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
            await self._conn.execute(self.DDL)
        return self._conn

    async def put(self, record: ArchivedMatch) -> None:
        h = record.header
        async with self._lock:
            conn = await self._connection()
            await conn.execute(
                "INSERT INTO tabletop_archive (match_id, partition, version, archived_at, record)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (match_id) DO UPDATE SET"
                " version = EXCLUDED.version, archived_at = EXCLUDED.archived_at,"
                " record = EXCLUDED.record",
                (h.match_id, h.partition, h.version, h.archived_at, encode_record(record)),
            )

    async def get(self, match_id: str, partition: int | None = None) -> ArchivedMatch | None:
        async with self._lock:
            conn = await self._connection()
            cur = await conn.execute(
                "SELECT record FROM tabletop_archive WHERE match_id = %s", (match_id,)
            )
            row = await cur.fetchone()
        return None if row is None else decode_record(bytes(row[0]))

    async def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None


def cold_store(where: str) -> ColdStore:
    """The cold store a setting names: a `postgresql://` URL, else a folder."""
    if where.startswith(("postgresql://", "postgres://")):
        return PostgresArchive(where)
    return FileArchive(Path(where))


class ArchivedStore:
    """The Redis store, with archived matches read back from the cold store.

    Appends, snapshots and the partition logs are the Redis store's own. A read of a
    match Redis no longer holds looks for its tombstone (one HGET, only when Redis has
    nothing) and then reads the cold store; the last few archived matches read are kept
    decoded, since a replay or a history reads the same one again and again."""

    def __init__(self, inner: RedisEventStore, cold: ColdStore, keep: int = 64) -> None:
        self.inner = inner
        self.cold = cold
        self.redis: Redis = inner.redis
        self.partitions = inner.partitions
        self._recent: OrderedDict[str, ArchivedMatch] = OrderedDict()
        self._keep = keep

    def keys(self, match_id: str) -> Keys:
        return self.inner.keys(match_id)

    async def tombstone(self, match_id: str) -> Tombstone | None:
        k = Keys(partition_of(match_id, self.partitions))
        raw: Any = await self.redis.hget(k.archived, match_id)
        return TOMBSTONE.decode(raw) if raw else None

    async def archived(self, match_id: str) -> ArchivedMatch | None:
        """The archived record of a match, or None when it is not archived."""
        found = self._recent.get(match_id)
        if found is not None:
            self._recent.move_to_end(match_id)
            return found
        if await self.tombstone(match_id) is None:
            return None
        found = await self.cold.get(match_id, partition_of(match_id, self.partitions))
        if found is None:
            raise LookupError(
                f"match {match_id} is archived ({self.cold.kind}), but its record is not "
                "in the cold store this process reads"
            )
        self._recent[match_id] = found
        while len(self._recent) > self._keep:
            self._recent.popitem(last=False)
        return found

    async def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendResult]:
        return await self.inner.append_batch(requests)

    async def load(self, match_id: str, after_version: int = 0) -> list[Envelope]:
        found = await self.inner.load(match_id, after_version)
        if found:
            return found
        record = await self.archived(match_id)
        return [] if record is None else record.envelopes[after_version:]

    async def version(self, match_id: str) -> int:
        found = await self.inner.version(match_id)
        if found:
            return found
        stone = await self.tombstone(match_id)
        return 0 if stone is None else stone.version

    async def reply_for(self, match_id: str, command_id: str) -> bytes | None:
        found = await self.inner.reply_for(match_id, command_id)
        if found is not None:
            return found
        return (await self.recorded_replies(match_id)).get(command_id)

    async def recorded_replies(self, match_id: str) -> dict[str, bytes]:
        found = await self.inner.recorded_replies(match_id)
        if found:
            return found
        record = await self.archived(match_id)
        if record is None:
            return {}
        return {r.command_id: bytes(r.reply) for r in record.replies}

    async def save_snapshot(self, match_id: str, snapshot: Snapshot) -> None:
        await self.inner.save_snapshot(match_id, snapshot)

    async def save_snapshots(self, snapshots: Mapping[str, Snapshot]) -> None:
        await self.inner.save_snapshots(snapshots)

    async def load_snapshot(self, match_id: str) -> Snapshot | None:
        return await self.inner.load_snapshot(match_id)

    async def load_starts(self, match_ids: Sequence[str]) -> dict[str, Start]:
        """As Redis holds them; a match it holds nothing of is read from the archive
        when its tombstone says so (the tombstones of all such read in one pipeline)."""
        starts = await self.inner.load_starts(match_ids)
        empty = [mid for mid, start in starts.items() if start.snapshot is None and not start.tail]
        if empty:
            async with self.redis.pipeline(transaction=False) as pipe:
                for mid in empty:
                    pipe.hget(Keys(partition_of(mid, self.partitions)).archived, mid)
                stones: list[Any] = await pipe.execute()
            for mid, stone in zip(empty, stones, strict=True):
                record = await self.archived(mid) if stone else None
                if record is not None:
                    starts[mid] = Start(None, record.envelopes)
        return starts

    async def match_ids(self) -> list[str]:
        ids = set(await self.inner.match_ids())
        for p in range(self.partitions):
            found: Any = await self.redis.hkeys(Keys(p).archived)
            ids.update(k.decode() for k in found)
        return sorted(ids)

    # A log entry names its events; those of a match archived since are read here.
    async def read_log(self, p: int, after: str, count: int) -> list[LogEntry]:
        return await self.inner.read_log(p, after, count, fallback=self.load)

    async def read_logs(
        self, after: Mapping[int, str], count: int, types: Collection[str]
    ) -> dict[int, list[LogEntry | Skipped]]:
        return await self.inner.read_logs(after, count, types, fallback=self.load)

    async def log_heads(self) -> list[bytes]:
        return await self.inner.log_heads()

    async def log_clock(self) -> int | None:
        return await self.inner.log_clock()

    @property
    def unreplicated(self) -> int:
        """Batches whose WAIT for replicas returned short (the Redis store's count)."""
        return self.inner.unreplicated
