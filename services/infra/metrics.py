"""Prometheus metrics of every process, and a small HTTP port for them and for health.

Each process counts on prometheus-client's default registry; what it holds depends on
the roles it runs (a process running only the projector has no command counters worth
reading). The gateway serves `/metrics` and `/readyz` beside its `/healthz`; the other
processes open `MetricsServer` on `TABLETOP_METRICS_PORT` when it is set (off by
default; 0 picks a free port). Gateway processes sharing one port
(`--gateway-processes N`) count in files of a directory they share (prometheus-client's
multiprocess mode, `MULTIPROC_DIR`), so a scrape, whichever process the kernel hands it
to, answers for all of them. docs/operations.md lists what to watch and the alerts.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from collections.abc import Awaitable, Callable

import structlog
from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE_LATEST
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

log = structlog.get_logger("tabletop.metrics")
# Set in a process's environment before prometheus-client is imported there (it picks
# how to keep values then): that process counts in files of this directory.
MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"

# --- the command service --------------------------------------------------------------
COMMANDS = Counter(
    "tabletop_commands", "Commands answered, by outcome", ["outcome"]
)  # accepted | rejected | duplicate | reused | busy | malformed | failed (retried later)
REJECTIONS = Counter("tabletop_rejections", "Rejected commands, by code", ["code"])
REPLY_LATENCY = Histogram(
    "tabletop_reply_latency_seconds",
    "From a command's entry in its stream (Redis's clock) to its reply being sent",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
BATCH_SIZE = Histogram(
    "tabletop_batch_size",
    "Command entries per batch read",
    buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000),
)
PENDING = Gauge(
    "tabletop_pending_entries", "Command entries delivered, not yet acknowledged", ["partition"]
)
TAKEOVERS = Counter("tabletop_takeovers", "Commands taken over from dead workers")
CACHE = Counter("tabletop_cache_lookups", "Live-match cache lookups, by result", ["result"])
CONFLICTS = Counter("tabletop_version_conflicts", "Appends that met another worker's append")


@functools.cache
def _labelled(metric: Counter, value: str) -> Counter:
    return metric.labels(value)


def count(metric: Counter, value: str, amount: float = 1) -> None:
    """`metric.labels(value).inc(amount)`, the labelled counter looked up once: the
    command service counts twice a command, and `labels` checks and locks each time."""
    _labelled(metric, value).inc(amount)


class Tally:
    """Counts for labelled counters, added up and handed over once a batch: each `inc`
    takes the counter's lock, and the command service counted twice a command."""

    __slots__ = ("_counts",)

    def __init__(self) -> None:
        self._counts: dict[tuple[Counter, str], int] = {}

    def add(self, metric: Counter, value: str) -> None:
        key = (metric, value)
        self._counts[key] = self._counts.get(key, 0) + 1

    def flush(self) -> None:
        for (metric, value), amount in self._counts.items():
            count(metric, value, amount)
        self._counts.clear()


# --- the gateway (each process counts its own) ------------------------------------------

SOCKETS = Gauge(
    "tabletop_gateway_sockets",
    "WebSockets open in the gateway's processes, by kind",
    ["kind"],
    multiprocess_mode="livesum",  # processes sharing a port: their sum, the living only
)
REFUSALS = Counter(
    "tabletop_gateway_refusals", "Requests the gateway refused, by HTTP status", ["status"]
)
CHAT_LINES = Counter("tabletop_chat_lines", "Table chat lines said or taken back", ["action"])


# --- the projector -------------------------------------------------------------------
PROJECTION_LAG = Gauge(
    "tabletop_projection_lag_seconds",
    "How far a projection's checkpoint is behind its partition log's newest entry",
    ["partition", "projection"],
)
PROJECTED = Counter(
    "tabletop_projected_events", "Log events applied, by projection", ["projection"]
)
# --- the archiver ----------------------------------------------------------------------
ARCHIVE_BACKLOG = Gauge(
    "tabletop_archive_backlog",
    "Finished matches past the retention still in Redis",
    ["partition"],
)
ARCHIVED = Counter("tabletop_archived_matches", "Matches moved to cold storage")
ARCHIVE_FAILURES = Counter("tabletop_archive_failures", "Matches the archiver failed to move")
TRIMMED = Counter(
    "tabletop_trimmed_entries", "Entries trimmed from streams, by stream kind", ["stream"]
)
REPLY_STREAMS_DROPPED = Counter(
    "tabletop_reply_streams_dropped", "Reply streams deleted after their client went quiet"
)

EXPIRIES = Counter(
    "tabletop_time_expired", "TimeExpired commands the scheduler sent, first or again", ["sending"]
)
EXPIRY_LATENESS = Histogram(
    "tabletop_time_expired_late_seconds",
    "From a seat's deadline to the scheduler sending its TimeExpired",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30),
)
TIME_LOW = Counter("tabletop_time_low_notices", "Time-running-low notices posted")
TABLES_CLOSED = Counter(
    "tabletop_idle_tables_closed", "CloseTable commands the scheduler sent for idle tables"
)
WEBHOOKS = Counter(
    "tabletop_webhooks", "Webhook deliveries by outcome (delivered, failed try, dead)", ["outcome"]
)
WEBHOOK_TRIES = Histogram(
    "tabletop_webhook_tries", "Tries a delivered notice took", buckets=(1, 2, 3, 5, 8, 13)
)


def scrape() -> bytes:
    """Every metric of this process, in Prometheus's text format; in multiprocess mode,
    of every process counting in the shared directory."""
    shared = os.environ.get(MULTIPROC_DIR)
    if not shared:
        return generate_latest()
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=shared)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


Ready = Callable[[], Awaitable[bool]]


class MetricsServer:
    """`/metrics`, `/healthz` (the process answers) and `/readyz` (its roles are started
    and Redis answers) on a port of their own, for processes with no HTTP of theirs.
    A bare HTTP/1.0 responder: three GETs need no framework."""

    def __init__(self, host: str, port: int, ready: Ready) -> None:
        self.host = host
        self.port = port
        self.ready = ready
        self._server: asyncio.Server | None = None

    async def start(self) -> MetricsServer:
        self._server = await asyncio.start_server(self._serve, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("metrics_listening", host=self.host, port=self.port)
        return self

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await asyncio.wait_for(reader.readline(), timeout=5)
            while (await asyncio.wait_for(reader.readline(), timeout=5)).strip():
                pass  # the headers: none matters here
            parts = request.decode("latin-1").split()
            path = parts[1].split("?")[0] if len(parts) >= 2 else ""
            status, body, kind = await self._answer(path)
            writer.write(
                f"HTTP/1.0 {status}\r\nContent-Type: {kind}\r\n"
                f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            await writer.drain()
        except (TimeoutError, ConnectionError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _answer(self, path: str) -> tuple[str, bytes, str]:
        text = "text/plain; charset=utf-8"
        if path == "/metrics":
            return "200 OK", scrape(), CONTENT_TYPE_LATEST
        if path == "/healthz":
            return "200 OK", b"ok\n", text
        if path == "/readyz":
            try:
                ok = await asyncio.wait_for(self.ready(), timeout=2)
            except Exception:
                ok = False
            return ("200 OK", b"ready\n", text) if ok else ("503 Not Ready", b"not ready\n", text)
        return "404 Not Found", b"not found\n", text
