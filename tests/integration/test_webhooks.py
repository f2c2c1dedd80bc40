"""The webhook sender against a real HTTP server in a thread and the real notice
streams: signed posts, retries with backoff, dead letters, and restarts that lose
nothing."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import msgspec
import pytest
import pytest_asyncio
from redis.asyncio import Redis
from structlog.testing import capture_logs

from events.keys import Keys, partition_of
from services import compose
from services.client.client import TabletopClient
from services.infra.config import ConfigError, Settings
from services.readside import notices as n
from services.readside.projector import Projector
from services.readside.schema import Notice
from services.webhooks.service import (
    ATTEMPT,
    GROUP,
    NOTICE,
    SIGNATURE,
    TIMESTAMP,
    WebhookConfig,
    WebhookSender,
    verify,
)
from tests.support.countdown import Take

pytestmark = pytest.mark.redis
P = 4
SECRET = "webhook-secret-0123456789"
WAIT = 60  # a bound on waits a broken sender would make endless, not a measure of speed


class Receiver:
    """A platform's endpoint: answers each POST with the next scripted status (then
    200), and keeps what it was sent."""

    def __init__(self, statuses: list[int]) -> None:
        self.statuses = list(statuses)
        self.got: list[tuple[dict[str, str], bytes, int]] = []
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["content-length"]))
                with receiver.lock:
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    receiver.got.append((dict(self.headers.items()), body, status))
                    receiver.changed.notify_all()
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hooks"

    def _wait(self, count: int) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.got) >= count, WAIT), self.got

    async def posts(self, count: int) -> list[tuple[dict[str, str], bytes, int]]:
        """Once at least `count` posts have come, all of them."""
        await asyncio.to_thread(self._wait, count)
        with self.lock:
            return list(self.got)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver([])
    made.thread.start()
    try:
        yield made
    finally:
        made.server.shutdown()
        made.server.server_close()


class Sleeps:
    """The backoff, recorded instead of waited."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)


def config(url: str, **kw: Any) -> WebhookConfig:
    return WebhookConfig(url=url, secret=SECRET, **{"block_ms": 50, "backoff_ms": 100, **kw})


@pytest_asyncio.fixture
async def senders(redis: Redis) -> AsyncIterator[list[WebhookSender]]:
    made: list[WebhookSender] = []
    try:
        yield made
    finally:
        for sender in made:
            await sender.stop()


async def started(
    redis: Redis, senders: list[WebhookSender], cfg: WebhookConfig, **kw: Any
) -> WebhookSender:
    sender = WebhookSender(redis, P, cfg, clock=lambda: 1_700_000_000.0, **kw)
    await sender.start()
    senders.append(sender)
    return sender


def notice(match_id: str, version: int = 1, player: str = "ann") -> Notice:
    return Notice(
        id=n.notice_id(match_id, version, "your_turn", player),
        kind="your_turn",
        player=player,
        match_id=match_id,
        game="countdown",
        version=version,
        at=1_000 + version,
        text="Your turn at Countdown.",
    )


async def pending(redis: Redis) -> int:
    total = 0
    for p in range(P):
        info: Any = await redis.xpending(Keys(p).notices, GROUP)
        total += info["pending"]
    return total


async def test_each_notice_is_posted_once_signed_and_acknowledged(
    redis: Redis, receiver: Receiver, senders: list[WebhookSender]
) -> None:
    sender = await started(redis, senders, config(receiver.url))
    sent = [notice("m-a"), notice("m-b"), notice("m-c", 2)]
    for one in sent:
        assert await n.post_notice(redis, P, one)
    got = await receiver.posts(3)
    await sender.stop()
    assert sorted(msgspec.json.decode(body, type=Notice).id for _, body, _ in got) == sorted(
        x.id for x in sent
    )
    for headers, body, _ in got:
        # The platform's check: the documented signature over timestamp "." body.
        assert headers[TIMESTAMP] == "1700000000"
        assert verify(SECRET, headers[TIMESTAMP], body, headers[SIGNATURE])
        assert not verify("another-secret-0000000", headers[TIMESTAMP], body, headers[SIGNATURE])
        assert headers[NOTICE] == msgspec.json.decode(body, type=Notice).id
        assert headers[ATTEMPT] == "1"
    assert await pending(redis) == 0
    assert len(receiver.got) == 3


async def test_a_failing_then_recovering_receiver_gets_the_notice_after_backoff(
    redis: Redis, receiver: Receiver, senders: list[WebhookSender]
) -> None:
    receiver.statuses = [500, 503, 429]
    sleeps = Sleeps()
    sender = await started(redis, senders, config(receiver.url), sleep=sleeps)
    await n.post_notice(redis, P, notice("m-flaky"))
    got = await receiver.posts(4)
    await sender.stop()
    assert [status for _, _, status in got] == [500, 503, 429, 200]
    assert [headers[ATTEMPT] for headers, _, _ in got] == ["1", "2", "3", "4"]
    assert len({body for _, body, _ in got}) == 1, "the same notice each time"
    # Exponential: 0.1 s, then doubled each time.
    assert sleeps.asked == [0.1, 0.2, 0.4]
    assert await pending(redis) == 0
    assert await redis.xlen(Keys(partition_of("m-flaky", P)).notices_dead) == 0


async def test_the_backoff_doubles_up_to_its_cap() -> None:
    cfg = WebhookConfig(url="http://x/", secret=SECRET, backoff_ms=1000, backoff_cap_ms=5000)
    assert [cfg.delay(t) for t in range(1, 6)] == [1.0, 2.0, 4.0, 5.0, 5.0]


