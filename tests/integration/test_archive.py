"""The archiver against a real redis-server (and a real PostgreSQL): finished matches
leave Redis for cold storage, leave a tombstone, and read back the same everywhere."""

from __future__ import annotations

import asyncio
import gzip
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, cast

import msgspec
import pytest
import pytest_asyncio
from redis.asyncio import Redis

from events.archive import FileArchive, PostgresArchive, decode_record, encode_record
from events.keys import RATINGS, Keys, partition_of
from events.redis_store import RedisEventStore
from services import compose
from services.archiver.service import Archiver
from services.client.bots import play_match
from services.client.client import CommandRejected, TabletopClient
from services.commands.service import CommandService
from services.infra.config import Settings
from services.readside import audit as a
from services.readside.projector import Projector
from tests.support import postgres

pytestmark = pytest.mark.redis
P = 4
DAY = 24 * 3600 * 1000
# XRANGE's entries as the services' client returns them: bytes (it decodes no responses).
Entries = list[tuple[bytes, dict[bytes, bytes]]]


class Clock:
    """The archiver's clock, moved by the test."""

    def __init__(self, at: int) -> None:
        self.at = at

    def __call__(self) -> int:
        return self.at


def archiver(cfg: Settings, at: int) -> Archiver:
    """The archiver the composition root builds, on a clock the test holds."""
    keeper = compose.archiver(cfg)
    keeper.clock = Clock(at)
    return keeper


def _now() -> int:
    return int(time.time() * 1000)


def settings(redis_server: str, archive: str) -> Settings:
    return Settings(
        trust_seeds=True,
        redis_url=redis_server,
        partitions=P,
        polling_ms=20,
        archive=archive,
        archive_after_ms=DAY,
    )


@pytest_asyncio.fixture
async def service(redis: Redis, redis_server: str, tmp_path: Path) -> AsyncIterator[CommandService]:
    svc = compose.command_service(settings(redis_server, str(tmp_path / "archive")))
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


async def play(redis_server: str, service: CommandService, game: str, n: int) -> list[str]:
    async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as client:
        options: dict[str, Any] = {"start": 12} if game == "countdown" else {}
        done = await asyncio.gather(
            *(
                play_match(
                    client, service.store, game, seats=2, seed=s, bot_seed=s, options=options
                )
                for s in range(n)
            )
        )
    return [mid for mid, _ in done]


async def project(redis: Redis) -> None:
    await Projector(redis, RedisEventStore(redis, P)).catch_up()


async def readings(cfg: Settings, redis: Redis, match_id: str, seats: int) -> dict[str, Any]:
    """Everything a reader can get about a match, through the composed store."""
    store = compose.event_store(cfg, redis)
    models = compose.read_models(cfg, redis)
    lines = await a.export_match(store, match_id)
    out: dict[str, Any] = {
        "audit": (await a.audit(store, match_id)).status,
        "replay": [(e.version, s.status) for e, s in await a.replay(store, match_id)],
        "export": [lines[1:]],  # the header says when it was exported
        "replies": await store.recorded_replies(match_id),
        "version": await store.version(match_id),
        "summary": await models.summary(match_id),
    }
    for seat in [None, *range(seats)]:
        out[f"history {seat}"] = [
            (line.version, bytes(line.event), line.text)
            for line in await models.history(match_id, seat)
        ]
        out[f"view {seat}"] = await models.view(match_id, seat)
    return out


