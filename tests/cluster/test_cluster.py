"""The services on a real 3-master Redis Cluster: every partition's matches played,
audited and projected, each partition on the master owning its slot."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from redis.crc import key_slot
from redis.exceptions import ResponseError

from events.keys import RATINGS, Keys, heartbeats
from services import compose
from services.gateway.chat import Chat, ChatHub, ChatLine
from services.gateway.live import LiveHub
from services.infra.cluster import HOST, SLOTS, EmbeddedCluster, node_command
from services.infra.redisconn import FastConnection, connect, is_cluster, twin
from services.readside import audit as a
from tests.cluster.conftest import P, deployment, ids_for_every_partition, play_everywhere, settings

pytestmark = pytest.mark.redis


async def test_matches_of_every_partition_land_on_all_three_masters_audit_and_rebuild(
    cluster3: EmbeddedCluster,
) -> None:
    admin = connect(cluster3.url)
    await admin.flushdb()
    try:
        async with deployment(cluster3.url) as (svcs, projector, _):
            async with compose.client(settings(cluster3.url), timeout=30) as client:
                played = await play_everywhere(client, svcs[0], ids_for_every_partition(2))
            await projector.stop()
            await projector.catch_up()
            store = svcs[0].store

            # Every partition's log is on the master that owns its tag's slot, and the
            # sixteen partitions fill all three masters.
            owners = cluster3.slot_owners()
            holders: Counter[str] = Counter()
            for p in range(P):
                log = Keys(p).log
                owner = owners[key_slot(log.encode())]
                master = next(n for n in cluster3.nodes if n.address == owner)
                with master.client() as direct:
                    assert direct.xlen(log) > 0
                holders[master.address] += 1
            assert len(holders) == 3

            # Each match's keys are in its partition's slot; every match audits.
            for mid in played:
                assert (await a.audit(store, mid)).status == "ok", mid
            assert sorted(await store.match_ids()) == sorted(played)

            # The read models rebuilt from the logs are the ones followed live.
            models = compose.read_models(settings(cluster3.url), admin)
            before = await models.dump()
            assert any(k.startswith(RATINGS.tag) for k in before)
            assert len([s for s in await models.lobby(status="finished", size=100)]) == len(played)
            for name in ("matches", "ratings"):
                await projector.rebuild(name)
            after = await models.dump()
            assert after == before, sorted(
                k for k in {*before, *after} if before.get(k) != after.get(k)
            )
    finally:
        await admin.aclose()


async def test_every_script_and_transaction_stays_in_its_slot(tmp_path: Any) -> None:
    """Redis Cluster refuses a script touching a key its node does not serve. Here one
    partition's slot is alone on a master, the heartbeats' slot alone on another: a
    script or MULTI of the services that strayed from its slot would be refused."""
    p = 3
    mine, beats = key_slot(Keys(p).log.encode()), key_slot(heartbeats("tt-commands").encode())
    rest = [s for s in range(SLOTS) if s not in (mine, beats)]
    cluster = EmbeddedCluster(tmp_path, masters=3, layout=[[mine], [beats], rest]).start()
    try:
        async with deployment(cluster.url, trim_every_ms=50) as (svcs, projector, redis):
            async with compose.client(settings(cluster.url), timeout=30) as client:
                ids = [i for i in ids_for_every_partition(3) if i]  # partition 3 among them
                played = await play_everywhere(client, svcs[0], ids)
            await projector.stop()
            await projector.catch_up()
            # The trim script on partition 3's command stream, the heartbeat script, and
            # the projector's MULTI and publishing script all ran on their own slots.
            await svcs[0].trim(p)
            now, beaten = await svcs[0].beat()
            assert svcs[0].settings.consumer in beaten and now > 0
            for mid in played:
                assert (await a.audit(svcs[0].store, mid)).status == "ok"
            lone = next(n for n in cluster.nodes if n.address == cluster.slot_owners()[mine])
            with lone.client() as direct:
                assert direct.dbsize() > 0  # partition 3's keys, and nothing else
                keys = [k.decode() for k in direct.scan_iter(count=1000)]
            assert keys and all(k.startswith(Keys(p).tag) for k in keys)
            assert any(k == Keys(p).public for k in keys)
            assert (await redis.xlen(Keys(p).commands)) < 3 * 8  # trimmed once acknowledged
            # And the check has teeth: a script reaching another partition is refused.
            stray = redis.register_script("return redis.call('XLEN', ARGV[1])")
            with pytest.raises(ResponseError, match="non local key"):
                await stray(keys=[Keys(p).log], args=[Keys(0).log])
    finally:
        cluster.stop()


async def test_a_cluster_client_packs_by_hiredis_and_its_twin_reads_apart(
    cluster3: EmbeddedCluster,
) -> None:
    redis = connect(cluster3.url)
    try:
        assert is_cluster(redis)
        await redis.set("tt:{1}:probe", "x")
        node: Any = redis.get_node_from_key("tt:{1}:probe")  # type: ignore[attr-defined]
        assert node.connection_class is FastConnection
        other = twin(redis)
        try:
            assert is_cluster(other) and other is not redis
            assert await other.get("tt:{1}:probe") == b"x"
        finally:
            await other.aclose()
    finally:
        await redis.aclose()


async def test_a_key_already_moved_mid_migration_is_read_after_ask_with_a_warm_pool(
    cluster3: EmbeddedCluster,
) -> None:
    """During a reshard the source answers ASK for a key already migrated; the ASKING
    must go on the connection that carries the command, even when the client holds
    several connections to the target (redis-py 8.2 alone sent them on two)."""
    key = "tt:{ask-probe}:x"
    slot = key_slot(key.encode())
    source = cluster3.master_of(slot)
    target = next(n for n in cluster3.nodes if n is not source)
    warm = next(
        k
        for i in range(10_000)
        if cluster3.master_of(key_slot((k := f"warm{i}").encode())) is target
    )
    redis = connect(cluster3.url)
    src, dst = source.client(), target.client()
    try:
        await redis.set(key, "before the move")
        node_command(dst, "CLUSTER SETSLOT", slot, "IMPORTING", source.node_id)
        node_command(src, "CLUSTER SETSLOT", slot, "MIGRATING", target.node_id)
        node_command(src, "MIGRATE", HOST, target.port, "", 0, 5_000, "KEYS", key)
        # Eight commands at once leave eight free connections to the target.
        await asyncio.gather(*(redis.get(warm) for _ in range(8)))
        for _ in range(4):
            assert await redis.get(key) == b"before the move"
    finally:
        for c in (dst, src):  # the move finished, target first
            node_command(c, "CLUSTER SETSLOT", slot, "NODE", target.node_id)
        src.close()
        dst.close()
        await redis.aclose()


async def test_the_live_hub_follows_every_partition_on_a_cluster(
    cluster3: EmbeddedCluster,
) -> None:
    admin = connect(cluster3.url)
    await admin.flushdb()
    hub = LiveHub(connect(cluster3.url), P, block_ms=100)
    await hub.start()
    try:
        async with deployment(cluster3.url) as (svcs, _, _):
            ids = ids_for_every_partition(1)
            queues = {mid: hub.subscribe(mid) for mid in ids}
            entered = {mid: q.__enter__() for mid, q in queues.items()}
            async with compose.client(settings(cluster3.url), timeout=30) as client:
                for mid in ids:
                    await client.create("countdown", 2, match_id=mid)
            for mid in ids:
                first = await entered[mid].get()
                assert first.match_id == mid and first.version == 1
            for q in queues.values():
                q.__exit__(None, None, None)
    finally:
        await hub.stop()
        await admin.aclose()


async def test_table_chat_of_every_partition_is_said_and_heard_on_a_cluster(
    cluster3: EmbeddedCluster,
) -> None:
    """Each partition's chat keys live in its slot: the script saying a line stays
    there, and the chat hub follows every partition's stream on its own master."""
    redis = connect(cluster3.url)
    await redis.flushdb()
    hub = ChatHub(connect(cluster3.url), P, block_ms=100)
    await hub.start()
    chat = Chat(redis, compose.event_store(settings(cluster3.url), redis), hub)
    try:
        ids = ids_for_every_partition(1)
        queues = {mid: hub.subscribe(mid) for mid in ids}
        heard = {mid: q.__enter__() for mid, q in queues.items()}
        for mid in ids:
            said = await chat.say(ChatLine(match_id=mid, seat=0, player="p", name="P", text=mid))
            assert said.id
        for mid in ids:
            line = await asyncio.wait_for(heard[mid].get(), 60)  # a bound, not a measure
            assert isinstance(line, ChatLine) and line.text == mid
            assert [kept.text for kept in await chat.recent(mid)] == [mid]
        for q in queues.values():
            q.__exit__(None, None, None)
    finally:
        await hub.stop()
        await redis.aclose()


