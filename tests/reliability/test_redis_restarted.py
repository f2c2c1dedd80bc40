"""kill -9 of Redis under load, then a restart from its AOF: the clients and the service
reconnect, every command is answered, each applied once; with `appendfsync always` no
acknowledged event is lost, with `everysec` the suite measures what is."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from services.infra.redisconn import connect
from tests.reliability.harness import (
    RESTART_RECORDS,
    Tally,
    bots,
    effects,
    report,
    stack,
    until,
    wait_alive,
)

pytestmark = [pytest.mark.redis, pytest.mark.reliability]
P = 4


@pytest.mark.parametrize("appendfsync", ["always", "everysec"])
async def test_a_redis_restart_under_load_leaves_every_command_answered_once(
    tmp_path: Path, appendfsync: str
) -> None:
    with stack(tmp_path, partitions=P, appendfsync=appendfsync) as s:
        admin = connect(s.server.url)
        service = s.commands("commands")
        await wait_alive(admin, service)
        await admin.aclose()
        tally, stop = Tally(), asyncio.Event()
        load = asyncio.create_task(bots(s.server.url, tally, stop, tables=12, partitions=P))
        await asyncio.sleep(3)
        before = len(tally.answered)
        s.server.kill()
        killed_at = time.monotonic()
        await asyncio.sleep(1)  # down for a second
        s.server.start()
        back_at = time.monotonic()
        # Until the load runs again through the restarted server, then a while more.
        await until(
            lambda: len(tally.answered) >= before + 200, "200 more answers after the restart"
        )
        resumed = time.monotonic() - back_at
        await asyncio.sleep(2)
        stop.set()
        await load
        admin = connect(s.server.url)
        found = await effects(admin, tally, P)
        await admin.aclose()
        errors = service.errors(expected=RESTART_RECORDS)

    report(
        f"redis kill -9 and restart, appendfsync {appendfsync}",
        {
            **tally.summary(),
            "down_s": round(back_at - killed_at, 2),
            "answers_again_after_s": round(resumed, 2),
            "acknowledged_then_lost": len(found.missing),
            "events": found.events,
        },
    )
    assert tally.lost == set()
    assert found.applied_twice == [] and found.unknown == []
    assert found.audit_failed == []
    if appendfsync == "always":
        assert found.missing == []  # no acknowledged event lost
    assert errors == []
