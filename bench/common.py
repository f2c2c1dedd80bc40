"""What every measurement shares: the settings, the lab, logging, percentiles, /proc."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# What `tabletop bench` measures, in the order it runs; `--only` picks some.
SECTIONS: tuple[str, ...] = (
    "e2e", "raw", "peer", "half", "roles", "es", "rules", "growth", "scale", "gateway",
    "memory", "cluster",
)  # fmt: skip


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
    rebuild_workers: int = 0  # processes of the rebuild; 0: as the CLI chooses
    snapshot_every: int = 100
    seed: int = 1
    profile: bool = False
    raw_processes: int = 0  # drivers of the raw limit; 0: four a core
    sections: tuple[str, ...] = SECTIONS
    cluster_masters: tuple[int, ...] = (1, 2, 3)
    gateway_matches: int = 1000  # two players each, over HTTP and WebSockets
    gateway_moves: int = 20  # moves per match, both ways
    gateway_processes: tuple[int, ...] = (1, 2)  # gateway runs, by processes
    stall_seconds: float = 60.0

    @classmethod
    def quick_config(cls) -> BenchConfig:
        return cls(
            quick=True,
            matches=100,
            gateway_matches=50,
            gateway_processes=(1,),
            lanes=4,
            es_matches=40,
            rules_seconds=0.15,
            growth_repeats=3,
            rebuild_events=25_000,
            stall_seconds=20.0,
        )


def say(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of unsorted values; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return float(ordered[k])


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


def quiet_logs() -> None:
    from services.infra.logging import configure

    configure(level="WARNING")


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