async def test_a_notice_that_keeps_failing_is_dead_lettered_with_a_log_line(
    redis: Redis, receiver: Receiver, senders: list[WebhookSender]
) -> None:
    receiver.statuses = [500] * 10
    sleeps = Sleeps()
    with capture_logs() as logs:
        sender = await started(redis, senders, config(receiver.url, max_tries=3), sleep=sleeps)
        await n.post_notice(redis, P, notice("m-dead"))
        await receiver.posts(3)
        dead_key = Keys(partition_of("m-dead", P)).notices_dead
        await sender.stop()
    dead: Any = await redis.xrange(dead_key)
    assert len(dead) == 1 and dead[0][1][b"tries"] == b"3" and dead[0][1][b"error"] == b"HTTP 500"
    assert msgspec.json.decode(dead[0][1][b"n"], type=Notice).match_id == "m-dead"
    assert len(receiver.got) == 3 and await pending(redis) == 0
    [line] = [x for x in logs if x["event"] == "webhook_dead_lettered"]
    assert line["notice_id"] == "m-dead:1:your_turn:ann" and line["log_level"] == "error"


async def test_a_sender_stopped_mid_retry_leaves_the_notice_to_the_next_one(
    redis: Redis, receiver: Receiver, senders: list[WebhookSender]
) -> None:
    receiver.statuses = [500]
    # A long backoff, waited for real: the sender is stopped during it.
    first = await started(redis, senders, config(receiver.url, backoff_ms=3_600_000))
    await n.post_notice(redis, P, notice("m-restart"))
    await receiver.posts(1)
    await first.stop()
    assert await pending(redis) == 1, "not acknowledged: the platform never took it"
    # While no sender runs, another notice is made; it waits in the group.
    await n.post_notice(redis, P, notice("m-while-down"))
    # Another process takes over the first one's pending notice, then reads on.
    second = await started(
        redis, senders, config(receiver.url, claim_idle_ms=0, consumer="webhooks-second")
    )
    got = await receiver.posts(3)
    await second.stop()
    ids = [msgspec.json.decode(body, type=Notice).match_id for _, body, _ in got]
    assert ids[0] == "m-restart" and sorted(ids[1:]) == ["m-restart", "m-while-down"]
    assert await pending(redis) == 0


def test_a_webhook_without_a_secret_or_with_a_bad_url_is_refused_with_its_reason() -> None:
    with pytest.raises(ConfigError, match="TABLETOP_WEBHOOK_SECRET"):
        WebhookConfig(url="https://platform.example/hooks", secret="")
    with pytest.raises(ConfigError, match="http"):
        WebhookConfig(url="platform.example/hooks", secret=SECRET)


async def test_the_notices_of_a_real_match_reach_the_platform(
    redis: Redis, redis_server: str, receiver: Receiver, senders: list[WebhookSender]
) -> None:

    settings = Settings(trust_seeds=True, redis_url=redis_server, partitions=P, polling_ms=20)
    service = compose.command_service(settings)
    await service.start()
    try:
        sender = await started(redis, senders, config(receiver.url))
        async with TabletopClient.from_url(redis_server, partitions=P, timeout=10) as client:
            match_id = await client.create("countdown", 2, {"start": 1})
            await client.join(match_id, "ann")
            await client.join(match_id, "bea")
            await client.start(match_id, "ann", seed=3)
            await Projector(redis, service.store).catch_up()
            # The one to act takes the last one and wins: a turn, then the finish.
            [turn] = await receiver.posts(1)
            told = msgspec.json.decode(turn[1], type=Notice)
            assert told.kind == "your_turn" and told.match_id == match_id
            await client.play(match_id, told.player, Take(count=1))
            await Projector(redis, service.store).catch_up()
        got = await receiver.posts(3)
        await sender.stop()
    finally:
        await service.stop()
    kinds = sorted(
        (x.kind, x.player) for x in (msgspec.json.decode(b, type=Notice) for _, b, _ in got)
    )
    assert kinds == [
        ("match_finished", "ann"),
        ("match_finished", "bea"),
        ("your_turn", told.player),
    ]


async def test_a_pending_notice_trimmed_by_the_cap_is_said_lost_and_let_go(
    redis: Redis, receiver: Receiver, senders: list[WebhookSender]
) -> None:
    receiver.statuses = [500]
    first = await started(redis, senders, config(receiver.url, backoff_ms=3_600_000))
    await n.post_notice(redis, P, notice("m-trimmed"))
    await receiver.posts(1)
    await first.stop()
    # The stream's cap passes it while nobody could deliver it.
    await redis.xtrim(Keys(partition_of("m-trimmed", P)).notices, maxlen=0)
    # A notice of the same partition: sent after the pending ones are seen to.
    after = next(
        f"m-after-{i}"
        for i in range(100)
        if partition_of(f"m-after-{i}", P) == partition_of("m-trimmed", P)
    )
    with capture_logs() as logs:
        second = await started(redis, senders, config(receiver.url, consumer=first.config.consumer))
        await n.post_notice(redis, P, notice(after))
        got = await receiver.posts(2)
        await second.stop()
    assert msgspec.json.decode(got[1][1], type=Notice).match_id == after
    assert await pending(redis) == 0
    [line] = [x for x in logs if x["event"] == "webhook_notices_trimmed"]
    assert line["count"] == 1 and line["log_level"] == "error"
