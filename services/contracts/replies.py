"""What the store records of a reply (idempotency), and the reply read back from it.

An accepted command's reply repeats its events, which the match stream holds already:
recorded whole, replies were an eighth of a live match's Redis memory, and a hash of
values over 64 bytes leaves Redis's compact encoding. So an accepted reply is recorded
as its version range, the sender's seat and its `sent_at` (`RecordedAccept`, a JSON
array of four numbers), and a duplicate is answered with its events read back from the
match and redacted for that seat again: byte for byte what the first delivery got. A
rejection, and any reply recorded before this form, is kept whole (a JSON object).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from domain import match as m
from events.envelope import Envelope
from events.matches import decode_events, game_of
from events.store import EventStore
from services.contracts.messages import ENCODER, Reply


class RecordedAccept(msgspec.Struct, array_like=True, frozen=True):
    """An accepted command's reply as the store keeps it."""

    version: int  # the match's version after the command
    events: int  # how many events it appended: versions version - events + 1 .. version
    seat: int | None  # the sender's seat, whose redaction the reply's events had
    sent_at: float | None = None  # None: the reply left it out


_RECORDED = msgspec.json.Decoder(RecordedAccept)
# A Reply leaves `sent_at` out only when it holds this very default (msgspec's
# omit_defaults compares by identity), so a sent 0.0 is echoed and the default is not.
_NO_CLOCK = next(f.default for f in msgspec.structs.fields(Reply) if f.name == "sent_at")


def recorded_accept(reply: Reply, events: int, seat: int | None) -> bytes:
    sent = None if reply.sent_at is _NO_CLOCK else reply.sent_at
    return ENCODER.encode(RecordedAccept(reply.version, events, seat, sent))


def is_compact(recorded: bytes) -> bool:
    return recorded[:1] == b"["


async def full_reply(
    store: EventStore, match_id: str, command_id: str, recorded: bytes, game: str | None = None
) -> bytes:
    """The reply a command got, from what the store recorded of it. `game`, when the
    caller knows it, saves reading the match from its start."""
    if not is_compact(recorded):
        return recorded
    kept = _RECORDED.decode(recorded)
    first = kept.version - kept.events
    if game is None:
        whole = await store.load(match_id)
        return _rebuilt(match_id, command_id, kept, game_of(whole), whole[first:])
    return _rebuilt(match_id, command_id, kept, game, await store.load(match_id, first))


def full_replies(
    match_id: str, envelopes: Sequence[Envelope], recorded: Mapping[str, bytes]
) -> dict[str, bytes]:
    """Every recorded reply of a match read back whole, from its envelopes (all of them)."""
    game = game_of(envelopes) if envelopes else ""
    out = {}
    for command_id, raw in recorded.items():
        if is_compact(raw):
            kept = _RECORDED.decode(raw)
            after = envelopes[kept.version - kept.events :]
            raw = _rebuilt(match_id, command_id, kept, game, after)
        out[command_id] = raw
    return out


def _rebuilt(
    match_id: str, command_id: str, kept: RecordedAccept, game: str, after: Sequence[Envelope]
) -> bytes:
    """The accepted reply, from the envelopes that follow the version before it."""
    envelopes = after[: kept.events]
    if len(envelopes) != kept.events:
        raise LookupError(f"match {match_id} lacks the events of command {command_id}")
    codec = m.codec(game)
    shown = []
    for env, event in zip(envelopes, decode_events(game, envelopes), strict=True):
        red = m.redact(game, event, kept.seat)
        if red is not None:
            # As the first reply did: the stored encoding where nothing is hidden.
            shown.append(msgspec.Raw(bytes(env.payload) if red is event else codec.encode(red)))
    reply = Reply(
        command_id=command_id,
        match_id=match_id,
        status="accepted",
        version=kept.version,
        events=shown,
    )
    if kept.sent_at is not None:
        reply.sent_at = kept.sent_at
    return ENCODER.encode(reply)
