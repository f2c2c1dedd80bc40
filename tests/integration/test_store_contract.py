"""The event-store contract, kept alike by the Redis store and its in-memory twin.

Every test runs on both: what the projector, the audit and the command service rely
on (events/store.py's `EventStore`) must not depend on which store they are given.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from events import redis_store
from events.envelope import GENESIS, seal
from events.keys import partition_of
from events.redis_store import RedisEventStore
from events.store import (
    START,
    AppendRequest,
    EventStore,
    InMemoryStore,
    Snapshot,
    Start,
    position,
)

pytestmark = pytest.mark.redis
P = 4


@pytest_asyncio.fixture(params=["redis", "memory"])
async def store(request: pytest.FixtureRequest, redis: Redis) -> AsyncIterator[EventStore]:
    if request.param == "redis":
        yield RedisEventStore(redis, partitions=P)
    else:
        yield InMemoryStore(partitions=P)


def in_partition(p: int, count: int) -> list[str]:
    """`count` match ids that hash to partition p."""
    found = [f"m{i}" for i in range(500) if partition_of(f"m{i}", P) == p]
    return found[:count]


class Writer:
    """Appends decisions to matches, keeping each one's hash chain."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.last: dict[str, tuple[int, str]] = {}
        self.n = 0

    def request(self, match_id: str, types: list[str], command_id: str = "") -> AppendRequest:
        version, prev = self.last.get(match_id, (0, GENESIS))
        self.n += 1
        command_id = command_id or f"c{self.n}"
        envelopes = seal(
            match_id=match_id,
            first_version=version + 1,
            prev=prev,
            items=[(t, b'{"type":"%s"}' % t.encode()) for t in types],
            command_id=command_id,
            recorded_at=1,
            command=b'{"type":"test"}',
        )
        return AppendRequest(match_id, version, command_id, b'{"n":%d}' % self.n, envelopes)

    async def append(self, match_id: str, *types: str) -> AppendRequest:
        r = self.request(match_id, list(types))
        [result] = await self.store.append_batch([r])
        assert result.status == "ok"
        self.last[match_id] = (result.version, r.envelopes[-1].hash)
        return r


async def test_a_match_reads_back_gapless_by_version(store: EventStore) -> None:
    w = Writer(store)
    await w.append("a", "t.one", "t.two")
    await w.append("a", "t.three")
    assert [e.version for e in await store.load("a")] == [1, 2, 3]
    assert [e.type for e in await store.load("a", after_version=2)] == ["t.three"]
    assert await store.version("a") == 3
    assert await store.version("nobody") == 0
    assert await store.load("nobody") == []


async def test_an_append_at_a_stale_version_is_a_conflict_and_writes_nothing(
    store: EventStore,
) -> None:
    w = Writer(store)
    await w.append("a", "t.one")
    stale = w.request("a", ["t.late"])
    stale = AppendRequest("a", 0, stale.command_id, stale.reply, stale.envelopes)
    [result] = await store.append_batch([stale])
    assert (result.status, result.version) == ("conflict", 1)
    assert await store.version("a") == 1
    assert await store.reply_for("a", stale.command_id) is None


async def test_the_same_command_twice_appends_once_and_answers_the_first_reply(
    store: EventStore,
) -> None:
    w = Writer(store)
    first = await w.append("a", "t.one")
    again = AppendRequest("a", 1, first.command_id, b'{"other":1}', ())
    [result] = await store.append_batch([again])
    assert (result.status, result.reply) == ("duplicate", first.reply)
    assert await store.version("a") == 1


async def test_every_reply_is_recorded_rejections_too(store: EventStore) -> None:
    w = Writer(store)
    accepted = await w.append("a", "t.one")
    # A rejection: a reply and no events, without a version check.
    [result] = await store.append_batch([AppendRequest("a", -1, "no", b'{"rejected":1}')])
    assert result.status == "ok"
    assert await store.recorded_replies("a") == {
        accepted.command_id: accepted.reply,
        "no": b'{"rejected":1}',
    }
    assert await store.reply_for("a", "no") == b'{"rejected":1}'
    assert await store.recorded_replies("nobody") == {}


async def test_a_snapshot_reads_back_as_saved(store: EventStore) -> None:
    assert await store.load_snapshot("a") is None
    await store.save_snapshot("a", Snapshot(version=7, state=b"\x00state", last_hash="h7"))
    assert await store.load_snapshot("a") == Snapshot(7, b"\x00state", "h7")


