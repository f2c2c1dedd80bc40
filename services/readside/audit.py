"""Replay, audit, export/import and fork of recorded matches.

- replay folds the recorded events (upcast to the current shape) and never needs the
  rules to be unchanged;
- audit first checks every envelope's hash-chain link, then re-runs the recorded
  commands through `decide` (the seed is in the recorded start command) and compares the
  events byte for byte -- unless the installed rules differ from the ones the match
  was played under, which it says instead of reporting a false mismatch;
- export writes one schema-versioned JSON-lines file per match (header, envelopes,
  recorded replies); import appends it to another store through the same Lua script.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import msgspec

from domain import match as m
from domain.kernel import get_game
from events.envelope import ENVELOPE_DECODER, GENESIS, Envelope, first_bad_link, seal
from events.matches import LiveMatch, decode_events, fold_envelopes, game_of
from events.store import AppendRequest, EventStore
from events.upcast import upcast
from services.contracts.replies import full_replies

EXPORT_SCHEMA = "tabletop.match-export/1"
_COMMANDS = msgspec.json.Decoder(m.MatchCommand)
_ENC = msgspec.json.Encoder()


class AuditResult(msgspec.Struct):
    match_id: str
    status: Literal["ok", "tampered", "mismatch", "skipped", "missing"]
    events: int
    bad_version: int | None = None
    detail: str = ""

    def line(self) -> str:
        if self.status == "ok":
            return f"audit ok: match {self.match_id}: {self.events} events, replay identical"
        if self.status == "skipped":
            return f"audit skipped: match {self.match_id}: {self.detail}"
        if self.status == "missing":
            return f"audit failed: match {self.match_id}: no such match"
        return (
            f"audit failed: match {self.match_id}: {self.status} at version "
            f"{self.bad_version}: {self.detail}"
        )


def decisions(envelopes: Sequence[Envelope]) -> Iterable[list[Envelope]]:
    """The envelopes grouped by the decision (command) that wrote them."""
    group: list[Envelope] = []
    for env in envelopes:
        if group and env.command_id != group[0].command_id:
            yield group
            group = []
        group.append(env)
    if group:
        yield group


def audit_envelopes(match_id: str, envelopes: Sequence[Envelope]) -> AuditResult:
    if not envelopes:
        return AuditResult(match_id, "missing", 0)
    bad = first_bad_link(list(envelopes))
    if bad is not None:
        return AuditResult(match_id, "tampered", len(envelopes), bad, "the hash chain breaks here")
    game_name = game_of(envelopes)
    events = decode_events(game_name, envelopes)
    started = next((e for e in events if isinstance(e, m.MatchStarted)), None)
    installed = get_game(game_name).rules_version
    if started is not None and started.rules_version != installed:
        return AuditResult(
            match_id,
            "skipped",
            len(envelopes),
            detail=f"rules changed from {started.rules_version} to {installed}",
        )
    codec = m.codec(game_name)
    edition, rules = m.recorded_editions(events)
    state: m.MatchState | None = None
    i = 0
    for group in decisions(envelopes):
        recorded = events[i : i + len(group)]
        command_raw = bytes(group[0].command)
        if command_raw == b"null":
            # A system event (a fork's re-seeding): nothing to re-execute, fold it.
            state = m.fold(recorded, state)
            i += len(group)
            continue
        try:
            # The decision's own time, as recorded: clocked matches rule from it.
            again = m.decide(
                state, _COMMANDS.decode(command_raw), now=group[0].recorded_at, edition=edition
            )
        except Exception as err:
            return AuditResult(
                match_id, "mismatch", len(envelopes), group[0].version, f"decide refused: {err}"
            )
        for env, event in zip(group, again, strict=False):
            if codec.encode(event) != bytes(upcast(env).payload):
                return AuditResult(
                    match_id, "mismatch", len(envelopes), env.version, "the events differ"
                )
        if len(again) != len(group):
            return AuditResult(
                match_id,
                "mismatch",
                len(envelopes),
                group[0].version,
                f"{len(again)} events instead of {len(group)}",
            )
        state = m.as_of_edition(m.fold(again, state), rules)
        i += len(group)
    return AuditResult(match_id, "ok", len(envelopes))


async def audit(store: EventStore, match_id: str) -> AuditResult:
    return audit_envelopes(match_id, await store.load(match_id))


# --- replay -----------------------------------------------------------------------------


async def replay(
    store: EventStore, match_id: str, to_version: int | None = None
) -> list[tuple[Envelope, m.MatchState]]:
    """Every version of the match up to `to_version`: each envelope and the state after it."""
    envelopes = await store.load(match_id)
    if to_version is not None:
        envelopes = envelopes[:to_version]
    if not envelopes:
        return []
    events = decode_events(game_of(envelopes), envelopes)
    out = []
    state: m.MatchState | None = None
    for env, event in zip(envelopes, events, strict=True):
        state = m.evolve(state, event)
        out.append((env, state))
    return out


# --- export / import ----------------------------------------------------------------------


class ExportHeader(msgspec.Struct, kw_only=True):
    schema: str = EXPORT_SCHEMA
    kind: Literal["header"] = "header"
    match_id: str
    game: str
    events: int
    exported_at: int


class ExportReply(msgspec.Struct, kw_only=True):
    kind: Literal["reply"] = "reply"
    command_id: str
    reply: msgspec.Raw


async def export_match(store: EventStore, match_id: str) -> list[bytes]:
    """The match as JSON lines: a header, every envelope, every recorded reply."""
    envelopes = await store.load(match_id)
    if not envelopes:
        raise LookupError(f"no match {match_id}")
    header = ExportHeader(
        match_id=match_id,
        game=game_of(envelopes),
        events=len(envelopes),
        exported_at=int(time.time() * 1000),
    )
    lines = [_ENC.encode(header)]
    lines += [_ENC.encode(e) for e in envelopes]
    # Whole, as each command was answered (the store keeps accepted ones compact).
    replies = full_replies(match_id, envelopes, await store.recorded_replies(match_id))
    for command_id, reply in sorted(replies.items()):
        lines.append(_ENC.encode(ExportReply(command_id=command_id, reply=msgspec.Raw(reply))))
    return lines


async def import_match(store: EventStore, lines: Sequence[bytes]) -> str:
    """Append an exported match to this store; refuses a broken chain or an existing id."""
    header = msgspec.json.decode(lines[0], type=ExportHeader)
    if header.schema != EXPORT_SCHEMA:
        raise ValueError(f"unknown export schema {header.schema!r}")
    envelopes: list[Envelope] = []
    replies: dict[str, bytes] = {}
    for line in lines[1:]:
        if not line.strip():
            continue
        if b'"kind":"reply"' in line[:40]:
            r = msgspec.json.decode(line, type=ExportReply)
            replies[r.command_id] = bytes(r.reply)
        else:
            envelopes.append(ENVELOPE_DECODER.decode(line))
    if len(envelopes) != header.events:
        raise ValueError(f"the file holds {len(envelopes)} events, its header says {header.events}")
    bad = first_bad_link(envelopes)
    if bad is not None:
        raise ValueError(f"the hash chain breaks at version {bad}: refusing to import")
    if await store.version(header.match_id):
        raise ValueError(f"match {header.match_id} already exists here")
    version = 0
    for group in decisions(envelopes):
        cid = group[0].command_id
        [result] = await store.append_batch(
            [AppendRequest(header.match_id, version, cid, replies.get(cid, b"{}"), group)]
        )
        if result.status != "ok":
            raise RuntimeError(f"import stopped at version {version}: {result.status}")
        version = result.version
    # Recorded rejections have no events but their replies keep the command ids idempotent.
    seen = {e.command_id for e in envelopes}
    rest = [AppendRequest(header.match_id, -1, c, r) for c, r in replies.items() if c not in seen]
    if rest:
        await store.append_batch(rest)
    return header.match_id


# --- fork -------------------------------------------------------------------------------


def move_start(envelopes: Sequence[Envelope], at_version: int) -> int:
    """`at_version` if a move ends there, else the version before the move holding it."""
    for group in decisions(envelopes):
        if group[0].version <= at_version <= group[-1].version:
            return at_version if at_version == group[-1].version else group[0].version - 1
    return at_version


async def fork_match(
    store: EventStore, origin: str, at_version: int, new_id: str, seed: int | None = None
) -> LiveMatch:
    """A new match that starts where `origin` stood at `at_version`, with a fresh seed.

    The origin's events up to that version are copied (the commands with them, so the new
    match audits too), re-chained under the new id, then `match.forked` re-seeds it. A
    version inside a move (one command's several events) is not a state anyone acted
    in: the fork starts where that move began (`move_start`), and its state's version
    says so.
    """
    recorded = await store.load(origin)
    if not 1 <= at_version <= len(recorded):
        raise LookupError(f"match {origin} has no version {at_version}")
    at_version = move_start(recorded, at_version)
    envelopes = recorded[:at_version]
    if at_version < 1:
        raise ValueError(f"match {origin} is not in play before its first move")
    live = fold_envelopes(envelopes)
    assert live is not None
    if live.state.status != "playing":
        raise ValueError(f"match {origin} is not in play at version {at_version}")
    if await store.version(new_id):
        raise ValueError(f"match {new_id} already exists")
    prev = GENESIS
    version = 0
    for group in decisions(envelopes):
        # Each copied decision gets an id of its own in the new match (ids are per match).
        command_id = f"fork:{new_id}:{version}"
        copied = seal(
            match_id=new_id,
            first_version=version + 1,
            prev=prev,
            items=[(e.type, bytes(upcast(e).payload)) for e in group],
            command_id=command_id,
            recorded_at=group[0].recorded_at,
            command=bytes(group[0].command),
        )
        request = AppendRequest(new_id, version, command_id, b"{}", copied)
        [r] = await store.append_batch([request])
        if r.status != "ok":
            raise RuntimeError(f"fork stopped at version {version}: {r.status}")
        version, prev = r.version, copied[-1].hash
    fresh = seed if seed is not None else secrets.randbits(128)
    now = int(time.time() * 1000)
    forked = m.MatchForked(
        origin=origin,
        at_version=at_version,
        seed=fresh,
        commitment=m.commitment_of(fresh),
        # A clocked match's clocks resume from the fork, not from the origin's last move.
        at=now if live.state.clock is not None else 0,
    )
    codec = m.codec(live.state.game)
    [env] = seal(
        match_id=new_id,
        first_version=version + 1,
        prev=prev,
        items=[(m.event_tag(forked), codec.encode(forked))],
        command_id=f"fork:{new_id}",
        recorded_at=now,
        command=b"null",
    )
    [r] = await store.append_batch([AppendRequest(new_id, version, env.command_id, b"{}", [env])])
    if r.status != "ok":
        raise RuntimeError(f"fork could not be re-seeded: {r.status}")
    result = fold_envelopes([env], live)
    assert result is not None
    return result


# --- the public history: what a reader may take away, and check after the finish ----------

PUBLIC_SCHEMA = "tabletop.public-history/1"


class PublicHeader(msgspec.Struct, kw_only=True):
    schema: str = PUBLIC_SCHEMA
    kind: Literal["header"] = "header"
    match_id: str
    game: str
    reader: int | None
    """The seat (0-based) whose history this is, or None for a spectator's."""
    finished: bool
    events: int


class PublicLine(msgspec.Struct, kw_only=True, omit_defaults=True):
    kind: Literal["event", "command"]
    version: int
    body: msgspec.Raw = msgspec.Raw(b"null")
    """The event as the reader saw it (None: nothing of it), or, once the match is over,
    the command that decided the versions from here."""
    at: int = 0
    """A command's time (unix ms), which the rules of a clocked match read."""


async def export_history(store: EventStore, match_id: str, reader: int | None) -> list[bytes]:
    """The match as one reader may see it, as JSON lines. While it is in play: the events
    redacted for that reader, never a seed (only its commitment). Once it is finished the
    seed is revealed in `match.finished`, and the commands come too, so anyone can check
    the commitment and re-derive every draw (`audit_history`)."""
    envelopes = [upcast(e) for e in await store.load(match_id)]
    if not envelopes:
        raise LookupError(f"no match {match_id}")
    game = game_of(envelopes)
    codec = m.codec(game)
    events = decode_events(game, envelopes)
    finished = any(isinstance(e, m.MatchFinished) for e in events)
    header = PublicHeader(
        match_id=match_id, game=game, reader=reader, finished=finished, events=len(events)
    )
    lines = [_ENC.encode(header)]
    for group in decisions(envelopes):
        if finished:
            command = msgspec.Raw(bytes(group[0].command))
            line = PublicLine(
                kind="command", version=group[0].version, body=command, at=group[0].recorded_at
            )
            lines.append(_ENC.encode(line))
        for env in group:
            shown = m.redact(game, events[env.version - 1], reader)
            body = msgspec.Raw(b"null" if shown is None else codec.encode(shown))
            lines.append(_ENC.encode(PublicLine(kind="event", version=env.version, body=body)))
    return lines


def _present(body: msgspec.Raw) -> bytes | None:
    raw = bytes(body)
    return None if raw == b"null" else raw


def audit_history(lines: Sequence[bytes]) -> AuditResult:
    """Check a public history: the seed revealed at the finish matches the commitment
    published at the start, and re-executing the commands with it gives, redacted for the
    same reader, exactly the events the reader was shown."""
    header = msgspec.json.decode(lines[0], type=PublicHeader)
    if header.schema != PUBLIC_SCHEMA:
        raise ValueError(f"unknown history schema {header.schema!r}")
    body = [msgspec.json.decode(line, type=PublicLine) for line in lines[1:] if line.strip()]
    shown = {p.version: _present(p.body) for p in body if p.kind == "event"}
    if not header.finished:
        return AuditResult(
            header.match_id, "skipped", len(shown), detail="not finished: the seed is still secret"
        )
    codec = m.codec(header.game)
    decoded = [codec.decode(bytes(b)) for b in shown.values() if b is not None]
    started = next((e for e in decoded if isinstance(e, m.MatchStarted)), None)
    done = next((e for e in decoded if isinstance(e, m.MatchFinished)), None)
    if started is None or done is None or done.seed is None:
        return AuditResult(header.match_id, "mismatch", len(shown), detail="no start or reveal")
    if m.commitment_of(done.seed) != started.commitment:
        return AuditResult(
            header.match_id,
            "tampered",
            len(shown),
            detail="the revealed seed breaks its commitment",
        )
    edition, rules = m.recorded_editions(decoded)
    state: m.MatchState | None = None
    version = 0
    for line in body:
        if line.kind != "command":
            continue
        raw = bytes(line.body)
        if raw == b"null":
            # A fork's re-seeding has no command: its event is the whole decision.
            event = codec.decode(shown.get(line.version) or b"null")
            again: list[Any] = [event]
        else:
            try:
                again = m.decide(state, _COMMANDS.decode(raw), now=line.at or None, edition=edition)
            except Exception as err:
                return AuditResult(
                    header.match_id, "mismatch", len(shown), line.version, f"decide refused: {err}"
                )
        for event in again:
            version += 1
            seen = m.redact(header.game, event, header.reader)
            expected = None if seen is None else codec.encode(seen)
            if shown.get(version) != expected:
                return AuditResult(
                    header.match_id, "mismatch", len(shown), version, "the events differ"
                )
        state = m.as_of_edition(m.fold(again, state), rules)
    if version != len(shown):
        return AuditResult(
            header.match_id, "mismatch", len(shown), version, "the history has other events"
        )
    return AuditResult(header.match_id, "ok", len(shown))
