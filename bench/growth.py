"""5. Growth: match load time by length, with and without snapshots; projection rebuild
rate over a long log; memory per live match in the service's cache."""

from __future__ import annotations

import asyncio
import gc
import resource
import statistics
import time
import uuid
from typing import Any

import msgspec

from bench.common import BenchConfig, Lab, cpu_seconds
from bench.prepare import PreparedMatch, prepare_match, read_prepared

# Seeds known to give a match of 10,000 events or more (the search starts with them).
_LONG_SEEDS = {("threethirteen", 2): (19,)}


def long_match(cfg: BenchConfig, target: int, deadline_s: float = 60) -> tuple[str, Any]:
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
        for (r,) in await pipe.execute():  # one decision a call
            if r[0] not in (b"ok", "ok"):
                raise RuntimeError(f"append refused: {r!r}")


def _renamed(pm: PreparedMatch, match_id: str, partitions: int, at: int) -> list[Any]:
    """The match's decisions re-sealed under another id (so the hash chain holds), as the
    append script's keys and arguments."""
    from events.envelope import GENESIS, seal
    from events.redis_store import append_call
    from events.store import AppendRequest

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
        out.append(
            append_call(AppendRequest(match_id, version - 1, cid, d.reply, envs), partitions)
        )
        version += len(envs)
        prev = envs[-1].hash
    return out


def run_load_times(cfg: BenchConfig, url: str) -> dict[str, Any]:
    """Load time by match length, without and with a snapshot (tail of snapshot_every-1
    events, the worst case when the service snapshots every `snapshot_every`)."""
    from redis.asyncio import Redis

    from domain import match as m
    from events.matches import decode_events, load_match
    from events.redis_store import APPEND_LUA
    from events.store import Snapshot
    from services import compose
    from services.infra.config import Settings

    biggest = max(cfg.growth_sizes)
    game, pm = long_match(cfg, biggest)
    total = sum(len(d.items) for d in pm.decisions)
    at = int(time.time() * 1000)

    async def go() -> dict[str, Any]:
        redis = Redis.from_url(url)
        await redis.flushall()
        sha = await redis.script_load(APPEND_LUA)
        store = compose.event_store(Settings(redis_url=url, partitions=cfg.partitions), redis)
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
    appended through the Lua script in pipelines), then the matches projection rebuilt
    as the CLI rebuilds it: by a process per core (`rebuild_workers` to choose)."""
    from redis.asyncio import Redis

    from bench.end_to_end import server_pids
    from events.keys import Keys
    from events.redis_store import APPEND_LUA
    from services import compose
    from services.infra.config import Settings
    from services.readside.rebuild import rebuild_apart, workers_for

    matches = read_prepared(lab.prep_path)
    server = compose.embedded_server(lab.tmp / "redis-rebuild")

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
            log_entries += await redis.xlen(Keys(p).log)
            # As a projector that kept up leaves a log: applied to its head, each event's
            # notices sent then. A rebuild sends none again (it keeps the notice marks);
            # without this it would take the log for new and stream every notice.
            found: Any = await redis.xrevrange(Keys(p).log, count=1)
            await redis.set(Keys(p).rm_checkpoint, found[0][0])
        await redis.aclose()
        return {
            "log_events": log_entries,
            "generate_seconds": round(generated, 1),
            "generate_events_per_s": round(log_entries / generated),
        }

    async def used_memory() -> int:
        redis = Redis.from_url(server.url)
        try:
            return int((await redis.info("memory")).get("used_memory", 0))
        finally:
            await redis.aclose()

    def rebuild() -> dict[str, Any]:
        out = asyncio.run(go())
        # As `tabletop projections rebuild` does: a process per core for a log this long.
        workers = cfg.rebuild_workers or workers_for(out["log_events"])
        settings = Settings(redis_url=server.url, partitions=cfg.partitions)
        redis_pids = server_pids(server)
        redis0 = sum(cpu_seconds(pid) for pid in redis_pids)
        children0, own0 = _children_cpu(), _own_cpu()
        t1 = time.perf_counter()
        applied = rebuild_apart(settings, "matches", workers)
        seconds = time.perf_counter() - t1
        workers_cpu = _children_cpu() - children0 + _own_cpu() - own0
        redis_cpu = sum(cpu_seconds(pid) for pid in redis_pids) - redis0
        return {
            **out,
            "applied": applied,
            "workers": workers,
            # Cores kept busy: the rebuilding processes (this one among them; the others
            # reaped, so counted whole), Redis.
            "workers_cores": round(workers_cpu / seconds, 2),
            "redis_cores": round(redis_cpu / seconds, 2),
            "seconds": round(seconds, 1),
            "events_per_s": round(applied / seconds),
            "redis_used_memory_mb": round(asyncio.run(used_memory()) / 2**20),
            "projection": "matches",
        }

    try:
        return rebuild()
    finally:
        server.stop()


def _own_cpu() -> float:
    """User + system CPU seconds of this process."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def _children_cpu() -> float:
    """User + system CPU seconds of this process's children that have ended."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_memory_per_match(cfg: BenchConfig, lab: Lab, count: int) -> dict[str, Any]:
    """Bytes per LiveMatch held in the command service's cache (tracemalloc), the matches
    taken mid-game, as the service holds them while they are played."""
    import tracemalloc

    from domain import match as m
    from events.envelope import Envelope
    from events.matches import LiveMatch, fold_envelopes
    from services.commands.application import MatchCache

    matches = read_prepared(lab.prep_path)[:count]
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