async def test_a_finished_match_past_the_retention_leaves_redis_and_reads_back_the_same(
    service: CommandService, redis: Redis, redis_server: str, tmp_path: Path
) -> None:
    cfg = settings(redis_server, str(tmp_path / "archive"))
    # Two matches are played to the end, one is left in play.
    finished = await play(redis_server, service, "countdown", 2)
    async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as client:
        live = await client.create("countdown", 2, {"start": 12})
        await client.join(live, "Ann")
    await project(redis)
    before = {mid: await readings(cfg, redis, mid, 2) for mid in finished}
    assert all(r["audit"] == "ok" for r in before.values())
    # A line was said at every table.
    for mid in [*finished, live]:
        k = Keys(partition_of(mid, P))
        await redis.hset(k.chat_recent, mid, '[["1-0", "{}"]]')

    # A day and a bit later the archiver runs.
    keeper = archiver(cfg, _now() + DAY + 1)
    try:
        done = await keeper.pass_once()
    finally:
        await keeper.stop()
    assert done["archived"] == 2

    for mid in finished:
        k = Keys(partition_of(mid, P))
        # Only the tombstone (with the summary) is left of it in Redis...
        gone = [k.match(mid), k.replies(mid), k.snapshot(mid), k.summary(mid), k.views(mid)]
        gone += [k.history(mid, r) for r in ("spectator", "0", "1")]
        assert await redis.exists(*gone) == 0
        assert await redis.hexists(k.archived, mid)
        assert not await redis.hexists(k.chat_recent, mid)  # its table chat went with it
        # ...and its record is one compressed file.
        assert FileArchive(tmp_path / "archive").path(mid, k.p).is_file()
        # Replay, audit, export, replies, histories and views read the same as before.
        assert await readings(cfg, redis, mid, 2) == before[mid]
    # The match in the lobby is not touched, nor its chat.
    assert await redis.exists(Keys(partition_of(live, P)).match(live))
    assert await redis.hexists(Keys(partition_of(live, P)).chat_recent, live)
    # A round of commands for them reads them together, the archived ones from the archive.
    store = compose.event_store(cfg, redis)
    starts = await store.load_starts([*finished, live])
    for mid in [*finished, live]:
        assert starts[mid].tail and starts[mid].tail == await store.load(mid)
    # The lobby still lists the finished ones.
    lobby = await compose.read_models(cfg, redis).lobby(status="finished")
    assert {s.match_id for s in lobby} == set(finished)


async def test_an_unlisted_match_is_in_no_lobby_and_archived_all_the_same(
    service: CommandService, redis: Redis, redis_server: str, tmp_path: Path
) -> None:
    cfg = settings(redis_server, str(tmp_path / "archive"))
    [listed] = await play(redis_server, service, "countdown", 1)
    async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as client:
        unlisted, _ = await play_match(
            client,
            service.store,
            "countdown",
            seats=2,
            seed=1,
            options={"start": 12},
            unlisted=True,
        )
    await project(redis)
    models = compose.read_models(cfg, redis)
    summary = await models.summary(unlisted)
    assert summary is not None and summary.unlisted and summary.status == "finished"
    for game in (None, "countdown"):
        shown = await models.lobby(game, status="finished")
        assert [s.match_id for s in shown] == [listed]
    assert await models.lobby("~", status="finished") == []  # no way in by the back door
    keeper = archiver(cfg, _now() + DAY + 1)
    try:
        assert await keeper.measure_backlog(partition_of(unlisted, P)) >= 1
        assert (await keeper.pass_once())["archived"] == 2
    finally:
        await keeper.stop()
    k = Keys(partition_of(unlisted, P))
    assert await redis.hexists(k.archived, unlisted)
    assert not await redis.exists(k.match(unlisted))


async def test_a_table_closed_before_its_start_leaves_the_lobby_and_is_archived_in_time(
    service: CommandService, redis: Redis, redis_server: str, tmp_path: Path
) -> None:
    cfg = settings(redis_server, str(tmp_path / "archive"))
    async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as client:
        emptied = await client.create("countdown", 2)
        await client.join(emptied, "Ann")
        await client.leave(emptied, "Ann")  # the last one out: the table closes
        waiting = await client.create("countdown", 2)
        await client.join(waiting, "Bea")
    await project(redis)
    models = compose.read_models(cfg, redis)
    summary = await models.summary(emptied)
    assert summary is not None and summary.status == "closed"
    for game in (None, "countdown"):
        assert [s.match_id for s in await models.lobby(game, "lobby")] == [waiting]
    assert await models.mine("Ann") == []  # she left it: not hers
    keeper = archiver(cfg, _now() + DAY + 1)
    try:
        assert await keeper.measure_backlog(partition_of(emptied, P)) == 1
        assert (await keeper.pass_once())["archived"] == 1
    finally:
        await keeper.stop()
    k = Keys(partition_of(emptied, P))
    assert await redis.hexists(k.archived, emptied)
    assert not await redis.exists(k.match(emptied))
    assert (await a.audit(compose.event_store(cfg, redis), emptied)).status == "ok"
    assert await redis.exists(Keys(partition_of(waiting, P)).match(waiting))  # still open


