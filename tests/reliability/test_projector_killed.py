"""kill -9 of the projector mid-batch under load: the next projector picks up from the
checkpoints, and the read models then equal a rebuild from the logs; the public stream
carries every event once."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import msgspec
import pytest

from events.keys import Keys
from events.redis_store import RedisEventStore
from services.infra.redisconn import connect
from services.readside.projector import Projector
from services.readside.readmodels import ReadModels
from services.readside.schema import PublicEvent
from tests.reliability.harness import Tally, bots, report, stack, until, wait_alive

pytestmark = [pytest.mark.redis, pytest.mark.reliability]
P = 4


async def test_a_projector_killed_mid_batch_leaves_read_models_equal_to_a_rebuild(
    tmp_path: Path,
) -> None:
    with stack(tmp_path, partitions=P) as s:
        admin = connect(s.server.url)
        service = s.commands("commands")
        first = s.projector("projector-1")
        await wait_alive(admin, service)
        tally, stop = Tally(), asyncio.Event()
        load = asyncio.create_task(bots(s.server.url, tally, stop, tables=12, partitions=P))
        watcher = Projector(admin, RedisEventStore(admin, P))
        # Kill it while it has a batch to apply: under load, mid-batch.
        await asyncio.sleep(3)
        behind = 0
        deadline = time.monotonic() + 30
        while behind == 0 and time.monotonic() < deadline:
            behind = sum(row["events_behind"] for row in await watcher.lag())
        first.kill()
        await asyncio.sleep(2)  # the load goes on with nobody projecting
        second = s.projector("projector-2")
        await asyncio.sleep(2)
        stop.set()
        await load

        async def caught_up() -> bool:
            left: int = sum(row["events_behind"] for row in await watcher.lag())
            return left == 0

        await until(caught_up, "the second projector caught up")
        second.stop()

        models = ReadModels(admin, P)
        live = await models.dump()
        public: dict[str, list[int]] = defaultdict(list)
        for p in range(P):
            entries: Any = await admin.xrange(Keys(p).public)
            for _, fields in entries:
                event = msgspec.json.decode(fields[b"e"], type=PublicEvent)
                public[event.match_id].append(event.version)
        rebuilt = Projector(admin, RedisEventStore(admin, P))
        await rebuilt.rebuild("matches")
        await rebuilt.rebuild("ratings")
        again = await models.dump()
        await admin.aclose()

    report(
        "projector kill -9 mid-batch",
        {**tally.summary(), "behind_at_kill": behind, "read_model_keys": len(live)},
    )
    assert behind > 0
    assert live == again
    # Every match's public events once each, in order.
    assert set(public) == tally.matches
    assert all(versions == sorted(set(versions)) for versions in public.values())
    assert first.errors() == [] and second.errors() == []
