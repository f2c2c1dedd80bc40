"""A loop of passes waits between them as its load says: long when a pass found
nothing, briefly when it read all there was, not at all when it left work behind."""

from __future__ import annotations

import asyncio
from typing import ClassVar

import pytest

from services.infra.passes import PassLoop


class Scripted(PassLoop):
    role = "scripted"
    failed_event = "scripted_failed"
    idle_sleep = 0.5
    linger = 0.2

    def __init__(self, script: list[tuple[int, bool]]) -> None:
        self.script = script  # (work done, left work behind) per pass
        self._left = False

    async def pass_once(self) -> int:
        if not self.script:
            self._stopping = True
            return 0
        done, self._left = self.script.pop(0)
        return done

    def behind(self) -> bool:
        return self._left


class NoLinger(Scripted):
    linger: ClassVar[float] = 0.0


async def _waits(loop: Scripted, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    # The asyncio the loop's module sleeps through (its import, not re-exported).
    monkeypatch.setattr("services.infra.passes.asyncio.sleep", sleep)
    await loop.run_forever()
    monkeypatch.setattr("services.infra.passes.asyncio.sleep", asyncio.sleep)
    return waited


async def test_a_pass_that_read_all_there_was_lingers_before_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop = Scripted([(3, False), (500, True), (500, True), (7, False), (0, False)])
    # Full batches follow one another at once; a drained log waits the linger; an empty
    # pass waits the idle sleep (and the script's end stops the loop after one more).
    assert await _waits(loop, monkeypatch) == [0.2, 0.2, 0.5, 0.5]


async def test_a_loop_without_a_linger_goes_on_at_once_after_any_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop = NoLinger([(3, False), (7, False), (0, False)])
    assert await _waits(loop, monkeypatch) == [0.5, 0.5]


class Patient(Scripted):
    idle_sleep = 0.1
    idle_max = 0.4


async def test_empty_passes_in_a_row_wait_longer_up_to_a_limit_and_work_resets_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    quiet = [(0, False)] * 4
    loop = Patient([*quiet, (2, False), (0, False), (0, False)])
    assert await _waits(loop, monkeypatch) == [0.1, 0.2, 0.4, 0.4, 0.2, 0.1, 0.2, 0.4]
