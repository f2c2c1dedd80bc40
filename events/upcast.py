"""Upcasters: a stored event keeps the schema version it was written under; readers
upcast it step by step to the current shape before decoding. Stored bytes never change
(the hash chain covers them), so audit reads the raw envelope and folds the upcast one.

Schema history:
- 1 -> 2: `match.created` named its seat count `seat_count`; it is `seats` now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from events.envelope import SCHEMA_VERSION, Envelope

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def upcaster(event_type: str, from_schema: int) -> Callable[[Upcaster], Upcaster]:
    """Register the step that takes `event_type` from `from_schema` to the next one."""

    def register(fn: Upcaster) -> Upcaster:
        _UPCASTERS[(event_type, from_schema)] = fn
        return fn

    return register


def upcast(env: Envelope) -> Envelope:
    """The envelope with its payload in the current schema (the same object if it is)."""
    if env.schema >= SCHEMA_VERSION:
        return env
    body: dict[str, Any] = msgspec.json.decode(env.payload)
    for schema in range(env.schema, SCHEMA_VERSION):
        step = _UPCASTERS.get((env.type, schema))
        if step is not None:
            body = step(body)
    return msgspec.structs.replace(
        env, payload=msgspec.Raw(msgspec.json.encode(body)), schema=SCHEMA_VERSION
    )


@upcaster("match.created", 1)
def _seat_count_renamed_seats(body: dict[str, Any]) -> dict[str, Any]:
    body = dict(body)
    if "seat_count" in body:
        body["seats"] = body.pop("seat_count")
    return body
