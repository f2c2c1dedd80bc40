"""The event store contract, key layout, and an in-memory store for unit tests.

A store promises (see docs/event-store.md): all events of one decision are stored or
none; an append names the version it expects and exactly one of two racing appends
wins; versions are 1..n without gaps; a command id is recorded with its reply (and the
digest of its body), so the same command twice appends once and answers the same, and
an id sent again with another body is told apart (`reused`); the partition log holds
every event in commit order.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Literal, Protocol

import msgspec

from events.envelope import Envelope

DEFAULT_PARTITIONS = 16


def partition_of(match_id: str, partitions: int = DEFAULT_PARTITIONS) -> int:
    return zlib.crc32(match_id.encode()) % partitions


class Keys:
    """Every key of one partition carries the hash tag `{p}`: one slot, one script."""

    def __init__(self, p: int) -> None:
        self.p = p
        tag = f"tt:{{{p}}}"
        self.commands = f"{tag}:commands"
        self.log = f"{tag}:log"
        self.public = f"{tag}:public"
        self._tag = tag

    def match(self, match_id: str) -> str:
        return f"{self._tag}:match:{match_id}"

    def replies(self, match_id: str) -> str:
        return f"{self._tag}:cmds:{match_id}"

    def snapshot(self, match_id: str) -> str:
        return f"{self._tag}:snap:{match_id}"


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
    """The store records the request's command id on every event; an envelope sealed
    under another id would carry a hash that can never verify, so it is refused."""
    for e in r.envelopes:
        if e.command_id != r.command_id or e.match_id != r.match_id:
            raise ValueError(
                f"envelope v{e.version} was sealed for {e.match_id}/{e.command_id}, "
                f"not for {r.match_id}/{r.command_id}"
            )


class AppendResult(msgspec.Struct, frozen=True):
    status: Literal["ok", "conflict", "duplicate", "reused"]
    version: int = 0  # the stream's version after (ok) or found (conflict)
    reply: bytes = b""  # the recorded reply (duplicate, reused)


class Snapshot(msgspec.Struct, frozen=True):
    version: int
    state: bytes
    last_hash: str


class EventStore(Protocol):
    async def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendResult]: ...

    async def load(self, match_id: str, after_version: int = 0) -> list[Envelope]: ...

    async def reply_for(self, match_id: str, command_id: str) -> bytes | None: ...

    async def save_snapshot(self, match_id: str, snapshot: Snapshot) -> None: ...

    async def load_snapshot(self, match_id: str) -> Snapshot | None: ...


class InMemoryStore:
    """The same promises without Redis, for unit tests of the application layer."""

    def __init__(self) -> None:
        self.streams: dict[str, list[Envelope]] = {}
        self.log: list[Envelope] = []
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
            self.log.extend(r.envelopes)
        self.replies[(r.match_id, r.command_id)] = r.reply
        if r.digest:
            self.digests[(r.match_id, r.command_id)] = r.digest
        return AppendResult("ok", version=len(stream))

    async def load(self, match_id: str, after_version: int = 0) -> list[Envelope]:
        return list(self.streams.get(match_id, [])[after_version:])

    async def reply_for(self, match_id: str, command_id: str) -> bytes | None:
        return self.replies.get((match_id, command_id))

    async def save_snapshot(self, match_id: str, snapshot: Snapshot) -> None:
        self.snapshots[match_id] = snapshot

    async def load_snapshot(self, match_id: str) -> Snapshot | None:
        return self.snapshots.get(match_id)