async def test_replies_that_wait_for_a_replica_say_so_when_there_is_none(
    cluster3: EmbeddedCluster,
) -> None:
    """WAIT is sent to every master a batch wrote to: with no replicas, each batch is
    counted unreplicated, and the commands are still answered."""
    admin = connect(cluster3.url)
    await admin.flushdb()
    try:
        async with deployment(cluster3.url, wait_replicas=1, wait_ms=10) as (svcs, _, _):
            async with compose.client(settings(cluster3.url), timeout=30) as client:
                played = await play_everywhere(client, svcs[0], ids_for_every_partition(1)[:3])
            store: Any = svcs[0].store
            assert store.unreplicated > 0
            for mid in played:
                assert (await a.audit(store, mid)).status == "ok"
    finally:
        await admin.aclose()


async def test_the_log_clock_reads_a_one_master_cluster_too(tmp_path: Any) -> None:
    """With one master, redis-py answers TIME to all primaries bare, not per node: the
    ratings' log clock (the earliest server clock) must read it either way."""
    from events.redis_store import RedisEventStore

    cluster = EmbeddedCluster(tmp_path, masters=1).start()
    redis = connect(cluster.url)
    try:
        clock = await RedisEventStore(redis, P).log_clock()
        seconds, micros = await redis.time()
        assert clock is not None and abs(clock - (seconds * 1000 + micros // 1000)) < 60_000
    finally:
        await redis.aclose()
        cluster.stop()


def test_a_node_whose_port_was_taken_after_the_probe_starts_on_another(tmp_path: Any) -> None:
    """Between the free-port probe and redis-server's bind, another process may take the
    port (CI saw it): the node is started again on a fresh port instead of failing."""
    import socket

    cluster = EmbeddedCluster(tmp_path, masters=1)
    taken = cluster.nodes[0].port
    with socket.socket() as squatter:
        squatter.bind((HOST, taken))
        squatter.listen()
        cluster.start()
        try:
            assert cluster.nodes[0].port != taken
            with cluster.nodes[0].client() as c:
                assert node_command(c, "CLUSTER INFO")["cluster_state"] == "ok"
        finally:
            cluster.stop()