async def test_snapshots_saved_together_read_back_each_as_saved(store: EventStore) -> None:
    await store.save_snapshot("a", Snapshot(version=7, state=b"old", last_hash="h7"))
    later = {"a": Snapshot(9, b"\x00a", "h9"), "b": Snapshot(3, b"\x00b", "h3")}
    await store.save_snapshots(later)
    assert {mid: await store.load_snapshot(mid) for mid in later} == later


async def test_matches_read_together_start_from_their_snapshots(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_store, "READ_COUNT", 2)  # a tail longer than one read reads on
    w = Writer(store)
    await w.append("a", "t.one", "t.two")
    await w.append("a", "t.three")
    await w.append("b", "t.one", "t.two")
    kept = Snapshot(version=2, state=b"\x00state", last_hash=w.last["b"][1])
    await store.save_snapshot("b", kept)
    await w.append("b", "t.three", "t.four", "t.five")
    starts = await store.load_starts(["a", "b", "nobody"])
    assert starts == {
        "a": Start(None, await store.load("a")),
        "b": Start(kept, await store.load("b", after_version=2)),
        "nobody": Start(None, []),
    }
    assert [e.version for e in starts["a"].tail] == [1, 2, 3]
    assert [e.version for e in starts["b"].tail] == [3, 4, 5]
    assert starts["b"].tail[0].prev == kept.last_hash


async def test_every_match_is_listed_once_sorted(store: EventStore) -> None:
    w = Writer(store)
    ids = ["zed", *in_partition(0, 2), *in_partition(3, 2)]
    for match_id in ids:
        await w.append(match_id, "t.one")
        await w.append(match_id, "t.two")
    assert await store.match_ids() == sorted(ids)


async def test_a_partition_log_holds_its_matches_events_in_commit_order(
    store: EventStore,
) -> None:
    w = Writer(store)
    one, two = in_partition(1, 2)
    elsewhere = in_partition(2, 1)[0]
    await w.append(one, "t.a", "t.b")
    await w.append(elsewhere, "t.x")
    await w.append(two, "t.c")
    await w.append(one, "t.d")
    log = await store.read_log(1, START, 100)
    assert [(e.match_id, e.version, e.type) for _, e in log] == [
        (one, 1, "t.a"),
        (one, 2, "t.b"),
        (two, 1, "t.c"),
        (one, 3, "t.d"),
    ]
    assert [position(pos) for pos, _ in log] == sorted(position(pos) for pos, _ in log)
    # What a reader needs from the log travels with it; the record stays in the match.
    assert log[0][1].payload == (await store.load(one))[0].payload
    assert [e.type for _, e in await store.read_log(2, START, 100)] == ["t.x"]
    assert await store.read_log(0, START, 100) == []


async def test_a_log_is_read_on_from_a_position_a_batch_at_a_time(store: EventStore) -> None:
    w = Writer(store)
    [match_id] = in_partition(1, 1)
    for n in range(5):
        await w.append(match_id, f"t.e{n}")
    first = await store.read_log(1, START, 2)
    assert [e.version for _, e in first] == [1, 2]
    rest = await store.read_log(1, first[-1][0].decode(), 100)
    assert [e.version for _, e in rest] == [3, 4, 5]
    assert await store.read_log(1, rest[-1][0].decode(), 100) == []


async def test_several_logs_read_at_once_decode_only_the_types_asked_for(
    store: EventStore,
) -> None:
    w = Writer(store)
    [a] = in_partition(0, 1)
    [b] = in_partition(3, 1)
    await w.append(a, "t.moved", "t.finished")
    await w.append(b, "t.moved")
    whole = {p: await store.read_log(p, START, 100) for p in (0, 3)}
    found = await store.read_logs({0: START, 3: START}, 100, ("t.finished",))
    assert set(found) == {0, 3}
    # A command's events share its position; a command whose last event is of an asked
    # type is read whole (match.finished is always a command's last), another is passed.
    assert [pos for pos, _ in found[0]] == [pos for pos, _ in whole[0]]
    assert len({pos for pos, _ in whole[0]}) == 1
    assert [env.type if env else None for _, env in found[0]] == ["t.moved", "t.finished"]
    assert [env for _, env in found[3]] == [None]
    assert await store.read_logs({0: START}, 100, ("t.moved",)) == {0: [(whole[0][0][0], None)]}
    assert await store.read_logs({0: whole[0][0][0].decode()}, 100, ()) == {0: []}


async def test_the_log_heads_are_each_partitions_newest_position(store: EventStore) -> None:
    assert await store.log_heads() == [START.encode()] * P
    w = Writer(store)
    [a] = in_partition(2, 1)
    await w.append(a, "t.one", "t.two")
    heads = await store.log_heads()
    newest = (await store.read_log(2, START, 100))[-1][0]
    assert heads == [START.encode(), START.encode(), newest, START.encode()]
