"""The envelope every stored event travels in, its hash-chain link, and the codecs.

The payload is the event's own JSON (the game's tagged Struct), kept as raw bytes so
this layer never needs to know a game. Each envelope carries the hash of its
predecessor's envelope: changing one stored payload breaks every later link, which is
what `tabletop audit` checks first.
"""

from __future__ import annotations

import hashlib

import msgspec

SCHEMA_VERSION = 2
GENESIS = "0" * 32


class Envelope(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    version: int
    type: str
    payload: msgspec.Raw
    command_id: str = ""
    recorded_at: int = 0  # unix milliseconds, set by the command service
    schema: int = SCHEMA_VERSION
    prev: str = GENESIS
    hash: str = ""
    # The command that caused this batch of events, on the batch's first envelope only
    # (audit re-executes it); empty on the others.
    command: msgspec.Raw = msgspec.Raw(b"null")


def link(
    *,
    prev: str,
    match_id: str,
    version: int,
    type: str,
    payload: bytes,
    command_id: str,
    recorded_at: int,
    schema: int,
    command: bytes,
) -> str:
    """The hash of one envelope's content chained to its predecessor's hash.

    The fields are framed by MessagePack (lengths included, so no two contents frame the
    same) in one C call, then hashed once: this runs for every event on the hot path."""
    framed = _FRAME.encode(
        (prev, match_id, version, type, payload, command_id, recorded_at, schema, command)
    )
    return hashlib.blake2b(framed, digest_size=16).hexdigest()


_FRAME = msgspec.msgpack.Encoder()


def expected_hash(env: Envelope) -> str:
    return link(
        prev=env.prev,
        match_id=env.match_id,
        version=env.version,
        type=env.type,
        payload=bytes(env.payload),
        command_id=env.command_id,
        recorded_at=env.recorded_at,
        schema=env.schema,
        command=bytes(env.command),
    )


def seal(
    *,
    match_id: str,
    first_version: int,
    prev: str,
    items: list[tuple[str, bytes]],
    command_id: str,
    recorded_at: int,
    command: bytes,
) -> list[Envelope]:
    """Envelopes for one decision's events, versions from `first_version`, each linked."""
    out: list[Envelope] = []
    for i, (type_, payload) in enumerate(items):
        cmd = command if i == 0 else b"null"
        version = first_version + i
        digest = link(
            prev=prev,
            match_id=match_id,
            version=version,
            type=type_,
            payload=payload,
            command_id=command_id,
            recorded_at=recorded_at,
            schema=SCHEMA_VERSION,
            command=cmd,
        )
        out.append(
            Envelope(
                match_id=match_id,
                version=version,
                type=type_,
                payload=msgspec.Raw(payload),
                command_id=command_id,
                recorded_at=recorded_at,
                prev=prev,
                hash=digest,
                command=msgspec.Raw(cmd),
            )
        )
        prev = digest
    return out


def first_bad_link(envelopes: list[Envelope]) -> int | None:
    """The version of the first envelope whose hash or link does not hold, else None."""
    prev = GENESIS
    for env in envelopes:
        if env.prev != prev or expected_hash(env) != env.hash:
            return env.version
        prev = env.hash
    return None


ENVELOPE_ENCODER = msgspec.json.Encoder()
ENVELOPE_DECODER = msgspec.json.Decoder(Envelope)
