"""A process that works in passes (the projector, the scheduler, the rematch process):
run them until stopped, back off while Redis is away, and never let one bad entry end
the loop. Stopping waits for the pass under way, since cancelling a task inside a
redis-py call can stall it."""

from __future__ import annotations

import asyncio
from typing import ClassVar

import structlog

from services.infra.redisconn import GONE, reason


class PassLoop:
    role: ClassVar[str]  # names its log lines: "<role>_reconnecting", "<role>_stop_timeout"
    failed_event: ClassVar[str]  # the line a pass that failed on bad data logs
    idle_sleep: ClassVar[float] = 0.05  # seconds between passes that found nothing
    # Seconds after a pass that found work and read all there was. Without it a loop
    # under a moderate load runs pass after pass of a few entries each, and pays each
    # pass's round trips and transactions for those few: the gateway bench's projector
    # cost twice as much a command at 500 commands/s as at 2,000. A pass that left work
    # behind (`behind`) goes on at once, so a loop under a heavy load never waits.
    linger: ClassVar[float] = 0.0
    # Empty passes in a row double the idle sleep up to this: a quiet server's loops
    # cost little, and the first pass after the quiet comes at most this late.
    idle_max: ClassVar[float] = 0.0
    stop_timeout: ClassVar[float] = 10.0
    away: ClassVar[tuple[type[BaseException], ...]] = GONE  # errors that mean "retry later"

    _stopping: bool = False
    _task: asyncio.Task[None] | None = None

    async def pass_once(self) -> int:
        raise NotImplementedError

    def behind(self) -> bool:
        """Whether the last pass stopped at its batch's end with more to read."""
        return False

    async def run_forever(self) -> None:
        log = structlog.get_logger(f"tabletop.{self.role}")
        self._stopping = False
        delay = 0.05
        idle = self.idle_sleep
        while not self._stopping:
            try:
                done = await self.pass_once()
                delay = 0.05
                if done == 0:
                    await asyncio.sleep(idle)
                    idle = min(idle * 2, max(self.idle_max, self.idle_sleep))
                else:
                    idle = self.idle_sleep
                    if self.linger and not self.behind():
                        await asyncio.sleep(self.linger)
            except self.away as err:  # back off, then on from the checkpoints
                log.warning(f"{self.role}_reconnecting", error=reason(err), retry_in=delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            except Exception as err:  # one bad entry must not stop the process
                log.exception(self.failed_event, error=reason(err))
                await asyncio.sleep(1)

    def start(self) -> None:
        self._task = asyncio.create_task(self.run_forever())

    async def stop(self) -> None:
        """Stop between passes."""
        if self._task is not None:
            self._stopping = True
            try:
                await asyncio.wait_for(self._task, timeout=self.stop_timeout)
            except TimeoutError:
                structlog.get_logger(f"tabletop.{self.role}").warning(f"{self.role}_stop_timeout")
            self._task = None
