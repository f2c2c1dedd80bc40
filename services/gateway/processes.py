"""The gateway as several processes on one port: `tabletop serve --gateway-processes N`.

Each process binds the port with SO_REUSEPORT (Linux), so the kernel spreads new
connections across them; each runs the whole gateway: its own live hub follows every
partition log, so a WebSocket gets the same pushes from any process, and quick play and
bots are shared through Redis (seating.py). The processes share the parent's settings
and gateway secret (a token issued by one is good at every other), stop when it asks,
and die with it (a parent-death signal on Linux). They count their metrics in one
directory the parent makes (services/infra/metrics.py), so `/metrics` on the port
answers for all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing as mp
import os
import shutil
import signal
import tempfile
from typing import Any

import structlog

from services.gateway import GatewayCannotListen
from services.gateway.app import GatewayConfig
from services.infra import loop, metrics
from services.infra.config import Settings
from services.infra.ports import free_port

log = structlog.get_logger("gateway.processes")
READY_WITHIN = 60.0


def _child(
    settings: Settings,
    config: GatewayConfig,
    host: str,
    port: int,
    level: str,
    ready: Any,
    stop: Any,
) -> None:
    from services.infra.embedded import die_with_parent
    from services.infra.logging import configure

    die_with_parent()
    # Ctrl-C reaches the whole process group: the parent stops its children in order.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    configure(level=level)
    # On uvloop, uvicorn's own choice when it runs the loop itself.
    loop.run(_serve(settings, config, host, port, ready, stop))


async def _serve(
    settings: Settings, config: GatewayConfig, host: str, port: int, ready: Any, stop: Any
) -> None:
    from services import compose
    from services.gateway.server import GatewayServer

    server = GatewayServer(compose.gateway(settings, config), host, port, reuse_port=True)
    try:
        await server.start()
    except BaseException as err:
        ready.put(("failed", os.getpid(), repr(err)))
        raise
    ready.put(("ready", os.getpid(), ""))
    log.info("gateway_process_started", pid=os.getpid(), url=server.url)
    while not await asyncio.to_thread(stop.wait, 0.5):
        pass
    await server.stop()


class GatewayProcesses:
    """N gateway processes on one host and port, started and stopped together."""

    def __init__(
        self,
        settings: Settings,
        config: GatewayConfig,
        count: int,
        host: str = "127.0.0.1",
        port: int = 8000,
        level: str = "INFO",
    ) -> None:
        self.settings = settings
        self.config = config
        self.count = count
        self.host = host
        self.port = port
        self.level = level
        self.pids: list[int] = []
        ctx = mp.get_context("spawn")
        self._ready = ctx.Queue()
        self._stop = ctx.Event()
        self._children: list[Any] = []
        self._ctx = ctx
        self._counted: str | None = None  # the children's metrics directory

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        if self.port == 0:
            self.port = free_port(self.host)
        self._counted = tempfile.mkdtemp(prefix="tabletop-gateway-metrics-")
        # The children are spawned: each reads its environment afresh as it starts. This
        # process keeps counting on its own (its client was imported long before).
        before = os.environ.get(metrics.MULTIPROC_DIR)
        os.environ[metrics.MULTIPROC_DIR] = self._counted
        try:
            self._spawn()
        finally:
            if before is None:
                os.environ.pop(metrics.MULTIPROC_DIR, None)
            else:
                os.environ[metrics.MULTIPROC_DIR] = before
        for _ in range(self.count):
            kind, pid, error = await asyncio.to_thread(self._ready.get, True, READY_WITHIN)
            if kind != "ready":
                await self.stop()
                raise GatewayCannotListen(f"a gateway process did not start: {error}")
            self.pids.append(pid)

    def _spawn(self) -> None:
        for _ in range(self.count):
            child = self._ctx.Process(
                target=_child,
                args=(
                    self.settings,
                    self.config,
                    self.host,
                    self.port,
                    self.level,
                    self._ready,
                    self._stop,
                ),
            )
            child.start()
            self._children.append(child)

    async def stop(self) -> None:
        self._stop.set()
        for child in self._children:
            await asyncio.to_thread(child.join, 30)
            if child.is_alive():
                log.warning("gateway_process_killed", pid=child.pid)
                with contextlib.suppress(Exception):
                    child.kill()
        self._children = []
        if self._counted is not None:
            shutil.rmtree(self._counted, ignore_errors=True)
            self._counted = None
