"""A real `tabletop serve` process, scraped: its metrics, health and readiness."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from redis.asyncio import Redis

from domain import match as m
from services import compose
from services.client.bots import play_match
from services.client.client import TabletopClient
from services.infra.config import Settings
from services.infra.ports import free_port

pytestmark = pytest.mark.redis
P = 4
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    out: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def total(found: Samples, name: str, **labels: str) -> float:
    """The sum of a metric's samples whose labels include these."""
    want = set(labels.items())
    return sum(v for (n, ls), v in found.items() if n == name and want <= set(ls))


@pytest.fixture
def served(redis_server: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """`tabletop serve` with every role; the URLs of its metrics port and its gateway."""
    with serving(redis_server, tmp_path) as (_, probe, gateway):
        yield probe, gateway


@contextlib.contextmanager
def serving(
    redis_server: str, tmp_path: Path, *roles: str
) -> Iterator[tuple[subprocess.Popen[bytes], str, str]]:
    """`tabletop serve` with these role flags (none: every role); the process and the
    URLs of its metrics port and its gateway."""
    metrics_port, gateway_port = free_port(), free_port()
    env = {
        **os.environ,
        "TABLETOP_REDIS_URL": redis_server,
        "TABLETOP_PARTITIONS": str(P),
        "TABLETOP_TRUST_SEEDS": "1",
        "TABLETOP_METRICS_PORT": str(metrics_port),
        "TABLETOP_ARCHIVE": str(tmp_path / "archive"),
        "TABLETOP_ARCHIVE_EVERY_MS": "200",
        "TABLETOP_LOG": "warning",
    }
    proc = subprocess.Popen(
        [sys.executable, "-c", "from services.cli.main import main; main()", "serve"]
        + ["--port", str(gateway_port), *roles],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        yield proc, f"http://127.0.0.1:{metrics_port}", f"http://127.0.0.1:{gateway_port}"
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
        stderr = proc.stderr.read().decode() if proc.stderr else ""
        assert code == 0, stderr[-3000:]


async def until(check: object, what: str, seconds: float = 60) -> None:
    """Wait for a condition (an async callable returning truth), failing with `what`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if await check():  # type: ignore[operator]
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.1)


async def test_a_served_process_exposes_its_metrics_health_and_readiness(
    served: tuple[str, str], redis: Redis, redis_server: str
) -> None:
    probe, gateway = served
    async with httpx.AsyncClient(timeout=5) as http:

        async def ready() -> bool:
            return (await http.get(f"{probe}/readyz")).status_code == 200

        await until(ready, "the process says it is ready")
        assert (await http.get(f"{probe}/healthz")).status_code == 200
        assert (await http.get(f"{probe}/nothing")).status_code == 404

        # A match is played to the end, and a command the rules refuse is sent.
        settings = Settings(redis_url=redis_server, partitions=P)
        store = compose.event_store(settings, redis)
        async with TabletopClient.from_url(redis_server, partitions=P, timeout=20) as client:
            match_id, live = await play_match(client, store, "chicken", seats=2, seed=1)
            refused = await client.send(match_id, m.JoinMatch(player="Cid"), check=False)
        assert refused.status == "rejected"

        async def scraped() -> Samples:
            return samples((await http.get(f"{probe}/metrics")).text)

        async def counted() -> bool:
            found = await scraped()
            return (
                # create, two joins, start, and at least one move
                total(found, "tabletop_commands_total", outcome="accepted") >= 5
                and total(found, "tabletop_commands_total", outcome="rejected") >= 1
                and total(found, "tabletop_projection_lag_seconds") == 0
                # The lag is taken against the head a pass began with: it can read 0
                # before the pass that projects the last events.
                and total(found, "tabletop_projected_events_total", projection="matches")
                >= live.state.version
                and len([k for k in found if k[0] == "tabletop_projection_lag_seconds"]) >= P
                and len([k for k in found if k[0] == "tabletop_archive_backlog"]) == P
                and len([k for k in found if k[0] == "tabletop_pending_entries"]) == P
            )

        await until(counted, "the commands are counted and every gauge is set")
        found = await scraped()
        # Rejections by code, the reply latency and batch sizes, the cache's lookups.
        assert total(found, "tabletop_rejections_total", code=refused.code) >= 1
        answered = total(found, "tabletop_commands_total")
        assert 1 <= total(found, "tabletop_reply_latency_seconds_count") <= answered
        assert total(found, "tabletop_batch_size_count") >= 1
        assert total(found, "tabletop_batch_size_sum") >= answered
        assert total(found, "tabletop_cache_lookups_total", result="hit") >= 1
        assert total(found, "tabletop_projected_events_total", projection="matches") >= (
            live.state.version
        )
        assert total(found, "tabletop_takeovers_total") == 0

        # The gateway of the same process serves the same registry, and its readiness.
        assert (await http.get(f"{gateway}/readyz")).status_code == 200
        assert (await http.get(f"{gateway}/healthz")).status_code == 200
        from_gateway = samples((await http.get(f"{gateway}/metrics")).text)
        assert total(from_gateway, "tabletop_commands_total", outcome="accepted") >= answered - 1


def niceness(pid: int) -> int:
    """A process's nice value, as the kernel reports it (/proc/<pid>/stat, field 19)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rpartition(")")[2].split()[16])


async def test_a_process_of_background_work_only_gives_way_to_the_commands(
    redis_server: str, tmp_path: Path
) -> None:
    background = ("--no-commands", "--no-gateway", "--no-scheduler", "--no-archiver")
    with serving(redis_server, tmp_path / "a", *background) as (proc, probe, _):
        async with httpx.AsyncClient(timeout=5) as http:

            async def ready() -> bool:
                return (await http.get(f"{probe}/readyz")).status_code == 200

            await until(ready, "the projector's process says it is ready")
        assert niceness(proc.pid) == niceness(os.getpid()) + 10
    # The command service's process keeps its priority.
    with serving(redis_server, tmp_path / "b", "--no-projector", "--no-gateway") as (
        proc,
        probe,
        _,
    ):
        async with httpx.AsyncClient(timeout=5) as http:

            async def ready() -> bool:
                return (await http.get(f"{probe}/readyz")).status_code == 200

            await until(ready, "the command service's process says it is ready")
        assert niceness(proc.pid) == niceness(os.getpid())
