"""The event store's promises, against a real redis-server."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import cast

import msgspec
import pytest
from redis.asyncio import Redis
from redis.crc import key_slot
from redis.typing import EncodableT, FieldT

from events.envelope import GENESIS, first_bad_link, seal
from events.keys import Keys, partition_of
from events.redis_store import (
    RedisEventStore,
    raw_streams,
    read_entries,
    read_partitions_entries,
)
from events.store import AppendFailed, AppendRequest, Snapshot
from services.infra.embedded import EmbeddedRedis
from services.infra.redisconn import is_cluster
from tests.support import commandstats

pytestmark = pytest.mark.redis
# XRANGE's entries as the services' client returns them: bytes (it decodes no responses).
Entries = list[tuple[bytes, dict[bytes, bytes]]]


def request(
    match_id: str, expected: int, n: int, command_id: str, prev: str = GENESIS
) -> AppendRequest:
    envs = seal(
        match_id=match_id,
        first_version=expected + 1,
        prev=prev,
        items=[("test.happened", b'{"type":"test.happened","n":%d}' % i) for i in range(n)],
        command_id=command_id,
        recorded_at=1,
        command=b'{"type":"test"}',
    )
    return AppendRequest(match_id, expected, command_id, b'{"reply":1}', envs)


async def test_appends_are_gapless_and_readable_by_version(redis: Redis) -> None:
    store = RedisEventStore(redis)
    first = request("m1", 0, 3, "c1")
    [ok] = await store.append_batch([first])
    assert ok.status == "ok" and ok.version == 3
    [ok] = await store.append_batch([request("m1", 3, 2, "c2", prev=first.envelopes[-1].hash)])
    assert ok.version == 5
    loaded = await store.load("m1")
    assert [e.version for e in loaded] == [1, 2, 3, 4, 5]
    assert [e.version for e in await store.load("m1", after_version=3)] == [4, 5]
    assert first_bad_link(loaded) is None
    assert loaded[0].payload == first.envelopes[0].payload


async def test_two_racing_appends_at_one_version_exactly_one_wins(redis: Redis) -> None:
    store = RedisEventStore(redis)
    await store.append_batch([request("race", 0, 1, "c0")])
    racers = [store.append_batch([request("race", 1, 2, f"r{i}")]) for i in range(50)]
    results = [r for [r] in await asyncio.gather(*racers)]
    assert sum(r.status == "ok" for r in results) == 1
    assert sum(r.status == "conflict" for r in results) == 49
    assert [e.version for e in await store.load("race")] == [1, 2, 3]


async def test_a_stale_append_writes_nothing_anywhere(redis: Redis) -> None:
    store = RedisEventStore(redis)
    await store.append_batch([request("m2", 0, 2, "c1")])
    log_before = await redis.xlen(store.keys("m2").log)
    [conflict] = await store.append_batch([request("m2", 1, 3, "c2")])
    assert conflict.status == "conflict" and conflict.version == 2
    assert await redis.xlen(store.keys("m2").match("m2")) == 2
    assert await redis.xlen(store.keys("m2").log) == log_before
    assert await store.reply_for("m2", "c2") is None


async def test_the_same_command_id_appends_once_and_returns_the_first_reply(redis: Redis) -> None:
    store = RedisEventStore(redis)
    [ok] = await store.append_batch([request("m3", 0, 2, "same")])
    [dup] = await store.append_batch([request("m3", 2, 2, "same")])
    assert ok.status == "ok"
    assert dup.status == "duplicate" and dup.reply == b'{"reply":1}'
    assert len(await store.load("m3")) == 2


async def test_the_partition_log_holds_every_event_in_commit_order(redis: Redis) -> None:
    store = RedisEventStore(redis, partitions=1)
    ids = [f"m{i}" for i in range(10)]
    await asyncio.gather(*(store.append_batch([request(i, 0, 3, "a")]) for i in ids))
    await asyncio.gather(*(store.append_batch([request(i, 3, 1, "b")]) for i in ids))
    log = cast(Entries, await redis.xrange(Keys(0).log))
    seen: dict[str, int] = {}
    for _, fields in log:
        mid, v, n = fields[b"m"].decode(), int(fields[b"v"]), int(fields[b"n"])
        assert v == seen.get(mid, 0) + 1, "the log shows a version before its predecessor"
        seen[mid] = v + n - 1
    assert seen == dict.fromkeys(ids, 4)
    # Read back, each command's events come at its entry's position, in order.
    events = await store.read_log(0, "0-0", 100)
    assert len(events) == 40 and len({eid for eid, _ in events}) == 20
    for mid in ids:
        assert [e.version for _, e in events if e.match_id == mid] == [1, 2, 3, 4]


async def test_the_log_names_each_commands_events_and_keeps_none_itself(
    redis: Redis,
) -> None:
    store = RedisEventStore(redis, partitions=1)
    sent = request("m1", 0, 2, "c1")
    await store.append_batch([sent])
    [(eid, logged)] = cast(Entries, await redis.xrange(Keys(0).log))
    [(_, kept), _] = cast(Entries, await redis.xrange(Keys(0).match("m1")))
    first = sent.envelopes[0]
    assert logged == {b"m": b"m1", b"v": b"1", b"n": b"2", b"t": b"test.happened"}
    # One field an event: its content without its match and version (the entry's id).
    assert list(kept) == [b"e"]
    held = msgspec.msgpack.decode(kept[b"e"])
    assert held == [
        first.type,
        bytes(first.payload),
        "c1",
        first.recorded_at,
        first.schema,
        first.hash,
        bytes(first.command),
    ]
    # Each link is the hash of the entry before, so it is not stored again.
    assert first.prev not in held
    # The projectors read the events, chain included, from the match stream.
    assert await store.read_log(0, "0-0", 10) == [(eid, e) for e in sent.envelopes]
    assert await store.load("m1", 1) == sent.envelopes[1:]
    assert await store.load("m1") == list(sent.envelopes)


async def test_the_stream_contract_names_the_fields_the_store_writes(redis: Redis) -> None:
    # docs/asyncapi.yaml once described fields the store had stopped writing.
    from services.contracts.asyncapi import build

    # Built in a thread: the document runs example commands on an event loop of its own.
    documented = (await asyncio.to_thread(build))["components"]["schemas"]
    store = RedisEventStore(redis, partitions=1)
    await store.append_batch([request("m1", 0, 2, "c1")])
    [(_, logged)] = cast(Entries, await redis.xrange(Keys(0).log))
    [(_, kept), _] = cast(Entries, await redis.xrange(Keys(0).match("m1")))
    for name, fields in (("LogEntry", logged), ("MatchEntry", kept)):
        schema = documented[name]
        assert (
            {f.decode() for f in fields} == set(schema["properties"]) == set(schema["required"])
        ), name
    # The match entry's array holds the seven values its description names, in order.
    told = documented["MatchEntry"]["properties"]["e"]["description"]
    said = ["type", "payload", "command id", "recorded at", "schema", "hash", "command (bin"]
    assert [told.index(what) for what in said] == sorted(told.index(what) for what in said)
    assert len(msgspec.msgpack.decode(kept[b"e"])) == len(said)


async def test_entries_of_the_earlier_layouts_read_as_the_current_ones(
    redis: Redis,
) -> None:
    # The usual entries hold an event in one field; those written before (a field each,
    # with or without a link `pv` on each event, a log entry carrying its one event)
    # are read by name.
    store = RedisEventStore(redis, partitions=1)
    sent = request("m1", 0, 3, "c1")
    await store.append_batch([sent])
    first, second, third = sent.envelopes
    fields: dict[FieldT, EncodableT] = {
        b"t": second.type.encode(),
        b"d": bytes(second.payload),
        b"c": b"c1",
        b"at": b"1",
        b"s": str(second.schema).encode(),
        b"pv": first.hash.encode(),
        b"h": second.hash.encode(),
        b"x": bytes(second.command),
    }
    field_each: dict[FieldT, EncodableT] = {
        b"t": third.type.encode(),
        b"d": bytes(third.payload),
        b"c": b"c1",
        b"at": str(third.recorded_at).encode(),
        b"s": str(third.schema).encode(),
        b"h": third.hash.encode(),
        b"x": bytes(third.command),
    }
    [(_, kept), _, _] = cast(Entries, await redis.xrange(Keys(0).match("m1")))
    await redis.delete(Keys(0).match("m1"))
    # XADD takes a dict of any encodable values (a dict type, invariant): bytes are.
    await redis.xadd(Keys(0).match("m1"), cast("dict[FieldT, EncodableT]", kept), id="0-1")
    await redis.xadd(Keys(0).match("m1"), fields, id="0-2")
    await redis.xadd(Keys(0).match("m1"), field_each, id="0-3")
    assert await store.load("m1") == list(sent.envelopes)
    assert [env for _, env in await store.read_log(0, "0-0", 10)] == list(sent.envelopes)
    # A log entry of the layout before one entry per command carries its event.
    await redis.delete(Keys(0).log)
    old = {b"m": b"m1", b"v": b"1", **{k: v for k, v in fields.items() if k != b"pv"}}
    old[b"pv"] = GENESIS.encode()
    old[b"h"] = first.hash.encode()
    old[b"t"], old[b"d"] = first.type.encode(), bytes(first.payload)
    old_id = await redis.xadd(Keys(0).log, old)
    [(got_id, env)] = await store.read_log(0, "0-0", 10)
    assert got_id == old_id
    assert (env.match_id, env.version, env.hash, bytes(env.payload)) == (
        "m1",
        1,
        first.hash,
        bytes(first.payload),
    )


async def test_the_entries_of_several_partitions_are_read_at_once_in_log_order(
    redis: Redis,
) -> None:
    # What the live hub does with one XREAD over every partition log.
    store = RedisEventStore(redis, partitions=4)
    ids = [f"m{i}" for i in range(12)]
    firsts = [request(mid, 0, 2, "a") for mid in ids]
    await store.append_batch(firsts)
    await store.append_batch(
        [
            request(mid, 2, 1, "b", prev=first.envelopes[-1].hash)
            for mid, first in zip(ids, firsts, strict=True)
        ]
    )
    logs = {p: cast(Entries, await redis.xrange(Keys(p).log)) for p in range(4)}
    assert sum(1 for found in logs.values() if found) > 1, "the matches share one partition"
    wanted = {p: found for p, found in logs.items() if found}
    together = await read_partitions_entries(redis, wanted, None)
    # The same as each partition read on its own: every event at its entry's
    # position, each match's in version order and linked to the one before.
    assert together == {p: await read_entries(redis, p, found, None) for p, found in wanted.items()}
    for mid in ids:
        mine = [e for read in together.values() for _, e in read if e and e.match_id == mid]
        assert [e.version for e in mine] == [1, 2, 3]
        assert first_bad_link(mine) is None


async def test_a_raw_read_leaves_the_clients_own_replies_and_costs_no_copy(
    redis: Redis,
) -> None:
    # The readers take XRANGE's entries as Redis sends them; the client's other users
    # still get redis-py's. Copying the client's 171 callbacks per read took 90 µs.
    if is_cluster(redis):
        pytest.skip("a cluster pipeline parses on its nodes (readers take both)")
    await redis.xadd("s", {"e": b"x"})
    first, second = redis.pipeline(transaction=False), redis.pipeline(transaction=False)
    raw_streams(first)
    raw_streams(second)
    assert first.response_callbacks is second.response_callbacks
    assert "XRANGE" not in first.response_callbacks
    first.xrange("s")
    [[(eid, fields)]] = await first.execute()
    assert fields == [b"e", b"x"]
    assert await redis.xrange("s") == [(eid, {b"e": b"x"})]


async def test_a_match_entry_written_with_its_link_keeps_it(redis: Redis) -> None:
    fields: dict[FieldT, EncodableT] = {
        "t": "x.y",
        "d": b"{}",
        "c": "c1",
        "at": 5,
        "s": 2,
        "pv": "ab" * 16,
        "h": "cd" * 16,
    }
    await redis.xadd(Keys(0).match("old"), {**fields, "x": b"null"}, id="0-1")
    [env] = await RedisEventStore(redis, partitions=1).load("old")
    assert (env.prev, env.hash) == ("ab" * 16, "cd" * 16)


async def test_a_log_entry_written_with_its_event_is_read_as_before(redis: Redis) -> None:
    await redis.xadd(
        Keys(0).log,
        {
            "m": "old",
            "v": 1,
            "t": "match.created",
            "d": b'{"type":"match.created"}',
            "c": "c0",
            "at": 5,
            "s": 2,
        },
    )
    [(_, env)] = await RedisEventStore(redis, partitions=1).read_log(0, "0-0", 10)
    assert (env.match_id, env.version, env.type, env.command_id) == (
        "old",
        1,
        "match.created",
        "c0",
    )
    assert bytes(env.payload) == b'{"type":"match.created"}'


async def test_a_batch_after_the_server_lost_its_scripts_appends_once(redis: Redis) -> None:
    store = RedisEventStore(redis)
    await store.append_batch([request("a", 0, 1, "a1"), request("b", 0, 1, "b1")])
    await redis.script_flush()  # as after a restart without persistence of scripts
    results = await store.append_batch([request("a", 1, 2, "a2"), request("b", 1, 1, "b2")])
    assert [(r.status, r.version) for r in results] == [("ok", 3), ("ok", 2)]
    assert [e.version for e in await store.load("a")] == [1, 2, 3]
    assert [e.version for e in await store.load("b")] == [1, 2]


async def test_a_script_error_in_a_batch_is_raised_not_swallowed(redis: Redis) -> None:
    store = RedisEventStore(redis)
    gap = request("g", 0, 1, "g1")
    assert isinstance(gap.envelopes, list)  # as `request` seals them: changed in place
    gap.envelopes[0] = msgspec.structs.replace(gap.envelopes[0], version=5)
    with pytest.raises(Exception, match="without gaps"):
        await store.append_batch([request("ok", 0, 1, "o1"), gap])
    assert await store.version("g") == 0


async def test_a_request_whose_events_skip_a_version_is_refused_before_anything_is_sent(
    redis: Redis,
) -> None:
    # The script numbers a decision's events from its first on: one that skipped would
    # be stored under a version its hash was not sealed with.
    store = RedisEventStore(redis)
    skips = request("s", 0, 2, "s1")
    assert isinstance(skips.envelopes, list)
    skips.envelopes[1] = msgspec.structs.replace(skips.envelopes[1], version=3)
    await commandstats.reset(redis)
    with pytest.raises(ValueError, match="v3 does not follow v1"):
        await store.append_batch([request("fine", 0, 1, "f1"), skips])
    assert "evalsha" not in await commandstats.calls(redis)
    assert (await store.version("s"), await store.version("fine")) == (0, 0)


async def test_a_partitions_decisions_go_in_one_call_and_a_failing_one_fails_alone(
    redis: Redis,
) -> None:
    store = RedisEventStore(redis, partitions=2)
    ids = [f"m{i}" for i in range(40)]
    here = [m for m in ids if partition_of(m, 2) == 0][:4]
    there = next(m for m in ids if partition_of(m, 2) == 1)
    gap = request(here[1], 0, 1, "gap")
    assert isinstance(gap.envelopes, list)
    gap.envelopes[0] = msgspec.structs.replace(gap.envelopes[0], version=5)
    await redis.set(Keys(0).replies(here[2]), "not a hash")  # its check meets WRONGTYPE
    batch = [
        request(here[0], 0, 2, "first"),
        gap,
        request(here[2], 0, 1, "wrong"),
        request(there, 0, 1, "elsewhere"),
        request(here[3], 0, 1, "last"),
    ]
    await commandstats.reset(redis)
    with pytest.raises(AppendFailed) as failed:
        await store.append_batch(batch)
    assert (await commandstats.calls(redis))["evalsha"] == 2  # one call a partition
    outcomes = failed.value.outcomes
    assert [getattr(o, "status", None) for o in outcomes] == ["ok", None, None, "ok", "ok"]
    assert "without gaps" in str(outcomes[1]) and "WRONGTYPE" in str(outcomes[2])
    assert [await store.version(m) for m in here] == [2, 0, 0, 1]
    assert await store.version(there) == 1


async def test_two_decisions_of_one_match_in_one_call_append_in_their_order(
    redis: Redis,
) -> None:
    store = RedisEventStore(redis, partitions=1)
    one = request("a", 0, 2, "a1")
    two = request("a", 2, 1, "a2", prev=one.envelopes[-1].hash)
    stale = request("a", 2, 1, "a3")  # decided on the version the first one left behind
    results = await store.append_batch([one, two, stale])
    assert [(r.status, r.version) for r in results] == [("ok", 2), ("ok", 3), ("conflict", 3)]
    assert first_bad_link(await store.load("a")) is None
    assert [e.command_id for e in await store.load("a")] == ["a1"] * 2 + ["a2"]


async def test_snapshots_are_kept_apart_and_read_back(redis: Redis) -> None:
    store = RedisEventStore(redis)
    await store.save_snapshot("m4", Snapshot(version=7, state=b'{"x":1}', last_hash="ab"))
    assert await store.load_snapshot("m4") == Snapshot(7, b'{"x":1}', "ab")
    assert await store.load_snapshot("other") is None


def test_every_key_one_script_touches_hashes_to_one_slot() -> None:
    for match_id in ("a", "match-42", "x" * 40):
        k = Keys(partition_of(match_id))
        slots = {
            key_slot(key.encode())
            for key in (
                k.match(match_id),
                k.log,
                k.replies(match_id),
                k.snapshot(match_id),
                k.commands,
                k.public,
            )
        }
        assert len(slots) == 1


def test_a_partitions_keys_are_named_once_and_survive_pickling() -> None:
    import pickle

    keys = Keys(7)
    assert Keys(7) is keys and Keys(8) is not keys
    assert (keys.log, keys.match("m")) == ("tt:{7}:log", "tt:{7}:match:m")
    assert pickle.loads(pickle.dumps(keys)) is keys


def test_no_code_path_trims_or_deletes_event_keys() -> None:
    root = Path(__file__).parents[2]
    for path in [
        *root.glob("events/*.py"),
        *root.glob("events/*.lua"),
        *root.glob("services/*.py"),
    ]:
        text = path.read_text()
        for banned in ("xtrim", "XTRIM", "xdel(", "XDEL", "MINID"):
            assert banned not in text, f"{path.name} uses {banned}"


async def test_acknowledged_appends_survive_a_crash(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "d", appendfsync="always").start()
    try:
        client = Redis.from_url(server.url)
        store = RedisEventStore(client)
        for i in range(20):
            [r] = await store.append_batch([request("durable", i, 1, f"c{i}")])
            assert r.status == "ok"
        await client.aclose()
        server.kill()  # SIGKILL: no shutdown, no final fsync
        server = EmbeddedRedis(tmp_path / "d", appendfsync="always").start()
        client = Redis.from_url(server.url)
        loaded = await RedisEventStore(client).load("durable")
        assert [e.version for e in loaded] == list(range(1, 21))
        await client.aclose()
    finally:
        server.stop()


def test_a_tampered_payload_breaks_the_chain_at_its_version() -> None:
    envs = request("t", 0, 5, "c").envelopes
    bad = list(envs)
    bad[2] = msgspec.structs.replace(envs[2], payload=msgspec.Raw(b'{"type":"x"}'))
    assert first_bad_link(list(envs)) is None
    assert first_bad_link(bad) == 3


async def test_a_batch_reads_each_match_stream_once_however_many_of_its_commands(
    redis: Redis,
) -> None:
    store = RedisEventStore(redis, partitions=1)
    # Two matches, six commands of two events each, interleaved in the log.
    last = {"a": GENESIS, "b": GENESIS}
    for n in range(6):
        for mid in ("a", "b"):
            sent = request(mid, 2 * n, 2, f"{mid}{n}", prev=last[mid])
            await store.append_batch([sent])
            last[mid] = sent.envelopes[-1].hash
    log = cast(Entries, await redis.xrange(Keys(0).log))
    # A batch starting mid-match: its first events link to one read for its hash only.
    await commandstats.reset(redis)
    events = await store.read_log(0, log[3][0].decode(), 100)
    assert (await commandstats.calls(redis))["xrange"] == 3  # the log, then each match once
    assert len(events) == 16 and [eid for eid, _ in events[:2]] == [log[4][0]] * 2
    for mid in ("a", "b"):
        assert [e for _, e in events if e.match_id == mid] == await store.load(mid, 4)
