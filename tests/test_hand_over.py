"""The command service runs the batches that arrive while one is running as one."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from redis.asyncio import Redis

from services.commands.application import Batch
from services.commands.service import CommandService
from services.infra.config import Settings


class Processor:
    """Records each call; the first waits until let go; a batch named `bad` breaks any
    call it is in."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []
        self.go = asyncio.Event()

    async def handle_batches(self, batches: Sequence[Batch]) -> list[list[int]]:
        names = [b.dead_letter_stream for b in batches]
        self.calls.append(names)
        if len(self.calls) == 1:
            await self.go.wait()
        if "bad" in names:
            raise RuntimeError("a bug in one batch")
        return [[i] for i, _ in enumerate(batches)]


def service(processor: Processor) -> CommandService:
    settings = Settings(redis_url="redis://127.0.0.1:1", partitions=4)
    redis = Redis.from_url(settings.redis_url)  # never connected: nothing here reads it
    return CommandService(settings, redis, store=Any, processor=processor)  # type: ignore[arg-type]


async def test_batches_that_arrive_while_one_runs_run_together_after_it() -> None:
    processor = Processor()
    svc = service(processor)
    first = asyncio.create_task(svc.hand_over(Batch([], "p0")))
    await asyncio.sleep(0)
    later = [asyncio.create_task(svc.hand_over(Batch([], f"p{p}"))) for p in (1, 2)]
    await asyncio.sleep(0.01)
    assert processor.calls == [["p0"]]  # p1 and p2 wait for the run before
    processor.go.set()
    assert await first == [0]
    # Each handler gets its own batch's answer from the shared run.
    assert [await t for t in later] == [[0], [1]]
    assert processor.calls == [["p0"], ["p1", "p2"]]
    # And the next batch alone, at once.
    assert await svc.hand_over(Batch([], "p3")) == [0]


async def test_a_batch_that_breaks_a_shared_run_fails_alone() -> None:
    processor = Processor()
    svc = service(processor)
    first = asyncio.create_task(svc.hand_over(Batch([], "p0")))
    await asyncio.sleep(0)
    good, bad = (asyncio.create_task(svc.hand_over(Batch([], name))) for name in ("p1", "bad"))
    await asyncio.sleep(0.01)
    processor.go.set()
    await first
    assert await good == [0]
    with pytest.raises(RuntimeError, match="a bug in one batch"):
        await bad
    # The shared run, then each batch again on its own.
    assert processor.calls[1:] == [["p1", "bad"], ["p1"], ["bad"]]


async def test_stopping_waits_for_a_run_in_flight_though_its_handler_was_cancelled() -> None:
    processor = Processor()
    svc = service(processor)
    handler = asyncio.create_task(svc.hand_over(Batch([], "p0")))
    await asyncio.sleep(0)
    handler.cancel()  # as FastStream's stop cancels its read loops
    stopping = asyncio.create_task(svc.stop_subscribers())
    await asyncio.sleep(0.01)
    assert not stopping.done()  # the run still holds the batch
    processor.go.set()
    await stopping
    assert processor.calls == [["p0"]] and svc._runner is None
