"""`tabletop bench --quick --json` runs every measurement and reports every figure.

Only that the figures exist and are positive is checked here: how fast is the
benchmark's business (docs/benchmarks.md), never a test's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.benchmark

ROOT = Path(__file__).resolve().parents[2]
FIGURES = (
    "end_to_end_cmds_per_s",
    "raw_limit_cmds_per_s",
    "eventsourcing_cmds_per_s",
    "ratio_vs_raw",
    "ratio_vs_eventsourcing",
    "end_to_end_fsync_always_cmds_per_s",
    "eventsourcing_fsync_cmds_per_s",
    "ratio_vs_eventsourcing_fsync",
    "reply_p50_ms",
    "reply_p99_ms",
    "projection_lag_p99_ms",
    "load_ms_10k_events_snapshot",
    "rebuild_events_per_s",
    # Issue 15's goals table, under its stable keys.
    "sustained_cmds_per_s",
    "raw_cores",
    "ratio_vs_peer_service",
    "reply_p99_half_peak_ms",
    "redis_us_per_cmd",
    "redis_bytes_per_live_match",
)


def test_the_quick_benchmark_reports_every_figure() -> None:
    # A process of its own, as a user runs it (the benchmark spawns processes itself).
    # The timeout only catches a hang: on a crowded machine the quick run, with the
    # raw limit, the peer, the half-peak and the roles-in-turn runs, takes 10+ minutes.
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "from bench import bench_command; bench_command()",
            "--quick",
            "--json",
            "--no-doc",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=2400,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    result = json.loads(run.stdout)
    for name in FIGURES:
        value = result.get(name)
        assert isinstance(value, int | float) and value > 0, f"{name}: {value!r}"
    goals = result.get("goals", {})
    for name in ("sustained_cmds_per_s", "ratio_vs_raw", "raw_cores", "ratio_vs_peer_service"):
        assert goals[name]["now"] == result[name] and goals[name]["met"] in (True, False), name
    assert all(row["met"] is not None for row in goals.values()), "a goal was not measured"
    rules = result.get("rules_us")
    assert isinstance(rules, dict) and rules, "rules_us: no game measured"
    for game, median in rules.items():
        assert isinstance(median, int | float) and median > 0, f"rules_us[{game}]: {median!r}"
    assert "chicken" in rules
    cluster = result["details"].get("cluster", {})
    assert sorted(cluster) == ["1", "2", "3"], "cluster: not every count of masters ran"
    for masters, row in cluster.items():
        assert row["cmds_per_s"] > 0 and row["services"] >= 1, f"cluster[{masters}]: {row!r}"
