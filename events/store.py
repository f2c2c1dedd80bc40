"""The event store contract, and an in-memory store that keeps it for unit tests.

A store promises (see docs/event-store.md): all events of one decision are stored or
none; an append names the version it expects and exactly one of two racing appends
wins; versions are 1..n without gaps; a command id is recorded with its reply (and the
digest of its body), so the same command twice appends once and answers the same, and
an id sent again with another body is told apart (`reused`); each partition's log holds
its events in commit order, and can be read from any position.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Literal, NamedTuple, Protocol

import msgspec

from events.envelope import Envelope
from events.keys import DEFAULT_PARTITIONS, partition_of

# A position in a partition log (a Redis entry id, `<ms>-<seq>`: ordered within a log,
# and comparable across logs by time) and the event found there.
LogEntry = tuple[bytes, Envelope]
# An entry of a type the reader did not ask to decode: its position only.
Skipped = tuple[bytes, None]
START = "0-0"  # the position before the first entry of every log


class AppendRequest(msgspec.Struct, frozen=True):
    """One decision: its events (maybe none, for a recorded rejection) and its reply."""

    match_id: str
    expected_version: int
    command_id: str
    reply: bytes
    envelopes: Sequence[Envelope] = ()
    # A digest of the command's body, recorded with its id ("": not compared).
    digest: str = ""


def check_request(r: AppendRequest) -> None:
    """The store records the request's command id on every event, and numbers its events
    on from the first one's version; an envelope sealed under another id or version
    would carry a hash that can never verify, so it is refused."""
    first = r.envelopes[0].version if r.envelopes else 0
    for i, e in enumerate(r.envelopes):
        if e.command_id != r.command_id or e.match_id != r.match_id:
            raise ValueError(
                f"envelope v{e.version} was sealed for {e.match_id}/{e.command_id}, "
                f"not for {r.match_id}/{r.command_id}"
            )
        if e.version != first + i:
            raise ValueError(f"envelope v{e.version} does not follow v{first + i - 1}")


class AppendResult(msgspec.Struct, frozen=True):
    status: Literal["ok", "conflict", "duplicate", "reused"]
    version: int = 0  # the stream's version after (ok) or found (conflict)
    reply: bytes = b""  # the recorded reply (duplicate, reused)


class AppendFailed(Exception):
    """Some requests of a batch failed in the store (a script error, a key of the wrong
    type) and the others were applied: `outcomes[i]` is request i's result, or the
    error it met. A lost connection is raised as itself, never as this: then nothing
    is known of any request."""

    def __init__(self, outcomes: Sequence[AppendResult | Exception]) -> None:
        self.outcomes = list(outcomes)
        errors = [str(x) for x in outcomes if isinstance(x, Exception)]
        super().__init__("; ".join(errors))


class Snapshot(msgspec.Struct, frozen=True):
    version: int
    state: bytes
    last_hash: str


class Start(NamedTuple):
    """What a match is read back from: its snapshot (None: it has none) and its
    envelopes after the snapshot (all of them without one)."""

    snapshot: Snapshot | None
    tail: list[Envelope]


class EventStore(Protocol):
    """Matches by id; their events in each partition's log, in commit order."""

    partitions: int

    async def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendResult]: ...

    async def load(self, match_id: str, after_version: int = 0) -> list[Envelope]: ...

    async def version(self, match_id: str) -> int: ...

    async def reply_for(self, match_id: str, command_id: str) -> bytes | None: ...

    async def recorded_replies(self, match_id: str) -> dict[str, bytes]:
        """Every command id of the match and its reply (rejections too)."""
        ...

    async def save_snapshot(self, match_id: str, snapshot: Snapshot) -> None: ...

    async def save_snapshots(self, snapshots: Mapping[str, Snapshot]) -> None:
        """Several matches' snapshots at once: the matches of a round that cross a
        snapshot together (matches started together do) cost one round trip, not one
        each before their replies."""
        ...

    async def load_snapshot(self, match_id: str) -> Snapshot | None: ...

    async def load_starts(self, match_ids: Sequence[str]) -> dict[str, Start]:
        """Each match's snapshot and the envelopes after it, read together: a batch of
        commands for matches no cache holds (new ones, or after a restart) costs a few
        round trips, not a few per match."""
        ...

    async def match_ids(self) -> list[str]:
        """Every match in the store, sorted."""
        ...

    # --- the partition logs (what projectors follow) ---------------------------------

    async def read_log(self, p: int, after: str, count: int) -> list[LogEntry]:
        """Up to `count` entries of partition p's log after position `after`."""
        ...

    async def read_logs(
        self, after: Mapping[int, str], count: int, types: Collection[str]
    ) -> dict[int, list[LogEntry | Skipped]]:
        """Several partitions' logs at once; an entry whose event type is not in `types`
        comes as its position only, undecoded, for the reader to pass. (In Redis a log
        entry is a command's events, all at its position, and is read when its last
        event's type is in `types`: match.finished is always a command's last.)"""
        ...

    async def log_heads(self) -> list[bytes]:
        """The newest position of every partition log (`0-0` for an empty one)."""
        ...

    async def log_clock(self) -> int | None:
        """A time (ms) no log entry appended from now on can be positioned before: the
        earliest clock of the servers holding the logs. None when appends and reads
        never interleave (the in-memory store)."""
        ...


