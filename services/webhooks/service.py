"""The webhook sender: every notice (services/readside/notices.py), POSTed to a
platform's URL, signed, retried with backoff, dead-lettered when it keeps failing.

It reads each partition's notice stream `tt:{p}:notices` through the consumer group
`tt-webhooks` and acknowledges a notice only once the platform answered 2xx or it was
dead-lettered: a sender that stops or dies leaves its notice pending, and the next one
(itself restarted, or another taking over after `claim_idle_ms`) sends it again. So a
notice is delivered at least once; its id (header `X-Tabletop-Notice`) lets the
platform drop a repeat. A new group starts at the stream's end: a platform is sent the
notices made after the sender first ran, not the backlog.

The signature (docs/tables.md has the recipe): `X-Tabletop-Timestamp` is the time of
the attempt in whole seconds, and `X-Tabletop-Signature` is
`sha256=` + hex HMAC-SHA256(secret, timestamp + "." + body), over the body's exact
bytes. A receiver checks it in constant time and refuses a timestamp far from its clock.

One task per partition, so a platform slow to answer about one match holds up only
the notices of its partition, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import os
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

import httpx
import msgspec
import structlog
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from events.keys import Keys
from services.infra import metrics
from services.infra.config import ConfigError, env_int
from services.infra.redisconn import GONE, reason
from services.readside.notices import decode_entry

log = structlog.get_logger("tabletop.webhooks")
GROUP = "tt-webhooks"
DEAD_MAXLEN = 10_000
SIGNATURE = "X-Tabletop-Signature"
TIMESTAMP = "X-Tabletop-Timestamp"
NOTICE = "X-Tabletop-Notice"
ATTEMPT = "X-Tabletop-Attempt"


class WebhookConfig(msgspec.Struct, kw_only=True):
    url: str
    secret: str
    max_tries: int = 8  # then the notice goes to `tt:{p}:notices:dead`
    backoff_ms: int = 1_000  # before the second try; doubled each time after
    backoff_cap_ms: int = 5 * 60_000  # and never longer than this
    timeout_s: float = 10.0  # for one POST
    claim_idle_ms: int = 60_000  # another sender's notice pending this long is taken over
    block_ms: int = 1_000
    batch: int = 100
    consumer: str = ""

    def __post_init__(self) -> None:
        if not self.url.startswith(("http://", "https://")):
            raise ConfigError(f"TABLETOP_WEBHOOK_URL={self.url!r}: write http(s)://HOST/PATH")
        if len(self.secret) < 16:
            raise ConfigError(
                "TABLETOP_WEBHOOK_SECRET must be set, 16 characters or more: the platform "
                "checks each notice's signature with it"
            )
        if self.max_tries < 1:
            raise ConfigError("TABLETOP_WEBHOOK_TRIES must be at least 1")
        if not self.consumer:
            self.consumer = f"webhooks-{socket.gethostname()}-{os.getpid()}"

    @classmethod
    def from_env(cls) -> WebhookConfig | None:
        """The sender's settings, or None when no URL is configured (no sender runs)."""
        url = os.environ.get("TABLETOP_WEBHOOK_URL", "")
        if not url:
            return None
        return cls(
            url=url,
            secret=os.environ.get("TABLETOP_WEBHOOK_SECRET", ""),
            max_tries=env_int("TABLETOP_WEBHOOK_TRIES", 8, least=1),
            backoff_ms=env_int("TABLETOP_WEBHOOK_BACKOFF_MS", 1_000, least=1),
            backoff_cap_ms=env_int("TABLETOP_WEBHOOK_BACKOFF_CAP_MS", 5 * 60_000, least=1),
        )

    def delay(self, tries: int) -> float:
        """Seconds to wait after `tries` failed attempts."""
        grown: int = self.backoff_ms << max(tries - 1, 0)
        return min(self.backoff_cap_ms, grown) / 1000


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """The signature header's value for a body sent at `timestamp`."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def verify(secret: str, timestamp: str, body: bytes, signature: str) -> bool:
    """What a receiver does (in Python): the signature matches, compared in constant time."""
    return hmac.compare_digest(sign(secret, timestamp, body), signature)


class Stopping(Exception):
    """The sender is stopping: leave the notice pending for the next one."""


class WebhookSender:
    def __init__(
        self,
        redis: Redis,
        partitions: int,
        config: WebhookConfig,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        http: httpx.AsyncClient | None = None,
        close_redis: bool = False,
    ) -> None:
        self.redis = redis
        self.partitions = partitions
        self.config = config
        self.clock = clock
        self._stop = asyncio.Event()
        self.sleep = sleep or self._pause
        self.http = http or httpx.AsyncClient(timeout=config.timeout_s)
        self._tasks: list[asyncio.Task[None]] = []
        self._close_redis = close_redis

    async def _pause(self, seconds: float) -> None:
        """Wait out a backoff, or until the sender stops."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), seconds)

    async def create_groups(self) -> None:
        for p in range(self.partitions):
            try:
                await self.redis.xgroup_create(Keys(p).notices, GROUP, id="$", mkstream=True)
            except ResponseError as err:
                if "BUSYGROUP" not in str(err):
                    raise

    async def start(self) -> None:
        await self.create_groups()
        self._stop.clear()
        self._tasks = [asyncio.create_task(self._run(p)) for p in range(self.partitions)]
        log.info("webhooks_started", url=self.config.url, consumer=self.config.consumer)

    async def stop(self) -> None:
        """Stop after the POST in flight; a notice not yet acknowledged stays pending."""
        self._stop.set()
        if self._tasks:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(
                    asyncio.gather(*self._tasks), timeout=self.config.timeout_s + 5
                )
        self._tasks = []
        await self.http.aclose()
        if self._close_redis:
            await self.redis.aclose()

    @property
    def running(self) -> bool:
        return bool(self._tasks) and not any(task.done() for task in self._tasks)

    async def _run(self, p: int) -> None:
        keys = Keys(p)
        cursor = "0"  # first what this consumer left pending, then new notices (">")
        delay = 0.05
        while not self._stop.is_set():
            try:
                entries = await self._read(keys, cursor)
                if cursor == "0" and not entries:
                    cursor = ">"
                for entry_id, fields in entries:
                    await self._deliver(keys, entry_id, fields)
                delay = 0.05
            except Stopping:
                return
            except GONE as err:  # Redis restarting: back off, then on from the group
                log.warning("webhooks_reconnecting", partition=p, error=reason(err))
                await self._pause(delay)
                delay = min(delay * 2, 2.0)
            except Exception as err:  # one bad notice must not stop the partition
                log.exception("webhook_partition_failed", partition=p, error=reason(err))
                await self._pause(1.0)

    async def _read(self, keys: Keys, cursor: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """Own pending entries (cursor "0"), else another consumer's long-idle ones, else
        new ones (a blocking read)."""
        if cursor == "0":
            found: Any = await self.redis.xreadgroup(
                GROUP, self.config.consumer, {keys.notices: "0"}, count=self.config.batch
            )
            return await self._present(keys, found[0][1] if found else [])
        claimed: Any = await self.redis.xautoclaim(
            keys.notices,
            GROUP,
            self.config.consumer,
            self.config.claim_idle_ms,
            start_id="0-0",
            count=self.config.batch,
        )
        taken = await self._present(keys, claimed[1])
        if taken:
            log.info("webhooks_taken_over", stream=keys.notices, count=len(taken))
            return taken
        found = await self.redis.xreadgroup(
            GROUP,
            self.config.consumer,
            {keys.notices: ">"},
            count=self.config.batch,
            block=self.config.block_ms,
        )
        return cast("list[tuple[bytes, dict[bytes, bytes]]]", found[0][1] if found else [])

    async def _present(
        self, keys: Keys, entries: list[tuple[bytes, Any]]
    ) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """The pending entries the stream still holds. One trimmed away by the stream's
        cap before it was delivered is lost: said in the log, and acknowledged."""
        gone = [entry_id for entry_id, fields in entries if not fields]
        if gone:
            await self.redis.xack(keys.notices, GROUP, *gone)
            log.error("webhook_notices_trimmed", stream=keys.notices, count=len(gone))
        return [(entry_id, fields) for entry_id, fields in entries if fields]

    async def _deliver(self, keys: Keys, entry_id: bytes, fields: dict[bytes, bytes]) -> None:
        """POST one notice until the platform takes it or the tries run out."""
        body = fields.get(b"n", b"")
        notice = decode_entry(fields)
        notice_id = notice.id if notice else entry_id.decode()
        bound = log.bind(notice_id=notice_id, match_id=notice.match_id if notice else None)
        error = ""
        for tries in range(1, self.config.max_tries + 1):
            if self._stop.is_set():
                raise Stopping
            error = await self._post(body, notice_id, tries)
            if not error:
                await self.redis.xack(keys.notices, GROUP, entry_id)
                bound.info("webhook_delivered", tries=tries)
                metrics.WEBHOOKS.labels("delivered").inc()
                metrics.WEBHOOK_TRIES.observe(tries)
                return
            metrics.WEBHOOKS.labels("failed").inc()
            if tries < self.config.max_tries:
                wait = self.config.delay(tries)
                bound.warning("webhook_failed", tries=tries, error=error, retry_in=wait)
                await self.sleep(wait)
        await self.redis.xadd(
            keys.notices_dead,
            {"n": body, "error": error[:500], "tries": self.config.max_tries},
            maxlen=DEAD_MAXLEN,
            approximate=True,
        )
        await self.redis.xack(keys.notices, GROUP, entry_id)
        metrics.WEBHOOKS.labels("dead").inc()
        bound.error(
            "webhook_dead_lettered",
            tries=self.config.max_tries,
            error=error,
            dead=keys.notices_dead,
        )

    async def _post(self, body: bytes, notice_id: str, tries: int) -> str:
        """One attempt; "" when the platform answered 2xx, else what went wrong."""
        timestamp = str(int(self.clock()))
        headers = {
            "content-type": "application/json",
            TIMESTAMP: timestamp,
            SIGNATURE: sign(self.config.secret, timestamp, body),
            NOTICE: notice_id,
            ATTEMPT: str(tries),
        }
        try:
            answer = await self.http.post(self.config.url, content=body, headers=headers)
        except httpx.HTTPError as err:
            return reason(err)
        if 200 <= answer.status_code < 300:
            return ""
        return f"HTTP {answer.status_code}"
