"""6. Scale-out: the end-to-end run with 1, 2 and 4 command services splitting the
partitions, and once more with the most services sharing one consumer group."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench.common import Lab
from bench.end_to_end import run_end_to_end


def run_scale_out(
    lab: Lab, runs: dict[int, dict[str, Any]], progress: Callable[[str], None]
) -> dict[str, Any]:
    """The end-to-end run for each count of services not run yet (`runs` holds those
    that were, by count: 1 is the baseline), then the most services on one group."""
    out: dict[str, Any] = {}
    for n in lab.cfg.workers:
        if n in runs:
            continue
        progress(f"end to end with {n} command services, partitions split")
        runs[n] = run_end_to_end(lab, n)
        progress(f"  {runs[n]['cmds_per_s']:.0f} commands/s")
    out["scale_out"] = {str(n): scale_row(runs[n], runs.get(1)) for n in sorted(runs)}
    shared = max(lab.cfg.workers)
    if shared > 1:
        # The other way to share: every service on every partition, one group.
        progress(f"end to end with {shared} command services sharing one group")
        run = run_end_to_end(lab, shared, shared_group=True)
        progress(f"  {run['cmds_per_s']:.0f} commands/s")
        out["scale_out_shared_group"] = {str(shared): scale_row(run, runs.get(1))}
    return out


def scale_row(run: dict[str, Any], base: dict[str, Any] | None) -> dict[str, Any]:
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