async def test_a_match_finished_within_the_retention_stays_in_redis(
    service: CommandService, redis: Redis, redis_server: str, tmp_path: Path
) -> None:
    cfg = settings(redis_server, str(tmp_path / "archive"))
    [mid] = await play(redis_server, service, "countdown", 1)
    await project(redis)
    keeper = archiver(cfg, _now())
    try:
        assert (await keeper.pass_once())["archived"] == 0
        assert await keeper.measure_backlog(partition_of(mid, P)) == 0
        # A day later it is due: the backlog says so before the pass takes it.
        keeper.clock = Clock(_now() + DAY + 1)
        assert await keeper.measure_backlog(partition_of(mid, P)) == 1
        assert (await keeper.pass_once())["archived"] == 1
        assert await keeper.measure_backlog(partition_of(mid, P)) == 0
        # Another pass finds nothing more to do.
        assert (await keeper.pass_once())["archived"] == 0
    finally:
        await keeper.stop()


async def test_an_archived_match_s_players_keep_only_their_notices_within_the_retention(
    service: CommandService, redis: Redis, redis_server: str, tmp_path: Path
) -> None:
    cfg = settings(redis_server, str(tmp_path / "archive"))
    [mid] = await play(redis_server, service, "countdown", 1)
    await project(redis)
    summary = await compose.read_models(cfg, redis).summary(mid)
    assert summary is not None
    k = Keys(partition_of(mid, P))
    inboxes = [k.inbox(p) for p in summary.players if p]
    assert await redis.exists(*inboxes) == 2  # "your turn", "match finished", ...
    # A notice the first player got later, from another match of this partition.
    later = _now() + DAY
    await redis.zadd(inboxes[0], {b'{"id": "later"}': later})
    keeper = archiver(cfg, later + 1)
    try:
        assert (await keeper.pass_once())["archived"] == 1
    finally:
        await keeper.stop()
    # The archived match's notices, older than the retention, left with it: the second
    # player's inbox emptied and went; the first keeps the later one.
    assert await redis.zrange(inboxes[0], 0, -1) == [b'{"id": "later"}']
    assert not await redis.exists(inboxes[1])


async def test_hidden_cards_stay_hidden_in_an_archived_match_s_histories_and_views(
    service: CommandService, redis: Redis, redis_server: str, tmp_path: Path
) -> None:
    cfg = settings(redis_server, str(tmp_path / "archive"))
    [mid] = await play(redis_server, service, "loveletter", 1)
    await project(redis)
    # What the projector wrote for each reader, redacted for that reader.
    before = await readings(cfg, redis, mid, 2)
    keeper = archiver(cfg, _now() + DAY + 1)
    try:
        assert (await keeper.pass_once())["archived"] == 1
    finally:
        await keeper.stop()
    after = await readings(cfg, redis, mid, 2)
    for reader in ("None", "0", "1"):
        # Each reader reads exactly the redacted lines and view it read before: no more.
        assert after[f"history {reader}"] == before[f"history {reader}"]
        assert after[f"view {reader}"] == before[f"view {reader}"]
    # The spectator's and each seat's lines differ where cards were hidden from them,
    # while the archive itself keeps the whole truth for the audit.
    assert after["history 0"] != after["history None"]
    assert after["audit"] == "ok"


async def test_a_command_for_an_archived_match_is_answered_and_appends_nothing(
    service: CommandService, redis: Redis, redis_server: str, tmp_path: Path
) -> None:
    cfg = settings(redis_server, str(tmp_path / "archive"))
    [mid] = await play(redis_server, service, "countdown", 1)
    await project(redis)
    keeper = archiver(cfg, _now() + DAY + 1)
    try:
        assert (await keeper.pass_once())["archived"] == 1
    finally:
        await keeper.stop()
    k = Keys(partition_of(mid, P))
    async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as client:
        # Joining the archived match is refused, as for any finished match...
        joined = await client.send(mid, _join("Cid"), check=False)
        assert joined.status == "rejected"
        # ...and creating another match under its id is refused too.
        with pytest.raises(CommandRejected, match="match_exists"):
            await client.create("countdown", 2, {"start": 12}, match_id=mid)
    assert not await redis.exists(k.match(mid), k.replies(mid))
    assert await compose.event_store(cfg, redis).version(mid) > 0


def _join(player: str) -> Any:
    from domain import match as m

    return m.JoinMatch(player=player)


