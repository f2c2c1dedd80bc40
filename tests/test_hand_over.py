"""The command service runs the batches that arrive while its runs are busy as one, with
up to `runners` runs at once."""

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


def service(processor: Processor, runners: int = 1) -> CommandService:
    settings = Settings(redis_url="redis://127.0.0.1:1", partitions=4, runners=runners)
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
    assert processor.calls == [["p0"]] and not svc._runners


class Held(Processor):
    """Every call waits until it is let go (`release`)."""

    def __init__(self) -> None:
        super().__init__()
        self.gates: list[asyncio.Event] = []

    async def handle_batches(self, batches: Sequence[Batch]) -> list[list[int]]:
        self.calls.append([b.dead_letter_stream for b in batches])
        gate = asyncio.Event()
        self.gates.append(gate)
        await gate.wait()
        return [[i] for i, _ in enumerate(batches)]

    async def release(self, call: int) -> None:
        while len(self.gates) <= call:
            await asyncio.sleep(0)
        self.gates[call].set()


async def test_a_second_runner_takes_what_arrives_while_the_first_waits() -> None:
    processor = Held()
    svc = service(processor, runners=2)
    first = asyncio.create_task(svc.hand_over(Batch([], "p0")))
    await asyncio.sleep(0)
    second = asyncio.create_task(svc.hand_over(Batch([], "p1")))
    await asyncio.sleep(0.01)
    # The second batch runs beside the first, which still waits on "Redis".
    assert processor.calls == [["p0"], ["p1"]]
    # Both runners busy: what arrives now waits for one of them, and runs together.
    later = [asyncio.create_task(svc.hand_over(Batch([], f"p{p}"))) for p in (2, 3)]
    await asyncio.sleep(0.01)
    assert processor.calls == [["p0"], ["p1"]]
    await processor.release(1)
    assert await second == [0]
    await processor.release(2)
    assert [await t for t in later] == [[0], [1]]
    assert processor.calls == [["p0"], ["p1"], ["p2", "p3"]]
    assert not first.done()  # the first run never held the others up
    await processor.release(0)
    assert await first == [0]
    assert not svc._runners
