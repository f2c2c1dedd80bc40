"""The services' event loop: uvloop where it is installed, as it is with the project's
own dependencies (uvicorn[standard])."""

from __future__ import annotations

import asyncio

from services.infra import loop


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_the_services_run_on_uvloop() -> None:
    assert loop.run(_loop_module()).startswith("uvloop")


def test_a_coroutine_run_there_gives_back_its_result() -> None:
    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    assert loop.run(answer()) == 42
