"""3 masters + 3 replicas: a master killed under load. Once its replica is promoted the
services carry on by themselves; every match finishes and audits. What was
acknowledged and lost is counted and printed (run with -s): Redis replicates
asynchronously, so a failover may drop the master's last writes whatever its fsync,
unless the replies wait for a replica (TABLETOP_WAIT_REPLICAS=1)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from redis.crc import key_slot

from events.keys import Keys
from services import compose
from services.infra.cluster import EmbeddedCluster
from services.readside import audit as a
from tests.cluster.conftest import Load, deployment, ids_for_every_partition, settings, until

pytestmark = [pytest.mark.redis, pytest.mark.cluster]


@pytest.mark.parametrize(
    ("appendfsync", "wait_replicas"), [("everysec", 0), ("always", 0), ("always", 1)]
)
async def test_a_master_killed_under_load_is_survived(
    tmp_path: Path, appendfsync: str, wait_replicas: int
) -> None:
    cluster = EmbeddedCluster(
        tmp_path, masters=3, replicas=1, appendfsync=appendfsync, node_timeout_ms=1_000
    ).start()
    try:
        async with deployment(cluster.url, wait_replicas=wait_replicas) as (svcs, projector, _):
            async with compose.client(settings(cluster.url), timeout=5) as client:
                load = Load(client, svcs[0].store)
                ids = ids_for_every_partition(2)
                playing = asyncio.gather(*(load.play(mid, i) for i, mid in enumerate(ids)))
                await until(lambda: load.moves >= 40)
                # The master of partition 0's slot dies (SIGKILL: no goodbye to anyone).
                slot = key_slot(Keys(0).log.encode())
                victim = cluster.master_of(slot)
                at_kill = load.moves
                # WAIT, when asked for, heard from every replica while they all lived.
                assert svcs[0].store.unreplicated == 0  # type: ignore[attr-defined]
                cluster.stop_node(victim, kill=True)
                await asyncio.to_thread(
                    cluster.wait_until, lambda: cluster.master_of(slot) is not victim, 60
                )
                promoted = cluster.master_of(slot)
                await asyncio.wait_for(playing, timeout=180)
            await projector.stop()
            await projector.catch_up()
            store = svcs[0].store
            for mid in ids:
                assert (await a.audit(store, mid)).status == "ok", mid
            assert load.moves > at_kill
            lost = await load.lost()
            print(
                f"\nfailover ({appendfsync}, WAIT {wait_replicas}): {len(ids)} matches, "
                f"{len(load.acked)} commands acknowledged, {len(lost)} of them lost; "
                f"{load.resent} sent again; {victim.address} killed, {promoted.address} promoted"
            )
            assert promoted.alive and promoted is not victim
    finally:
        cluster.stop()
