"""`tabletop bench --json` on a tiny load: every figure of issue 15's goals table is there
under its stable key, a number, and the report renders the goals table from them.

How fast anything is stays the benchmark's business (docs/benchmarks.md); this checks
the shaping, and what a run must hold whatever the speed: the raw limit and the peer
answer every command, the appends the raw limit sends are accepted, and the sustained
rate never exceeds the burst rate it is derived from."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pytest

from bench.common import BenchConfig
from bench.raw_limit import _pin, _unpin
from bench.report import raw_bound, render_markdown
from bench.suite import GOALS, run_all

KEYS = (
    "sustained_cmds_per_s",
    "ratio_vs_raw",
    "raw_cores",
    "ratio_vs_peer_service",
    "ratio_vs_eventsourcing",
    "reply_p99_half_peak_ms",
    "redis_us_per_cmd",
    "redis_bytes_per_live_match",
    "rebuild_events_per_s",
)


@pytest.fixture(scope="module")
def tiny() -> dict[str, Any]:
    cfg = BenchConfig.quick_config()
    cfg.matches, cfg.lanes, cfg.es_matches = 3, 2, 3
    cfg.raw_processes = 2
    cfg.sections = ("e2e", "half", "roles", "raw", "peer", "es")
    result = run_all(cfg, progress=lambda _msg: None)
    shaped: dict[str, Any] = json.loads(json.dumps(result))  # what `--json` prints, read back
    return shaped


def test_every_goal_of_the_issue_has_its_stable_key_and_a_number(tiny: dict[str, Any]) -> None:
    assert {key for key, *_ in GOALS} == set(KEYS)
    for key in KEYS:
        assert isinstance(tiny[key], int | float) and not isinstance(tiny[key], bool), key
    # The sections this tiny run measured gave positive figures; the memory and the
    # rebuild sections did not run, and their goals say so.
    for key in KEYS:
        if key in ("redis_bytes_per_live_match", "rebuild_events_per_s"):
            assert tiny[key] == 0
            assert tiny["goals"][key]["met"] is None
        else:
            assert tiny[key] > 0, key
            assert tiny["goals"][key]["met"] in (True, False), key
    assert set(tiny["redis_us_per_cmd_by_role"]) == {"service_and_client", "projector", "total"}


def test_the_goals_are_judged_against_the_figures_of_the_run(tiny: dict[str, Any]) -> None:
    for key, _figure, goal, at_least in GOALS:
        row = tiny["goals"][key]
        assert row["now"] == tiny[key]
        if row["met"] is not None:
            assert row["met"] == (row["now"] >= row["goal"] if at_least else row["now"] <= goal)
    cores = tiny["machine"]["cores"]
    assert tiny["goals"]["raw_cores"]["goal"] == pytest.approx(0.9 * cores)


def test_the_sustained_rate_counts_the_projectors_catch_up(tiny: dict[str, Any]) -> None:
    e2e = tiny["details"]["end_to_end"]
    assert 0 < tiny["sustained_cmds_per_s"] <= e2e["cmds_per_s"]
    behind = max(0.0, e2e["projector_caught_up_after_s"] - 1.0)
    assert tiny["sustained_cmds_per_s"] == pytest.approx(
        e2e["replies"] / (e2e["seconds"] + behind), rel=0.01
    )


def test_the_raw_limit_and_the_peer_answer_every_command(tiny: dict[str, Any]) -> None:
    d = tiny["details"]
    commands = d["prepared"]["commands"]
    raw = d["raw"]
    assert raw["replies"] == commands and raw["refused"] == {}
    # The append script ran once per command, with its own writes inside.
    assert raw["redis_commandstats"]["evalsha"]["calls_per_cmd"] == pytest.approx(1.0)
    assert raw["processes"] == 2 and raw["raw_cores"] > 0
    assert raw["pinned"] == (len(os.sched_getaffinity(0)) >= 2)
    peer = d["peer_service"]
    assert peer["replies"] == commands and peer["rejected"] == {}
    assert d["half_peak"]["paced_cmds_per_s"] == pytest.approx(
        d["end_to_end"]["cmds_per_s"] / 2, rel=0.01
    )


def test_the_report_carries_the_goals_table(tiny: dict[str, Any]) -> None:
    text = render_markdown(tiny)
    assert "## Goals" in text and "| figure | now | goal | met? |" in text
    for _key, figure, *_ in GOALS:
        assert f"| {figure} |" in text
    assert "What bounds them, in this run:" in text and "- *Sustained*: a command costs" in text
    roles = tiny["details"]["roles_in_turn"]["cpu_us_per_cmd"]
    assert set(roles) == {"service", "projector", "generator", "redis-server"}
    assert "## 2. The raw limit" in text
    assert "### Redis per command, per role" in text
    assert "The peer service a Python team would build instead" in text


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="pinning needs two cores")
def test_the_raw_limit_gives_redis_a_core_of_its_own_and_then_gives_it_back() -> None:
    cores = sorted(os.sched_getaffinity(0))
    server, driver = (subprocess.Popen(["sleep", "60"]) for _ in range(2))
    try:
        assert _pin([server.pid], [driver.pid])
        assert os.sched_getaffinity(server.pid) == {cores[-1]}
        assert os.sched_getaffinity(driver.pid) == set(cores[:-1])
        _unpin([server.pid])  # the sections after the raw limit share every core again
        assert os.sched_getaffinity(server.pid) == set(cores)
    finally:
        for p in (server, driver):
            p.kill()
            p.wait()


def test_a_saturated_raw_limit_is_said_to_be_bound_by_redis_not_understated() -> None:
    raw = {"raw_cores": 1.65, "redis_cores": 0.93, "redis_us_per_cmd": 26.0}
    bound = raw_bound({**raw, "driver_us_per_cmd": 21.0}, 2)
    assert "one thread, busy 0.93" in bound and "1.81 cores in all" in bound
    waiting = raw_bound({**raw, "redis_cores": 0.7, "driver_us_per_cmd": 21.0}, 2)
    assert "understated" in waiting
    assert raw_bound({**raw, "raw_cores": 1.9, "driver_us_per_cmd": 21.0}, 2) == ""
