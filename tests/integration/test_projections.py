"""Read models, public stream, ratings, replay, audit, export/import, fork, upcasting --
against a real redis-server."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import msgspec
import pytest
import pytest_asyncio
from redis.asyncio import Redis
from redis.exceptions import ResponseError
from redis.typing import EncodableT, FieldT

from domain import kernel
from domain import match as m
from events.archive import ArchivedStore
from events.envelope import seal
from events.keys import Keys, partition_of
from events.matches import load_match
from events.redis_store import RedisEventStore
from events.store import AppendRequest
from services import compose
from services.client.bots import play_match
from services.client.client import TabletopClient
from services.commands.service import CommandService
from services.infra.config import Settings
from services.infra.embedded import EmbeddedRedis
from services.readside import audit as a
from services.readside.projector import Projector
from services.readside.readmodels import ReadModels
from services.readside.writes import RUN_LUA, Writes
from tests.support import commandstats

pytestmark = pytest.mark.redis
P = 4
# XRANGE's entries as the services' client returns them: bytes (it decodes no responses).
Entries = list[tuple[bytes, dict[bytes, bytes]]]


@pytest_asyncio.fixture
async def service(redis: Redis, redis_server: str) -> AsyncIterator[CommandService]:
    svc = compose.command_service(
        Settings(trust_seeds=True, redis_url=redis_server, partitions=P, polling_ms=20)
    )
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


@pytest_asyncio.fixture
async def played(
    service: CommandService, redis_server: str
) -> AsyncIterator[tuple[CommandService, list[str]]]:
    async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as client:
        results = await asyncio.gather(
            *(
                play_match(
                    client,
                    service.store,
                    "countdown",
                    seats=2 + s % 2,
                    seed=s,
                    bot_seed=s,
                    options={"start": 12},
                )
                for s in range(6)
            )
        )
        # One match left open in the lobby (Cid sat down there and left), one in play.
        open_id = await client.create("countdown", 3)
        await client.join(open_id, "Ann")
        await client.join(open_id, "Cid")
        await client.leave(open_id, "Cid")
        playing = await client.create("countdown", 2)
        await client.join(playing, "Ann")
        await client.join(playing, "Bea")
        await client.start(playing, "Ann", seed=1)
    yield service, [mid for mid, _ in results] + [open_id, playing]


async def test_the_lobby_lists_open_playing_and_finished_matches_newest_first(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    service, ids = played
    projector = Projector(redis, service.store)
    assert await projector.catch_up() > 0
    models = ReadModels(redis, P)
    finished = await models.lobby(status="finished")
    assert {s.match_id for s in finished} == set(ids[:6])
    assert [s.updated_at for s in finished] == sorted(
        (s.updated_at for s in finished), reverse=True
    )
    assert [s.match_id for s in await models.lobby("countdown", "lobby")] == [ids[6]]
    opened = await models.summary(ids[6])
    assert opened is not None and opened.free_seats == 2 and opened.players[0] == "Ann"
    assert [s.match_id for s in await models.lobby(status="playing")] == [ids[7]]
    assert len(await models.lobby(status="finished", page=1, size=4)) == 2
    done = await models.summary(ids[0])
    assert done is not None and done.status == "finished" and min(done.ranks) == 1
    assert all(row["events_behind"] == 0 for row in await projector.lag())


async def test_each_seat_sees_its_own_secret_and_nobody_elses(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    service, ids = played
    await Projector(redis, service.store).catch_up()
    models = ReadModels(redis, P)
    playing = ids[7]
    seat0 = await models.view(playing, 0)
    seat1 = await models.view(playing, 1)
    spectator = await models.view(playing, None)
    assert seat0 is not None and seat1 is not None and spectator is not None
    assert seat0["table"]["secret"].startswith("cd-secret-")
    assert seat1["table"]["secret"] is None and spectator["table"]["secret"] is None
    mine = await models.history(playing, 0)
    theirs = await models.history(playing, 1)
    assert any(b"cd-secret" in bytes(line.event) for line in mine)
    assert not any(b"cd-secret" in bytes(line.event) for line in theirs)
    assert [line.version for line in mine] == list(range(1, len(mine) + 1))
    assert any("Ann" in line.text or "Bea" in line.text for line in theirs)


async def test_each_reader_reads_a_sentence_for_every_move_it_may_see(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    service, ids = played
    await Projector(redis, service.store).catch_up()
    models = ReadModels(redis, P)
    finished = ids[0]
    live = await load_match(service.store, finished)
    assert live is not None
    names = m.seat_names(live.state.players)
    codec = m.codec("countdown")
    events = [codec.decode(bytes(e.payload)) for e in await service.store.load(finished)]
    for reader in [None, *range(live.state.seats)]:
        expected = [
            m.describe("countdown", shown, reader, names)
            for shown in (m.redact("countdown", e, reader) for e in events)
            if shown is not None
        ]
        assert [line.text for line in await models.history(finished, reader)] == expected


async def test_a_history_is_told_from_the_events_and_never_stored(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    service, ids = played
    finished = ids[0]
    # Before the projector has run: the moves are there the moment they are recorded.
    before = await ReadModels(redis, P).history(finished, 0)
    assert before and before[-1].version == await service.store.version(finished)
    await Projector(redis, service.store).catch_up()
    keys = Keys(partition_of(finished, P))
    assert [k async for k in redis.scan_iter(match=keys.history(finished, "*"))] == []
    assert await ReadModels(redis, P).history(finished, 0) == before
    assert await ReadModels(redis, P).history("no-such-match", None) == []


async def test_the_public_stream_carries_every_event_redacted(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    service, ids = played
    await Projector(redis, service.store).catch_up()
    public: list[dict[str, Any]] = []
    for p in range(P):
        public += [
            msgspec.json.decode(f[b"e"])
            for _, f in cast(Entries, await redis.xrange(Keys(p).public))
        ]
    assert len(public) == await logged_events(service)
    assert {e["kind"] for e in public} >= {
        "match_created",
        "player_joined",
        "match_started",
        "move_played",
        "match_finished",
    }
    assert not any("cd-secret" in str(e["event"]) for e in public)
    assert all(e["schema"] == "tabletop.public/1" for e in public)


async def test_the_public_stream_is_the_same_whether_projected_alone_or_with_the_matches(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    service, _ = played

    async def public_stream() -> list[bytes]:
        return [
            f[b"e"] for p in range(P) for _, f in cast(Entries, await redis.xrange(Keys(p).public))
        ]

    async def forget_public() -> None:
        for p in range(P):
            await redis.delete(Keys(p).public, f"tt:{{{p}}}:public:checkpoint")

    await Projector(redis, service.store, projections=("public",), batch_size=5).catch_up()
    alone = await public_stream()
    await forget_public()
    # Together, in small batches: the public side takes the spectator's lines that the
    # matches side folded, batch after batch.
    await Projector(
        redis, service.store, projections=("matches", "public"), batch_size=7
    ).catch_up()
    assert await public_stream() == alone
    # Public ahead of a rebuilt matches projection: stepped apart, then together again.
    await forget_public()
    await Projector(redis, service.store, projections=("public",), batch_size=4).pass_once()
    rebuilding = Projector(redis, service.store, projections=("matches", "public"), batch_size=6)
    for p in range(P):
        await redis.delete(f"tt:{{{p}}}:rm:checkpoint")
    await rebuilding.catch_up()
    assert await public_stream() == alone


async def test_ratings_count_played_and_won_and_rank_the_leaderboard(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    service, _ = played
    await Projector(redis, service.store).catch_up()
    board = await ReadModels(redis, P).leaderboard("countdown")
    assert {name for name, _ in board} == {"Ann", "Bea", "Cid"}
    assert sum(r.played for _, r in board) == 3 * 2 + 3 * 3
    assert sum(r.won for _, r in board) == 6
    ordinals = [r.ordinal for _, r in board]
    assert ordinals == sorted(ordinals, reverse=True)


async def test_a_players_tables_are_those_they_sit_at_the_latest_change_first(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    service, ids = played
    await Projector(redis, service.store).catch_up()
    models = ReadModels(redis, P)
    for player in ("Ann", "Bea", "Cid"):
        mine = await models.mine(player)
        assert mine and all(player in s.players for s in mine)
        changed = [s.updated_at for s in mine]
        assert changed == sorted(changed, reverse=True)
    ann = [s.match_id for s in await models.mine("Ann")]
    assert ann[:2] == [ids[7], ids[6]]  # in play, then the open table: the latest first
    # Cid left the open table before its start: it is not his.
    assert ids[6] not in [s.match_id for s in await models.mine("Cid")]
    assert [s.match_id for s in await models.mine("Ann", limit=1)] == [ids[7]]


async def test_a_rebuilt_read_model_equals_the_live_one(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    service, _ = played
    live = Projector(redis, service.store)
    await live.catch_up()
    models = ReadModels(redis, P)
    before = await models.dump()
    rebuilt = Projector(redis, service.store)
    seen: list[int] = []
    assert await rebuilt.rebuild("matches", progress=seen.append) > 0
    assert await rebuilt.rebuild("ratings") > 0
    assert await models.dump() == before
    assert sum(seen) == await logged_events(service)


@pytest.mark.parametrize("live_batch", [1, 3])
async def test_a_rebuild_equals_read_models_projected_event_by_event(
    played: tuple[CommandService, list[str]], redis: Redis, live_batch: int
) -> None:
    service, _ = played
    # Live, the projector meets the log in small batches (each prefix of a partition,
    # with batches of one); a rebuild folds it in batches of thousands. Whose turn it is
    # and since when, the inboxes, the lobby: the same either way.
    await Projector(redis, service.store, batch_size=live_batch).catch_up()
    models = ReadModels(redis, P)
    before = await models.dump()
    assert any(":rm:turns:" in key for key in before)
    assert any(":rm:mine:" in key for key in before)
    await Projector(redis, service.store).rebuild("matches")
    assert await models.dump() == before


async def test_a_rebuild_reads_each_batch_while_it_writes_the_one_before(
    played: tuple[CommandService, list[str]], redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, _ = played
    await Projector(redis, service.store).catch_up()
    models = ReadModels(redis, P)
    before = await models.dump()
    monkeypatch.setattr("services.readside.projector.REBUILD_BATCH", 3)
    rebuilding = Projector(redis, service.store, projections=("matches",), batch_size=1)
    reads = rebuilding.store.read_log
    early: list[str] = []  # reads asked for before the checkpoint reached them

    async def read_log(p: int, after: str, count: int) -> Any:
        done = cast("bytes | None", await redis.get(Keys(p).rm_checkpoint))
        if after != "0-0" and (done or b"0-0").decode() != after:
            early.append(after)
        return await reads(p, after, count)

    monkeypatch.setattr(rebuilding.store, "read_log", read_log)
    await rebuilding.rebuild("matches")
    assert early
    assert await models.dump() == before


async def test_a_batch_read_ahead_is_not_taken_for_another(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    # When a batch's write races, its checkpoint stays: the same batch is read again,
    # not the one read ahead of it.
    service, _ = played
    p = partition_of(played[1][0], P)
    projector = Projector(redis, service.store, projections=("matches",))
    projector._read_ahead = True
    first = await projector._read(p, "0-0", 2)
    assert await projector._read(p, "0-0", 2) == first
    after = first[-1][0].decode()
    assert await projector._read(p, after, 2) == await service.store.read_log(p, after, 2)


async def test_a_batch_applied_twice_changes_nothing(
    played: tuple[CommandService, list[str]], redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, _ = played
    models = ReadModels(redis, P)
    await Projector(redis, service.store).catch_up()
    clean = await models.dump()
    for p in range(P):
        await redis.delete(f"tt:{{{p}}}:rm:checkpoint")
    async for key in redis.scan_iter(match="tt:{*}:rm:*"):
        await redis.delete(key)
    # Two projectors race over the same partitions: every batch is prepared twice, and
    # the checkpoint's WATCH lets only one of each pair through.
    one, two = Projector(redis, service.store), Projector(redis, service.store)
    await asyncio.gather(one.catch_up(), two.catch_up())
    await one.catch_up()
    assert await models.dump() == clean


async def test_audit_passes_an_honest_match_and_names_the_first_tampered_version(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    service, ids = played
    result = await a.audit(service.store, ids[0])
    assert result.status == "ok", result.line()
    assert result.line().startswith(f"audit ok: match {ids[0]}: ")
    assert isinstance(service.store, ArchivedStore)  # as compose builds it: it names keys
    key = service.store.keys(ids[0]).match(ids[0])
    # Rewrite event 5 in place with a different payload (as an attacker with Redis access).
    entries = cast(Entries, await redis.xrange(key))
    held = msgspec.msgpack.decode(entries[4][1][b"e"])
    held[1] = held[1][:-1] + b" }"  # its payload, the event's JSON
    fields = {b"e": msgspec.msgpack.encode(held)}
    await redis.delete(key)
    for eid, f in entries:
        # XADD takes a dict of any encodable values (a dict type, invariant): bytes are.
        kept = cast("dict[FieldT, EncodableT]", fields if eid == entries[4][0] else f)
        await redis.xadd(key, kept, id=eid)
    tampered = await a.audit(service.store, ids[0])
    assert tampered.status == "tampered" and tampered.bad_version == 5


async def test_audit_skips_a_match_played_under_other_rules(
    played: tuple[CommandService, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, ids = played
    from tests.support.countdown import GAME

    # A game is a frozen declaration: the newer rules replace it in the registry.
    newer = dataclasses.replace(GAME, rules_version="2")
    monkeypatch.setitem(kernel._REGISTRY, "countdown", newer)
    result = await a.audit(service.store, ids[1])
    assert result.status == "skipped"
    assert result.line().endswith("rules changed from 1 to 2")


async def test_an_exported_match_imports_and_audits_in_another_redis(
    played: tuple[CommandService, list[str]], tmp_path: Path
) -> None:
    service, ids = played
    lines = await a.export_match(service.store, ids[2])
    assert msgspec.json.decode(lines[0])["schema"] == a.EXPORT_SCHEMA
    other = EmbeddedRedis(tmp_path / "other").start()
    try:
        client = Redis.from_url(other.url)
        store = RedisEventStore(client, partitions=P)
        assert await a.import_match(store, lines) == ids[2]
        assert (await a.audit(store, ids[2])).status == "ok"
        original = await load_match(service.store, ids[2])
        copy = await load_match(store, ids[2])
        assert original is not None and copy is not None
        assert m.codec("countdown").encode_state(copy.state) == m.codec("countdown").encode_state(
            original.state
        )
        with pytest.raises(ValueError, match="already exists"):
            await a.import_match(store, lines)
        await client.aclose()
    finally:
        other.stop()


async def test_a_fork_continues_from_a_version_with_a_new_seed_and_audits(
    played: tuple[CommandService, list[str]], redis_server: str
) -> None:
    service, ids = played
    origin = ids[7]
    at = (await load_match(service.store, origin)).state.version  # type: ignore[union-attr]
    forked = await a.fork_match(service.store, origin, at, "fork-1", seed=99)
    assert forked.state.seed == 99 and forked.state.status == "playing"
    async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as client:
        from tests.support.countdown import Take

        player = forked.state.players[forked.state.game_state.turn]
        assert player is not None
        await client.play("fork-1", player, Take(count=1))
    audited = await a.audit(service.store, "fork-1")
    assert audited.status == "ok", audited.line()
    replayed = await a.replay(service.store, "fork-1", to_version=at)
    assert replayed[-1][1].seed != 99


async def test_an_event_stored_under_an_old_schema_is_read_in_the_new_shape(
    redis: Redis,
) -> None:
    store = RedisEventStore(redis, partitions=P)
    old = b'{"type":"match.created","game":"countdown","seat_count":3,"options":{}}'
    [env] = seal(
        match_id="old",
        first_version=1,
        prev="0" * 32,
        items=[("match.created", old)],
        command_id="c",
        recorded_at=1,
        command=b"null",
    )
    env = msgspec.structs.replace(env, schema=1)
    # Sealed again under schema 1, as the old writer did.
    from events.envelope import expected_hash

    env = msgspec.structs.replace(env, hash=expected_hash(env))
    [r] = await store.append_batch([AppendRequest("old", 0, "c", b"{}", [env])])
    assert r.status == "ok"
    live = await load_match(store, "old")
    assert live is not None and live.state.seats == 3
    assert (await store.load("old"))[0].schema == 1  # stored bytes untouched


async def logged_events(service: CommandService) -> int:
    """The events the partition logs name (an entry per command, its events at it)."""
    return sum([len(await service.store.read_log(p, "0-0", 1_000_000)) for p in range(P)])


async def test_a_batch_writes_each_read_model_of_a_match_once_however_many_events(
    service: CommandService, redis_server: str, redis: Redis
) -> None:
    async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as client:
        match_id, live = await play_match(
            client, service.store, "countdown", seats=3, seed=4, bot_seed=4, options={"start": 40}
        )
    # The whole match in one batch: opened, joined, started, played, finished.
    assert live.state.status == "finished" and live.state.version > 20
    p = partition_of(match_id, P)
    projector = Projector(redis, service.store, projections=("matches",))
    await commandstats.reset(redis)
    await projector.step(projector.projections, p)
    calls = await commandstats.calls(redis)
    keys = Keys(p)
    histories = [k async for k in redis.scan_iter(match=keys.history(match_id, "*"))]
    inboxes = [k async for k in redis.scan_iter(match=keys.inbox("*"))]
    assert histories == [] and inboxes and "rpush" not in calls  # histories: told on read
    assert calls["hset"] == 1  # every seat's view once: the last one
    assert calls["set"] == 2  # the summary, once; the notices' mark
    # Each player's tables, once each, though the match opened, started and finished.
    tables = [k async for k in redis.scan_iter(match=keys.mine("*"))]
    assert len(tables) == 3
    # The lobby lists: added to the finished ones (of every game and of its own), taken
    # out of the three others (lobby, playing, closed), once each, though the match
    # passed through two of them.
    assert calls["zadd"] - len(inboxes) - len(tables) == 2 and calls["zrem"] == 6
    assert calls["zremrangebyrank"] == len(inboxes) + len(tables)  # each cut once
    # All of it one script call in the transaction that moves the checkpoint.
    assert (calls["multi"], calls["eval"], calls["mset"], calls["exec"]) == (1, 1, 1, 1)
    assert await ReadModels(redis, P).summary(match_id) is not None


async def test_a_write_that_fails_fails_alone_and_is_raised_after_the_others(
    redis: Redis,
) -> None:
    keys = Keys(0)
    await redis.set(keys.history("x", "spectator"), b"not a list")
    writes = Writes()
    writes.add("SET", keys.summary("x"), b"before")
    writes.add("RPUSH", keys.history("x", "spectator"), b"line")
    writes.add("SET", keys.summary("y"), b"after")
    async with redis.pipeline(transaction=True) as tx:
        writes.send(tx)
        tx.set(keys.rm_checkpoint, "1-1")
        with pytest.raises(ResponseError, match="WRONGTYPE"):
            await tx.execute()
    # As inside MULTI: the others went through, the checkpoint with them.
    assert await redis.mget(keys.summary("x"), keys.summary("y")) == [b"before", b"after"]
    assert await redis.get(keys.rm_checkpoint) == b"1-1"


async def test_a_long_write_is_split_for_the_script_and_keeps_its_order(redis: Redis) -> None:
    key = Keys(0).history("long", "spectator")
    lines = [b"%d" % i for i in range(2_500)]
    writes = Writes()
    writes.add_many("RPUSH", key, list(lines))
    assert len(writes) == 3  # Lua unpacks a few thousand values at most
    await redis.eval(RUN_LUA, len(writes.keys), *writes.keys, writes.packed())
    assert await redis.lrange(key, 0, -1) == lines


async def test_a_view_every_reader_shares_travels_once_and_is_written_for_each(
    redis: Redis,
) -> None:
    key = Keys(0).views("alike")
    shared, own = b'{"table":"%s"}' % (b"x" * 500), b'{"table":"mine"}'

    def copy() -> bytes:  # equal, and another object: as if each reader had its own
        return bytes(bytearray(shared))

    writes, apart = Writes(), Writes()
    writes.add_shared("HSET", key, "spectator", shared, "0", shared, "1", own, "2", shared)
    apart.add_shared("HSET", key, "spectator", copy(), "0", copy(), "1", own, "2", copy())
    assert len(writes.packed()) < len(apart.packed()) - 2 * len(shared)
    writes.add("SET", Keys(0).summary("alike"), shared)  # another command: sent again
    await redis.eval(RUN_LUA, len(writes.keys), *writes.keys, writes.packed())
    assert await redis.hgetall(key) == {b"spectator": shared, b"0": shared, b"1": own, b"2": shared}
    assert await redis.get(Keys(0).summary("alike")) == shared


async def test_a_pass_that_filled_a_batch_says_more_waits_and_a_drained_one_does_not(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    service, _ = played
    projector = Projector(redis, service.store, projections=("matches",), batch_size=3)
    assert await projector.pass_once() > 0
    assert projector.behind()  # each played match left more than three entries
    await projector.catch_up()
    assert not projector.behind()
    # The ratings step, with its own merged batch, says the same.
    ratings = Projector(redis, service.store, projections=("ratings",), batch_size=2)
    assert await ratings.pass_once() > 0
    assert ratings.behind()
    await ratings.catch_up()
    assert not ratings.behind()


async def test_a_rebuild_leaves_the_collectors_frozen_heap_as_it_found_it(
    played: tuple[CommandService, list[str]], redis: Redis
) -> None:
    import gc

    service, _ = played
    projector = Projector(redis, service.store, projections=("matches",))
    # A settled service has frozen its heap: a rebuild in it keeps it frozen.
    gc.freeze()
    assert await projector.rebuild("matches") > 0
    assert gc.get_freeze_count() > 0  # thawed, it would be none
    # A process that froze nothing ends a rebuild with nothing frozen.
    gc.unfreeze()
    threshold = gc.get_threshold()
    assert await projector.rebuild("matches") > 0
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == threshold  # collected seldom only while it ran
