"""The soak: steady load for about ten minutes through two command services and a
projector (real `tabletop serve` processes on a private redis-server), sampling every
process's memory, the pending entries and the projection lag; then the checks of the
reliability suite (nothing lost, nothing applied twice, audits ok, no error logged).

    python scripts/soak.py [--minutes 10] [--tables 8] [--out soak.json]

Not part of any test run. Its figures go in docs/reliability.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from events.redis_store import RedisEventStore  # noqa: E402
from services.infra.redisconn import connect  # noqa: E402
from services.readside.projector import Projector  # noqa: E402
from tests.reliability.harness import (  # noqa: E402
    Tally,
    bots,
    effects,
    pending,
    stack,
    wait_alive,
)

P = 4


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def soak(minutes: float, tables: int, cache: int) -> dict[str, Any]:
    # A small command cache, so its bound is reached within the soak and what is measured
    # afterwards is the steady state, not the cache filling up.
    env = {"TABLETOP_CACHE": str(cache)}
    with (
        tempfile.TemporaryDirectory(prefix="tt-soak-") as tmp,
        stack(Path(tmp), P, extra_env=env) as s,
    ):
        admin = connect(s.server.url)
        services = [s.commands("commands-a"), s.commands("commands-b")]
        projector = s.projector("projector")
        await wait_alive(admin, *services)
        watcher = Projector(admin, RedisEventStore(admin, P))
        tally, stop = Tally(), asyncio.Event()
        started = time.monotonic()
        load = asyncio.create_task(bots(s.server.url, tally, stop, tables=tables, partitions=P))
        samples: list[dict[str, Any]] = []
        every = 15.0
        while time.monotonic() - started < minutes * 60:
            await asyncio.sleep(every)
            info: Any = await admin.info("memory")
            held = await pending(admin, P)
            lag = await watcher.lag()
            sample = {
                "t_s": round(time.monotonic() - started),
                "answered": len(tally.answered),
                "redis_used_mib": round(info["used_memory"] / 2**20, 1),
                "redis_rss_mib": round(rss_mib(s.server.pid), 1),
                "projector_rss_mib": round(rss_mib(projector.pid), 1),
                "driver_rss_mib": round(rss_mib(os.getpid()), 1),
                "pending": sum(held.values()),
                "lag_events": sum(row["events_behind"] for row in lag),
            }
            for svc in services:
                sample[f"{svc.name}_rss_mib"] = round(rss_mib(svc.pid), 1)
            samples.append(sample)
            print(json.dumps(sample), flush=True)
        stop.set()
        await load
        while sum(row["events_behind"] for row in await watcher.lag()):
            await asyncio.sleep(0.2)
        found = await effects(admin, tally, P)
        await admin.aclose()
        errors = {p.name: p.errors() for p in s.processes}
        elapsed = time.monotonic() - started
    return {
        "minutes": round(elapsed / 60, 1),
        "tables": tables,
        "command_cache": cache,
        **tally.summary(),
        "commands_per_s": round(len(tally.answered) / elapsed),
        "events": found.events,
        "applied_twice": len(found.applied_twice),
        "acknowledged_missing": len(found.missing),
        "unknown": len(found.unknown),
        "audit_failed": len(found.audit_failed),
        "errors_logged": {k: len(v) for k, v in errors.items()},
        "samples": samples,
    }


def steady(samples: list[dict[str, Any]], key: str) -> dict[str, float]:
    """A figure at the end of the first third and at the end, and the change between."""
    third = samples[len(samples) // 3]
    last = samples[-1]
    return {"after_first_third": third[key], "at_end": last[key], "change": last[key] - third[key]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--cache", type=int, default=200)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    result = asyncio.run(soak(args.minutes, args.tables, args.cache))
    keys = [k for k in result["samples"][0] if k.endswith("_mib") or k in ("pending", "lag_events")]
    result["steady"] = {k: steady(result["samples"], k) for k in keys}
    text = json.dumps(result, indent=2)
    if args.out:
        args.out.write_text(text)
    print(json.dumps({k: v for k, v in result.items() if k != "samples"}, indent=2))


if __name__ == "__main__":
    main()
