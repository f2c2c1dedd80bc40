"""The load generator, a process of its own: several connections, each sending a match's
next command when its previous reply arrives, timing each reply from its `sent_at`."""

from __future__ import annotations

import asyncio
import collections
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

import msgspec

from bench.common import peak_rss_mb
from bench.prepare import PreparedMatch, read_prepared


def finish(q: Any, role: str, result: dict[str, Any]) -> None:
    """Send a child's result and leave at once: nothing left to clean up may hang it."""
    result["peak_rss_mb"] = peak_rss_mb(os.getpid())
    q.put(("result", role, os.getpid(), result))
    q.close()
    q.join_thread()
    sys.stderr.flush()
    os._exit(0)


async def bounded(coro: Any, seconds: float = 5.0) -> bool:
    """Await a shutdown for at most `seconds`; False when it hung (reported, not waited)."""
    task = asyncio.ensure_future(coro)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    return bool(done)


class _ReplyHead(msgspec.Struct):
    command_id: str
    match_id: str
    status: str
    sent_at: float = 0.0
    code: str = ""


_HEAD = msgspec.json.Decoder(_ReplyHead)
PACING_TICK = 0.002  # seconds between a paced generator's sends


def generator_child(
    url: str,
    prep_path: str,
    lanes: int,
    stall: float,
    q: Any,
    go: Any,
    limit: int = 0,
    rate: float = 0.0,
) -> None:
    run = _generate(url, prep_path, lanes, stall, q, go, limit, rate)
    finish(q, "generator", asyncio.run(run))


async def _generate(
    url: str,
    prep_path: str,
    lanes: int,
    stall: float,
    q: Any,
    go: Any,
    limit: int = 0,
    rate: float = 0.0,
) -> dict[str, Any]:
    """Closed loop (rate 0): each match's next command goes as its reply arrives. Paced:
    a match's next command is ready when its reply arrives, and one pacer sends the
    ready commands, oldest first, at `rate` a second in ticks of PACING_TICK; a command
    waiting for its turn is stamped when it goes, so latency is the service's."""
    from events.keys import Keys, reply_stream
    from services.infra import collector
    from services.infra.redisconn import connect

    matches: list[PreparedMatch] = read_prepared(prep_path)
    if limit:
        matches = matches[:limit]
    # What each lane sends: the command JSON, framed as a CommandMessage at send time.
    plans = []
    for k in range(lanes):
        reply_to = reply_stream(f"bench-{k}")
        mine = []
        for pm in matches[k::lanes]:
            mid = pm.match_id.encode()
            head = b'{"command_id":"' + mid + b"."
            middle = b'","match_id":"' + mid + b'","reply_to":"' + reply_to.encode()
            middle += b'","command":'
            mine.append((pm.match_id, Keys(pm.partition).commands, head, middle, pm.decisions))
        plans.append((reply_to, mine))
    total = sum(len(pm.decisions) for pm in matches)
    # The generator is the platform's side: it packs with hiredis as the services do.
    clients = [(connect(url), connect(url)) for _ in range(lanes)]
    for sender, listen in clients:
        await sender.ping()
        await listen.ping()
    del matches
    # Its own full collections walked every prepared command: one took 350 ms mid-run,
    # read as a stall of the service. Settled as the services settle theirs.
    collector.settle()
    q.put(("ready", "generator", os.getpid(), None))
    while not go.is_set():
        await asyncio.sleep(0.005)
    latencies: list[float] = []
    rejected: dict[str, int] = {}
    done_at: list[float] = []
    # Paced: the commands ready to go, oldest first, sent by one pacer for every lane.
    ready: collections.deque[tuple[Any, int]] = collections.deque()
    pacer = connect(url) if rate else None
    t0 = time.time()

    def body(entry: Any, i: int, stamp: bytes) -> bytes:
        _, _, head, middle, decisions = entry
        return b"".join(
            (head, str(i).encode(), middle, decisions[i].command, b',"sent_at":', stamp, b"}")
        )

    async def send(client: Any, due: Sequence[tuple[Any, int]]) -> None:
        pipe = client.pipeline(transaction=False)
        stamp = repr(time.time()).encode()
        for entry, i in due:
            pipe.xadd(entry[1], {"c": body(entry, i, stamp)})
        await pipe.execute()

    async def pace(finished: asyncio.Event) -> None:
        """Every tick, send what the rate allows of what is ready, in one pipeline: a
        sender waking per command would cost the machine more than the service does."""
        started = time.monotonic()
        sent = 0
        while not finished.is_set():
            due = min(len(ready), int((time.monotonic() - started) * rate) + 1 - sent)
            if due > 0:
                await send(pacer, [ready.popleft() for _ in range(due)])
                sent += due
            await asyncio.sleep(PACING_TICK)

    async def lane(k: int) -> None:
        reply_to, mine = plans[k]
        sender, listen = clients[k]
        by_id = {entry[0]: entry for entry in mine}
        pos = dict.fromkeys(by_id, 0)
        first = [(entry, 0) for entry in mine]
        if rate:
            ready.extend(first)
        else:
            await send(sender, first)
        remaining = len(mine)
        last: bytes | str = b"0-0"
        quiet_since = time.monotonic()
        while remaining:
            found: Any = await listen.xread({reply_to: last}, block=1000, count=2000)
            if not found:
                if time.monotonic() - quiet_since > stall:
                    raise RuntimeError(f"lane {k}: no reply for {stall:.0f} s, {remaining} left")
                continue
            quiet_since = time.monotonic()
            now = time.time()
            entries = found[0][1]
            last = entries[-1][0]
            following: list[tuple[Any, int]] = []
            for _eid, fields in entries:
                h = _HEAD.decode(fields[b"r"])
                latencies.append(now - h.sent_at)
                if h.status != "accepted":
                    rejected[h.code or h.status] = rejected.get(h.code or h.status, 0) + 1
                entry = by_id[h.match_id]
                i = pos[h.match_id]
                if h.command_id != f"{h.match_id}.{i}":
                    continue  # a re-delivered reply: not the command awaited
                i += 1
                pos[h.match_id] = i
                if i < len(entry[4]):
                    following.append((entry, i))
                else:
                    remaining -= 1
            if rate:
                ready.extend(following)
            elif following:
                await send(sender, following)
        done_at.append(time.time())

    error = ""
    finished = asyncio.Event()
    pacing = asyncio.create_task(pace(finished)) if rate else None
    try:
        await asyncio.gather(*(lane(k) for k in range(lanes)))
    except Exception as err:  # reported, not raised: the parent stops the others
        error = repr(err)
    finished.set()
    if pacing is not None:
        await pacing
    t1 = max(done_at) if done_at and not error else time.time()
    for sender, listen in clients:
        await sender.aclose()
        await listen.aclose()
    if pacer is not None:
        await pacer.aclose()
    return {
        "commands": total,
        "replies": len(latencies),
        "seconds": t1 - t0,
        "t0": t0,
        "t1": t1,
        "latencies": latencies,
        "rejected": rejected,
        "error": error,
    }
