"""A partition's slot moved to another master under load, key by key with MIGRATE as
`redis-cli --cluster reshard` does: nothing acknowledged is lost, every match finishes
and audits, and the services follow the slot (MOVED, ASK) by themselves."""

from __future__ import annotations

import asyncio

import pytest
from redis.crc import key_slot

from events.keys import Keys
from services import compose
from services.infra.cluster import EmbeddedCluster
from services.readside import audit as a
from tests.cluster.conftest import Load, P, deployment, ids_for_every_partition, settings, until

pytestmark = [pytest.mark.redis, pytest.mark.cluster]


async def test_partitions_moved_to_another_master_under_load_lose_nothing(
    cluster3: EmbeddedCluster,
) -> None:
    admin = compose.redis_client(settings(cluster3.url))
    await admin.flushdb()
    try:
        async with deployment(cluster3.url) as (svcs, projector, _):
            async with compose.client(settings(cluster3.url), timeout=5) as client:
                load = Load(client, svcs[0].store)
                ids = ids_for_every_partition(2)
                # Matches long enough that the load outlasts the three moves: a count
                # of 9 was over (about 160 moves) before the third move began.
                playing = asyncio.gather(
                    *(load.play(mid, i, start=40) for i, mid in enumerate(ids))
                )
                moved = []
                for p in (0, 1, 2):
                    # Each move starts with the partition busy (its keys written meanwhile).
                    busy = load.moves + 15
                    await until(lambda: load.moves >= busy)  # noqa: B023 - awaited here
                    slot = key_slot(Keys(p).log.encode())
                    source = cluster3.master_of(slot)
                    target = next(n for n in cluster3.nodes if n is not source)
                    keys = await asyncio.to_thread(cluster3.move_slot, slot, target, 5)
                    assert cluster3.master_of(slot) is target
                    moved.append((p, keys))
                await asyncio.wait_for(playing, timeout=180)
            await projector.stop()
            await projector.catch_up()
            store = svcs[0].store
            for mid in ids:
                assert (await a.audit(store, mid)).status == "ok", mid
            assert all(keys > 0 for _, keys in moved)
            assert await load.lost() == []
            finished = await compose.read_models(settings(cluster3.url), admin).lobby(
                status="finished", size=100
            )
            assert len(finished) == len(ids) == 2 * P
            print(f"\nresharded {moved} (partition, keys) under load: {len(load.acked)} acked")
    finally:
        await admin.aclose()