class InMemoryStore:
    """The same promises without Redis, for unit tests."""

    def __init__(self, partitions: int = DEFAULT_PARTITIONS) -> None:
        self.partitions = partitions
        self.streams: dict[str, list[Envelope]] = {}
        self.log: list[Envelope] = []  # every partition's events, in commit order
        self.commands = 0  # appends with events so far: the last log position
        self.logs: dict[int, list[LogEntry]] = {p: [] for p in range(partitions)}
        self.replies: dict[tuple[str, str], bytes] = {}
        self.digests: dict[tuple[str, str], str] = {}
        self.snapshots: dict[str, Snapshot] = {}

    async def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendResult]:
        return [self._append(r) for r in requests]

    def _append(self, r: AppendRequest) -> AppendResult:
        check_request(r)
        seen = self.replies.get((r.match_id, r.command_id))
        if seen is not None:
            digest = self.digests.get((r.match_id, r.command_id), "")
            if r.digest and digest and digest != r.digest:
                return AppendResult("reused", reply=seen)
            return AppendResult("duplicate", reply=seen)
        stream = self.streams.setdefault(r.match_id, [])
        if r.expected_version >= 0 and len(stream) != r.expected_version:
            return AppendResult("conflict", version=len(stream))
        if r.envelopes:
            stream.extend(r.envelopes)
            log = self.logs[partition_of(r.match_id, self.partitions)]
            # One sequence over every log: positions compare across partitions, as Redis
            # entry ids (the server's clock) do; a command's events share one, as they
            # share one Redis log entry.
            self.commands += 1
            for e in r.envelopes:
                self.log.append(e)
                log.append((b"%d-0" % self.commands, e))
        self.replies[(r.match_id, r.command_id)] = r.reply
        if r.digest:
            self.digests[(r.match_id, r.command_id)] = r.digest
        return AppendResult("ok", version=len(stream))

    async def load(self, match_id: str, after_version: int = 0) -> list[Envelope]:
        return list(self.streams.get(match_id, [])[after_version:])

    async def version(self, match_id: str) -> int:
        return len(self.streams.get(match_id, []))

    async def reply_for(self, match_id: str, command_id: str) -> bytes | None:
        return self.replies.get((match_id, command_id))

    async def recorded_replies(self, match_id: str) -> dict[str, bytes]:
        return {c: r for (m, c), r in self.replies.items() if m == match_id}

    async def save_snapshot(self, match_id: str, snapshot: Snapshot) -> None:
        self.snapshots[match_id] = snapshot

    async def save_snapshots(self, snapshots: Mapping[str, Snapshot]) -> None:
        self.snapshots.update(snapshots)

    async def load_snapshot(self, match_id: str) -> Snapshot | None:
        return self.snapshots.get(match_id)

    async def load_starts(self, match_ids: Sequence[str]) -> dict[str, Start]:
        out = {}
        for match_id in match_ids:
            snap = self.snapshots.get(match_id)
            out[match_id] = Start(snap, await self.load(match_id, snap.version if snap else 0))
        return out

    async def match_ids(self) -> list[str]:
        return sorted(self.streams)

    async def read_log(self, p: int, after: str, count: int) -> list[LogEntry]:
        """Up to `count` log positions (commands), each with all its events."""
        start = position(after.encode())
        later = [e for e in self.logs[p] if position(e[0]) > start]
        kept = sorted({pos for pos, _ in later}, key=position)[:count]
        return [e for e in later if e[0] in set(kept)]

    async def read_logs(
        self, after: Mapping[int, str], count: int, types: Collection[str]
    ) -> dict[int, list[LogEntry | Skipped]]:
        out: dict[int, list[LogEntry | Skipped]] = {}
        for p, at in after.items():
            found = await self.read_log(p, at, count)
            last = {pos: env.type for pos, env in found}  # each position's last event
            out[p] = []
            for pos, env in found:
                if last[pos] in types:
                    out[p].append((pos, env))
                elif not out[p] or out[p][-1][0] != pos:
                    out[p].append((pos, None))
        return out

    async def log_heads(self) -> list[bytes]:
        return [self.logs[p][-1][0] if self.logs[p] else START.encode() for p in self.logs]

    async def log_clock(self) -> int | None:
        return None


def position(entry_id: bytes) -> tuple[int, int]:
    """A log position as numbers, for ordering (`<ms>-<seq>`)."""
    ms, seq = entry_id.split(b"-")
    return int(ms), int(seq)
