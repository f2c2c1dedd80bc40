"""The event loop every long-running process of ours runs on.

uvloop when it is installed (it comes with `uvicorn[standard]`, on Linux and macOS),
else asyncio's own. The command service and the projector spend a fifth of their time in
the loop itself (polling, callbacks, socket writes); on uvloop the end-to-end run served
5 % more commands a second (docs/performance-log.md, 2026-12-05 evening).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)`, on uvloop where there is one."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - not on this platform
        return asyncio.run(main)
    return uvloop.run(main)
