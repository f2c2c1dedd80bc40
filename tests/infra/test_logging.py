"""Every line a service writes is JSON: structlog's own, and what stdlib loggers,
warnings and stray exceptions would otherwise print as bare text."""

from __future__ import annotations

import subprocess
import sys

import msgspec

PROGRAM = """
import asyncio, logging, warnings
from services.infra.logging import configure
configure(level="INFO")
logging.getLogger("uvicorn.error").error("port in use")
warnings.warn("old option")
async def main():
    async def boom():
        raise RuntimeError("lost task")
    asyncio.get_running_loop().create_task(boom())
    await asyncio.sleep(0.05)
asyncio.run(main())
try:
    raise ValueError("inner")
except ValueError:
    logging.getLogger("redis").exception("reconnect failed")
raise SystemError("uncaught at the top")
"""


def test_stdlib_records_warnings_and_uncaught_errors_are_json_lines() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, timeout=60, check=False
    )
    text = [x for x in done.stderr.splitlines() if x.strip()]
    assert text and all(x.startswith(b"{") for x in text), text
    lines = [msgspec.json.decode(x) for x in text]
    by_event = {e["event"]: e for e in lines}
    assert by_event["port in use"]["logger"] == "uvicorn.error"
    assert by_event["port in use"]["level"] == "error"
    assert any("old option" in e["event"] for e in lines)
    assert "lost task" in str(lines)  # asyncio's "exception was never retrieved"
    assert "ValueError: inner" in by_event["reconnect failed"]["exception"]
    assert by_event["uncaught_exception"]["level"] == "critical"
    assert done.returncode != 0
