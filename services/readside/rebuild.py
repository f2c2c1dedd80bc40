"""A projection rebuilt by several processes at once, the partitions shared among them.

A rebuild folds every event of every log in Python: one process keeps one core busy
while the others wait. The matches projection's partitions share nothing (each has its
own read-model keys, checkpoint and notice mark), so each process rebuilds partitions
with a projector of its own, as `Projector.rebuild` does for all of them. They take
the partitions one at a time, the next as they finish one, so a process that started
late or drew long logs takes fewer; the caller takes its share too, from the first
moment (a process it starts spends a third of a second on its imports). Ratings fold
every partition in one order: they are rebuilt by one process, the caller's.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import queue
from collections.abc import Callable
from typing import Any

from services import compose
from services.infra.config import Settings
from services.infra.logging import configure

# Below this many log entries the processes' start (an interpreter and the imports each,
# about half a second) costs more than the second core gives.
WORTH_SPLITTING = 20_000


def workers_for(entries: int, cores: int | None = None) -> int:
    """How many processes a rebuild over `entries` log entries is worth: one per core,
    or one for a log too short to pay for starting the others."""
    if entries < WORTH_SPLITTING:
        return 1
    return max(1, cores if cores is not None else len(os.sched_getaffinity(0)))


class RebuildFailed(Exception):
    """A rebuilding process failed; the partition it was on is partly rebuilt (its
    checkpoint moved with what was written: a projector continues from there)."""


def rebuild_apart(
    settings: Settings,
    name: str,
    workers: int,
    progress: Callable[[int], None] | None = None,
    log_level: str = "WARNING",
) -> int:
    """Rebuild projection `name` ("matches") with `workers` processes, this one among
    them, each taking partitions until none is left; the events applied. Blocks until
    every process is done."""
    ctx = mp.get_context("spawn")
    told: Any = ctx.Queue()
    taken: Any = ctx.Value("i", 0)  # the partitions handed out: 0 .. taken - 1
    procs = [
        ctx.Process(target=_rebuild_share, args=(settings, name, taken, told, log_level))
        for _ in range(max(1, min(workers, settings.partitions)) - 1)
    ]
    for proc in procs:
        proc.daemon = True
        proc.start()
    total = 0
    running = len(procs)
    failed: list[str] = []

    def hear(kind: str, value: Any) -> None:
        nonlocal total, running
        if kind == "applied":
            total += value
            if progress is not None:
                progress(value)
        else:
            running -= 1
            if kind == "failed":
                failed.append(value)

    def heard() -> None:
        """What the other processes said meanwhile (the caller's own share, running)."""
        while True:
            try:
                hear(*told.get_nowait())
            except queue.Empty:
                return

    def mine(n: int) -> None:
        hear("applied", n)
        heard()

    try:
        where = asyncio.run(_share(settings, name, taken, mine))
        if where:
            failed.append(where)
        while running:
            try:
                hear(*told.get(timeout=0.5))
            except queue.Empty:
                if all(not proc.is_alive() for proc in procs):
                    # Every process ended; what they put last may still be in the pipe.
                    try:
                        hear(*told.get(timeout=1.0))
                    except queue.Empty:
                        failed.append("a rebuilding process ended without a word")
                        break
    finally:
        for proc in procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
    if failed:
        raise RebuildFailed("; ".join(failed))
    return total


def take_partition(taken: Any, partitions: int) -> int | None:
    """The next partition no process has taken, or None."""
    with taken.get_lock():
        p: int = taken.value
        if p >= partitions:
            return None
        taken.value = p + 1
        return p


async def _share(settings: Settings, name: str, taken: Any, applied: Callable[[int], None]) -> str:
    """Rebuild partitions until none is left; what failed, in one line, or ""."""
    on: int | None = None  # the partition being rebuilt
    try:
        redis = compose.redis_client(settings)
        try:
            while (p := take_partition(taken, settings.partitions)) is not None:
                on = p
                projector = compose.projector(settings, redis, partitions=[p], projections=(name,))
                await projector.rebuild(name, progress=applied)
                on = None
        finally:
            await redis.aclose()
    except Exception as err:  # told, not raised: the caller says it in one line
        where = f"partition {on}" if on is not None else "between partitions"
        return f"process {os.getpid()}, {where}: {type(err).__name__}: {err}"
    return ""


def _rebuild_share(settings: Settings, name: str, taken: Any, told: Any, log_level: str) -> None:
    configure(level=log_level)  # JSON lines on stderr, as the parent's
    where = asyncio.run(_share(settings, name, taken, lambda n: told.put(("applied", n))))
    told.put(("failed", where) if where else ("done", 0))
