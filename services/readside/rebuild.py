"""A projection rebuilt by several processes at once, the partitions dealt among them.

A rebuild folds every event of every log in Python: one process keeps one core busy
while the others wait. The matches projection's partitions share nothing (each has its
own read-model keys, checkpoint and notice mark), so each process rebuilds its share
of them with a projector of its own, as `Projector.rebuild` does for one. Ratings fold
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


def deal(partitions: int, workers: int) -> list[list[int]]:
    """Partitions 0..partitions-1 dealt round to `workers` hands (none left empty)."""
    hands = max(1, min(workers, partitions))
    return [list(range(i, partitions, hands)) for i in range(hands)]


def workers_for(entries: int, cores: int | None = None) -> int:
    """How many processes a rebuild over `entries` log entries is worth: one per core,
    or one for a log too short to pay for starting the others."""
    if entries < WORTH_SPLITTING:
        return 1
    return max(1, cores if cores is not None else len(os.sched_getaffinity(0)))


class RebuildFailed(Exception):
    """A rebuilding process failed; its partitions' read models are partly rebuilt (their
    checkpoints moved with what was written: a projector continues from there)."""


def rebuild_apart(
    settings: Settings,
    name: str,
    workers: int,
    progress: Callable[[int], None] | None = None,
    log_level: str = "WARNING",
) -> int:
    """Rebuild projection `name` ("matches") with `workers` processes, each over its
    hand of the partitions; the events applied. Blocks until every process is done."""
    ctx = mp.get_context("spawn")
    told: Any = ctx.Queue()
    procs = [
        ctx.Process(target=_rebuild_hand, args=(settings, name, hand, told, log_level), daemon=True)
        for hand in deal(settings.partitions, workers)
    ]
    for proc in procs:
        proc.start()
    total = 0
    running = len(procs)
    failed: list[str] = []
    try:
        while running:
            try:
                kind, value = told.get(timeout=0.5)
            except queue.Empty:
                if all(not proc.is_alive() for proc in procs):
                    # Every process ended; what they put last may still be in the pipe.
                    try:
                        kind, value = told.get(timeout=1.0)
                    except queue.Empty:
                        failed.append("a rebuilding process ended without a word")
                        break
                else:
                    continue
            if kind == "applied":
                total += value
                if progress is not None:
                    progress(value)
            else:
                running -= 1
                if kind == "failed":
                    failed.append(value)
    finally:
        for proc in procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
    if failed:
        raise RebuildFailed("; ".join(failed))
    return total


def _rebuild_hand(
    settings: Settings, name: str, hand: list[int], told: Any, log_level: str
) -> None:
    configure(level=log_level)  # JSON lines on stderr, as the parent's
    try:
        asyncio.run(_rebuild(settings, name, hand, told))
    except Exception as err:  # told, not raised: the parent says it in one line
        told.put(("failed", f"partitions {hand}: {type(err).__name__}: {err}"))
    else:
        told.put(("done", 0))


async def _rebuild(settings: Settings, name: str, hand: list[int], told: Any) -> None:
    redis = compose.redis_client(settings)
    try:
        projector = compose.projector(settings, redis, partitions=hand, projections=(name,))
        await projector.rebuild(name, progress=lambda n: told.put(("applied", n)))
    finally:
        await redis.aclose()
