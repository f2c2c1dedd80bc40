"""7. Redis Cluster: the end-to-end run on a cluster of 1, 2 and 3 masters (the shipped
redis-server, on loopback, AOF `everysec`, no replicas), one command service per master
taking the partitions whose slots that master owns, one projector."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bench.common import Lab
from bench.end_to_end import run_end_to_end


def partitions_by_master(cluster: Any, partitions: int) -> list[list[int]]:
    """The partitions each master serves (every partition's keys share its slot)."""
    from redis.crc import key_slot

    from events.keys import Keys

    owners = cluster.slot_owners()
    masters = sorted({owners[key_slot(Keys(p).log.encode())] for p in range(partitions)})
    groups: dict[str, list[int]] = {m: [] for m in masters}
    for p in range(partitions):
        groups[owners[key_slot(Keys(p).log.encode())]].append(p)
    return [groups[m] for m in masters]


def run_cluster(lab: Lab, progress: Callable[[str], None]) -> dict[str, Any]:
    from services.infra.cluster import EmbeddedCluster

    rows: dict[str, Any] = {}
    base: float | None = None
    for masters in lab.cfg.cluster_masters:
        cluster = EmbeddedCluster(lab.tmp / f"cluster-{masters}", masters=masters).start()
        try:
            split = partitions_by_master(cluster, lab.cfg.partitions)
            progress(
                f"cluster of {masters} master(s), {len(split)} command service(s): "
                f"{lab.commands} commands"
            )
            load_before = os.getloadavg()[0]
            run = run_end_to_end(
                replace(lab, url=cluster.url, server=cluster), len(split), split=split
            )
            base = base or run["cmds_per_s"]
            rows[str(masters)] = {
                "masters": masters,
                "services": len(split),
                "partitions_per_service": [len(g) for g in split],
                "cmds_per_s": run["cmds_per_s"],
                "speedup": round(run["cmds_per_s"] / base, 2) if base else None,
                "reply_p50_ms": run["reply_p50_ms"],
                "reply_p99_ms": run["reply_p99_ms"],
                "projection_lag_p99_ms": run.get("projection_lag_p99_ms", 0.0),
                "cpu_util_total": run["cpu_util_total"],
                "cpu_util": {
                    role: round(
                        sum(x["cpu_util"] for x in run["processes"] if x["role"] == role), 2
                    )
                    for role in {x["role"] for x in run["processes"]}
                },
                "redis_commands": run["redis_commands"],
                "load_average_before": round(load_before, 2),
                "load_average_after": round(os.getloadavg()[0], 2),
            }
            progress(f"  {run['cmds_per_s']:.0f} commands/s")
        finally:
            cluster.stop()
    return {"cluster": rows}
