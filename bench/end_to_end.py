"""1. End to end: M concurrent matches through the real command streams, with the command
service(s) and the projector running, each in a process of its own; the same run against
a Redis with `appendfsync always`."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing as mp
import os
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bench.common import Lab, cpu_seconds, peak_rss_mb, percentile, quiet_logs
from bench.load import bounded, finish, generator_child
from bench.profile import start_profile, stop_profile
from bench.raw_limit import command_costs
from services.infra import loop


def service_child(url: str, settings: dict[str, Any], q: Any, stop: Any) -> None:
    quiet_logs()
    loop.run(_serve(url, settings, q, stop))


async def _serve(url: str, settings: dict[str, Any], q: Any, stop: Any) -> None:
    from domain.kernel import games
    from services import compose
    from services.infra import collector
    from services.infra.config import Settings

    games()  # import every game now, not during the first measured command
    # The bench is its own referee: its seeded loads repeat from run to run.
    service = compose.command_service(Settings(redis_url=url, trust_seeds=True, **settings))
    await service.start()
    # As `tabletop serve` leaves its heap once everything has started: without it, full
    # collections walked the match cache every 2-3 s (up to 43 ms each, a burst of slow
    # replies behind each).
    collector.settle()
    q.put(("ready", "service", os.getpid(), None))
    while not stop.is_set():
        await asyncio.sleep(0.05)
    stats = dict(service.processor.stats)
    cached = len(service.processor.cache)
    stopped = await bounded(service.stop())
    finish(q, "service", {"stats": stats, "cached_matches": cached, "stopped": stopped})


def projector_child(url: str, partitions: int, q: Any, stop: Any) -> None:
    quiet_logs()
    loop.run(_project(url, partitions, q, stop))


async def _project(url: str, partitions: int, q: Any, stop: Any) -> None:
    from domain.kernel import games
    from services import compose
    from services.infra import collector
    from services.infra.config import Settings

    games()
    settings = Settings(redis_url=url, partitions=partitions)
    compose.give_way(settings)  # a process of its own, as `serve --no-commands` runs it
    redis = compose.redis_client(settings)  # the services' own client, as `serve` runs it
    projector = compose.projector(settings, redis)
    lags: dict[str, list[float]] = {}
    for projection in projector.projections:
        _instrument(projection, lags.setdefault(projection.name, []))
    projector.start()
    collector.settle()  # as `tabletop serve` does
    q.put(("ready", "projector", os.getpid(), None))
    while not stop.is_set():
        await asyncio.sleep(0.05)
    stopped = await bounded(projector.stop())
    finish(q, "projector", {"lags_ms": lags, "stopped": stopped})


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


async def reset(url: str) -> None:
    """An empty database and a small AOF, so every run starts from the same state."""
    from redis.asyncio import Redis

    from services.infra.redisconn import connect, is_cluster_url

    if is_cluster_url(url):  # a fresh cluster per run (bench/cluster.py): empty it only
        cluster = connect(url)
        await cluster.flushall()
        await cluster.aclose()
        return
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


async def redis_info(url: str) -> dict[str, Any]:
    from redis.asyncio import Redis

    from services.infra.redisconn import ClusterAddress, is_cluster_url

    if is_cluster_url(url):
        # Every node's counters, added up (the masters' peaks too): a cluster's totals.
        total: dict[str, Any] = {}
        for host, port in ClusterAddress(url).nodes:
            one = await redis_info(f"redis://{host}:{port}")
            for k in ("total_commands_processed", "used_memory_peak"):
                total[k] = total.get(k, 0) + int(one.get(k, 0))
            total.setdefault("appendfsync", one["appendfsync"])
            total.setdefault("redis_version", one.get("redis_version", "?"))
        return total
    redis = Redis.from_url(url)
    info = await redis.info()
    found = await redis.config_get("appendfsync")
    info["appendfsync"] = found.get("appendfsync") or "?"
    await redis.aclose()
    return info


async def redis_cpu_info(url: str) -> dict[str, Any]:
    """INFO commandstats and stats of one server (a cluster's: empty, not added up)."""
    from redis.asyncio import Redis

    from services.infra.redisconn import is_cluster_url

    if is_cluster_url(url):
        return {}
    redis = Redis.from_url(url)
    info = await redis.info("commandstats")
    info.update(await redis.info("stats"))
    info.update(await redis.info("memory"))
    await redis.aclose()
    return info


async def projected_everything(url: str, partitions: int) -> bool:
    from events.keys import RATINGS, Keys
    from services.infra.redisconn import connect

    redis = connect(url)
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


def server_pids(server: Any) -> list[int]:
    """The redis-server processes of the lab: one embedded server, or a cluster's nodes."""
    nodes = getattr(server, "nodes", None)
    if nodes is not None:
        return [n.process.pid for n in nodes if n.process is not None]
    return [server.process.pid]


def next_message(q: Any, procs: Sequence[Any], deadline: float) -> tuple[str, str, int, Any]:
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
    split: Sequence[Sequence[int]] | None = None,
    rate: float = 0.0,
    projector_after: bool = False,
) -> dict[str, Any]:
    """One run: `workers` command services + the projector (mode `tabletop`), or the
    peer service (mode `peer`), + the load generator, each a process; the figures.

    Several services split the partitions between them (`command_partitions`: p mod N,
    or the groups `split` gives), unless `shared_group`: then every service reads every
    partition through the one group. `rate`: the generator paces its commands to that
    many a second (0: each match's next command as soon as its reply arrives).
    `projector_after`: the roles in turn, to tell their Redis costs apart: the projector
    starts once the last reply is in, and its catch-up is measured on its own."""
    cfg = lab.cfg
    asyncio.run(reset(lab.url))
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
            if split is not None:
                kw["command_partitions"] = list(split[i])
            elif workers > 1 and not shared_group:
                kw["command_partitions"] = [p for p in range(cfg.partitions) if p % workers == i]
            procs.append(ctx.Process(target=service_child, args=(lab.url, kw, q, stop)))
        project = ctx.Process(target=projector_child, args=(lab.url, cfg.partitions, q, stop))
        if not projector_after:
            procs.append(project)
    elif mode == "peer":
        from bench.peer_service import peer_child, peer_db

        db = str(peer_db(lab.tmp))
        peer_args = (lab.url, cfg.partitions, db, limit or cfg.matches, q, stop)
        procs.append(ctx.Process(target=peer_child, args=peer_args))
    else:
        raise ValueError(f"no end-to-end mode {mode!r}")
    gen = ctx.Process(
        target=generator_child,
        args=(lab.url, lab.prep_path, cfg.lanes, cfg.stall_seconds, q, go, limit, rate),
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
            kind, role, pid, data = next_message(q, [*procs, gen], deadline)
            if kind == "ready":
                roles[pid] = role
            elif kind == "result":
                results[pid] = (role, data)
        redis_pids = server_pids(lab.server)
        watched = [*roles, *redis_pids]
        info0 = asyncio.run(redis_info(lab.url))
        stats0 = asyncio.run(redis_cpu_info(lab.url))
        cpu0 = {pid: cpu_seconds(pid) for pid in watched}
        if profile:
            profile_proc = start_profile(lab, next(p for p, r in roles.items() if r == "service"))
        t_go = time.time()
        go.set()
        gen_result: dict[str, Any] | None = None
        while gen_result is None:
            kind, role, pid, data = next_message(q, [*procs, gen], time.monotonic() + 3600)
            if kind == "result" and role == "generator":
                gen_result = data
                results[pid] = (role, {"peak_rss_mb": data.get("peak_rss_mb", 0)})
            elif kind == "result":
                results[pid] = (role, data)
        t_end = time.time()
        cpu1 = {pid: cpu_seconds(pid) for pid in watched}
        stats1 = asyncio.run(redis_cpu_info(lab.url))
        if profile_proc is not None:
            stop_profile(lab, profile_proc)
        caught_up = None
        caught_up_bound = 0.0
        alone: dict[str, Any] = {}
        if mode == "tabletop" and projector_after and not gen_result["error"]:
            # Redis from before the projector starts; the projector's own CPU from its
            # ready message (its imports left out, a first batch perhaps too).
            alone["redis_cpu0"] = sum(cpu_seconds(p) for p in redis_pids)
            alone["stats0"] = asyncio.run(redis_cpu_info(lab.url))
            alone["t0"] = time.time()
            procs.append(project)
            project.start()
            kind, role, project_pid, data = next_message(q, procs, time.monotonic() + 120)
            roles[project_pid] = role
            watched.append(project_pid)
            cpu1[project_pid] = cpu0[project_pid] = cpu_seconds(project_pid)
        if mode == "tabletop" and not gen_result["error"]:
            waited = time.time()
            wait_limit = 30 if cfg.quick else 180
            while time.time() - waited < wait_limit:
                if asyncio.run(projected_everything(lab.url, cfg.partitions)):
                    caught_up = time.time() - t_end
                    break
                time.sleep(0.1)
            if caught_up is None:
                caught_up_bound = time.time() - t_end
        if alone:
            alone["seconds"] = time.time() - alone["t0"]
            alone["redis_cpu"] = sum(cpu_seconds(p) for p in redis_pids) - alone["redis_cpu0"]
            alone["stats1"] = asyncio.run(redis_cpu_info(lab.url))
            alone["projector_cpu"] = cpu_seconds(project_pid) - cpu0[project_pid]
        peaks = {pid: peak_rss_mb(pid) for pid in watched}
        info1 = asyncio.run(redis_info(lab.url))
        stop.set()
        while len(results) < len(procs) + 1:
            try:
                kind, role, pid, data = next_message(q, [], time.monotonic() + 60)
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
            "pid": redis_pids[0],
            "nodes": len(redis_pids),
            "cpu_util": round(sum(cpu1[p] - cpu0[p] for p in redis_pids) / wall, 3),
            "peak_rss_mb": round(sum(peaks[p] for p in redis_pids), 1),
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
        "reply_p50_ms": round(percentile(lat, 50), 2),
        "reply_p95_ms": round(percentile(lat, 95), 2),
        "reply_p99_ms": round(percentile(lat, 99), 2),
        "rejected": gen_result["rejected"],
        "processes": processes,
        "redis_commands": int(
            info1.get("total_commands_processed", 0) - info0.get("total_commands_processed", 0)
        ),
        "cpu_util_total": round(sum(p["cpu_util"] for p in processes), 2),
        # CPU time of the command services (or the peer) per command: what one
        # command costs, whatever else competes for the cores.
        "handler_cpu_us_per_cmd": round(
            1e6
            * sum(cpu1[p] - cpu0[p] for p, r in roles.items() if r in ("service", "peer"))
            / max(1, gen_result["replies"]),
            1,
        ),
        "generator_saturated": any(
            p["role"] == "generator" and p["cpu_util"] >= 0.9 for p in processes
        ),
        "paced_cmds_per_s": rate,
    }
    redis_cpu = sum(cpu1[p] - cpu0[p] for p in redis_pids)
    replies = max(1, gen_result["replies"])
    # CPU per command of each role during the run (the projector's catch-up after it is
    # left out; with the roles in turn, its catch-up alone is).
    per_role: dict[str, float] = {"redis-server": 1e6 * redis_cpu / replies}
    for pid, role in roles.items():
        per_role[role] = per_role.get(role, 0.0) + 1e6 * (cpu1[pid] - cpu0[pid]) / replies
    if alone:
        per_role["projector"] = 1e6 * alone["projector_cpu"] / replies
        per_role["redis-server"] += 1e6 * alone["redis_cpu"] / replies
    out["cpu_us_per_cmd"] = {role: round(v, 1) for role, v in sorted(per_role.items())}
    out["redis_us_per_cmd_during_run"] = round(1e6 * redis_cpu / replies, 1)
    if stats0 and stats1:
        out["redis_commandstats"] = command_costs(stats0, stats1, replies)
        out["redis_net_bytes_per_cmd"] = _net_bytes(stats0, stats1, replies)
    if alone:
        # The roles in turn: what Redis spent for the service and its client while they
        # ran alone, then for the projector catching up alone over the same log.
        out["roles_in_turn"] = {
            "service_and_client": {
                "redis_us_per_cmd": round(1e6 * redis_cpu / replies, 1),
                "redis_net_bytes_per_cmd": _net_bytes(stats0, stats1, replies),
                "redis_commandstats": command_costs(stats0, stats1, replies),
            },
            "projector": {
                "seconds": round(alone["seconds"], 2),
                "redis_us_per_cmd": round(1e6 * alone["redis_cpu"] / replies, 1),
                "projector_cpu_us_per_cmd": round(1e6 * alone["projector_cpu"] / replies, 1),
                "redis_net_bytes_per_cmd": _net_bytes(alone["stats0"], alone["stats1"], replies),
                "redis_commandstats": command_costs(alone["stats0"], alone["stats1"], replies),
            },
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
        out["projection_lag_p50_ms"] = round(percentile(lags.get("matches", []), 50), 1)
        out["projection_lag_p99_ms"] = round(percentile(lags.get("matches", []), 99), 1)
        out["projection_lag_p99_ms_any"] = round(percentile(every, 99), 1)
        out["projected_events"] = len(lags.get("matches", []))
        out["projector_caught_up_after_s"] = round(caught_up, 2) if caught_up is not None else None
        # Sustained: the rate at which the projector is within one second of the last
        # reply. The catch-up beyond that second counts as time the load took; a
        # projector that never caught up gives a bound (the time waited) instead.
        behind = max(0.0, (caught_up if caught_up is not None else caught_up_bound) - 1.0)
        if not projector_after:
            out["sustained_cmds_per_s"] = round(
                gen_result["replies"] / (gen_result["seconds"] + behind), 1
            )
            out["sustained_is_upper_bound"] = caught_up is None
    return out


def _net_bytes(before: dict[str, Any], after: dict[str, Any], commands: int) -> dict[str, float]:
    """Bytes Redis read and wrote on its connections, per command handled."""
    return {
        "in": round((after["total_net_input_bytes"] - before["total_net_input_bytes"]) / commands),
        "out": round(
            (after["total_net_output_bytes"] - before["total_net_output_bytes"]) / commands
        ),
    }


def run_fsync_always(lab: Lab) -> dict[str, Any]:
    """The end-to-end run (same commands, one service, same settings) against a second
    embedded Redis with `appendfsync always`: the AOF is fsynced before any reply of an
    event-loop iteration goes out (one fsync for all the appends of that iteration)."""
    from services import compose

    server = compose.embedded_server(lab.tmp / "redis-always", appendfsync="always")
    try:
        return run_end_to_end(replace(lab, url=server.url, server=server), 1)
    finally:
        server.stop()
