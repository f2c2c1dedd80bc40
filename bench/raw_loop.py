"""2. The practical limit: a plain redis-py loop doing the same Redis work per command
(XREADGROUP a batch, the same Lua append with the same arguments, the same reply, XACK),
with no framework and no rules."""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any

import msgspec

from bench.load import finish
from bench.prepare import read_prepared


class _CommandHead(msgspec.Struct):
    command_id: str
    reply_to: str
    sent_at: float = 0.0


def raw_child(url: str, prep_path: str, partitions: int, q: Any, stop: Any) -> None:
    finish(q, "raw", asyncio.run(_raw_loop(url, prep_path, partitions, q, stop)))


async def _raw_loop(url: str, prep_path: str, partitions: int, q: Any, stop: Any) -> dict[str, Any]:
    """The practical limit: read a batch, one Lua append per command (the service's own
    script and arguments), its reply, one XACK per stream; no framework, no rules."""
    from redis.asyncio import Redis
    from redis.exceptions import ResponseError

    from events.keys import Keys
    from events.redis_store import APPEND_LUA

    matches = read_prepared(prep_path)
    table = {d.command_id: d for pm in matches for d in pm.decisions}
    del matches
    decode = msgspec.json.Decoder(_CommandHead).decode
    redis = Redis.from_url(url)
    sha = await redis.script_load(APPEND_LUA)
    streams: dict[Any, Any] = {Keys(p).commands: ">" for p in range(partitions)}
    for name in streams:
        with contextlib.suppress(ResponseError):
            await redis.xgroup_create(name, "raw", id="0", mkstream=True)
    q.put(("ready", "raw", os.getpid(), None))
    handled = 0
    while not stop.is_set():
        found: Any = await redis.xreadgroup("raw", "raw-1", streams, count=500, block=100)
        if not found:
            continue
        pipe = redis.pipeline(transaction=False)
        for stream, entries in found:
            for _eid, fields in entries:
                head = decode(fields[b"c"])
                d = table[head.command_id]
                pipe.evalsha(sha, len(d.keys), *d.keys, *d.args)
                reply = d.reply[:-1] + b',"sent_at":' + repr(head.sent_at).encode() + b"}"
                pipe.xadd(head.reply_to, {"r": reply}, maxlen=100_000, approximate=True)
            pipe.xack(stream, "raw", *[eid for eid, _ in entries])
            handled += len(entries)
        await pipe.execute()
    await redis.aclose()
    return {"handled": handled}