async def test_the_log_is_trimmed_behind_every_checkpoint_and_the_retention(
    service: CommandService, redis: Redis, redis_server: str, tmp_path: Path
) -> None:
    cfg = settings(redis_server, str(tmp_path / "archive"))
    await play(redis_server, service, "countdown", 3)
    logs = [Keys(p).log for p in range(P)]
    total = sum([await redis.xlen(log) for log in logs])
    keeper = archiver(cfg, _now() + DAY + 1)
    try:
        # No projector has read the logs yet: nothing is trimmed.
        assert (await keeper.pass_once())["log_trimmed"] == 0
        await project(redis)
        # One projection held back on a partition keeps its log from there on.
        sizes = {p: await redis.xlen(Keys(p).log) for p in range(P)}
        busy = max(sizes, key=lambda p: sizes[p])
        held = cast(Entries, await redis.xrange(Keys(busy).log, count=2))
        await redis.set(RATINGS.checkpoint(busy), held[-1][0])
        keeper.clock = Clock(_now() + DAY + 1)  # a day after the projector wrote
        done = await keeper.pass_once()
    finally:
        await keeper.stop()
    assert done["log_trimmed"] > 0
    left = {p: await redis.xlen(Keys(p).log) for p in range(P)}
    # Every other partition's log is trimmed to its last entry (kept as the checkpoint's).
    assert all(n <= 1 for p, n in left.items() if p != busy)
    assert cast(Entries, await redis.xrange(Keys(busy).log, count=1))[0][0] == held[-1][0]
    assert sum(left.values()) < total
    # The public streams keep what integrations may still read, within the retention.
    assert done["public_trimmed"] > 0


async def test_a_reply_stream_of_a_client_gone_quiet_is_dropped(
    redis: Redis, redis_server: str, tmp_path: Path
) -> None:
    cfg = settings(redis_server, str(tmp_path / "archive"))
    now = _now()
    await redis.xadd("tt:replies:gone", {"r": b"{}"}, id=f"{now - 2 * 3600 * 1000}-0")
    await redis.xadd("tt:replies:here", {"r": b"{}"}, id=f"{now - 1000}-0")
    keeper = archiver(cfg, now)
    try:
        assert await keeper.drop_idle_replies() == 1
    finally:
        await keeper.stop()
    assert not await redis.exists("tt:replies:gone")
    assert await redis.exists("tt:replies:here")


# --- the cold stores ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    if postgres.bin_dir() is None:
        pytest.skip("PostgreSQL's binaries are not installed (apt-get install postgresql)")
    with postgres.postgres_server() as url:
        yield url


async def test_postgres_keeps_an_archived_match_and_readers_find_it_there(
    service: CommandService, redis: Redis, redis_server: str, postgres_url: str
) -> None:
    cfg = settings(redis_server, postgres_url)
    [mid] = await play(redis_server, service, "countdown", 1)
    await project(redis)
    before = await readings(cfg, redis, mid, 2)
    keeper = archiver(cfg, _now() + DAY + 1)
    try:
        assert (await keeper.pass_once())["archived"] == 1
        # Archiving it again (a crash between the row and the tombstone) is harmless.
        record = await keeper.cold.get(mid)
        assert record is not None
        await keeper.cold.put(record)
    finally:
        await keeper.stop()
    assert not await redis.exists(Keys(partition_of(mid, P)).match(mid))
    stone = await compose.event_store(cfg, redis).tombstone(mid)
    assert stone is not None and stone.where == "postgres"
    assert await readings(cfg, redis, mid, 2) == before
    cold = PostgresArchive(postgres_url)
    try:
        again = await cold.get(mid)
    finally:
        await cold.close()
    assert again is not None and msgspec.json.encode(again) == msgspec.json.encode(record)


def test_the_archive_record_is_compressed_json_lines_that_decode_to_what_was_put() -> None:
    from events.archive import ArchivedMatch, ArchivedReply, ArchiveHeader
    from events.envelope import seal

    envelopes = seal(
        match_id="m",
        first_version=1,
        prev="0" * 32,
        items=[("match.created", b'{"game":"countdown"}')],
        command_id="c1",
        recorded_at=1,
        command=b"null",
    )
    record = ArchivedMatch(
        header=ArchiveHeader(
            match_id="m", partition=0, version=1, last_hash=envelopes[0].hash, archived_at=5
        ),
        envelopes=envelopes,
        replies=[ArchivedReply(command_id="c1", reply=msgspec.Raw(b'{"status":"accepted"}'))],
    )
    blob = encode_record(record)
    lines = gzip.decompress(blob).splitlines()
    assert [msgspec.json.decode(line)["kind"] for line in lines[::2]] == ["archive", "reply"]
    assert decode_record(blob) == record
