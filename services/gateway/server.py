"""The gateway served by uvicorn inside a process that runs other services too."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Iterator

import uvicorn
from litestar import Litestar
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from services.gateway import GatewayCannotListen
from services.gateway.app import HotPath
from services.infra import collector
from services.infra.ports import free_port

# Seconds an idle keep-alive connection stays open (uvicorn's default is 5): a player
# between two moves keeps theirs, instead of paying a new connection for most moves, and
# a load balancer in front (idle timeouts of 60 s are usual) closes first, so it never
# sends a request on a connection the gateway is closing.
KEEP_ALIVE = 75


class _Quiet(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        # The process that embeds the gateway handles Ctrl-C and stops it in order.
        yield


class _HeadWithBody:
    """A response's transport, as its request cycle sees it: the status line and headers
    wait for the body's first write and leave with it. uvicorn writes them apart, two
    system calls (and two segments to read) for every small response; a move's answer
    cost the gateway a second write. The rest reaches the connection's transport
    unchanged; closing it first sends what waits. (It keeps no reference to its cycle:
    the two would make a reference cycle per request for the collector to find.)"""

    __slots__ = ("_head", "_held", "_transport")

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport
        self._head: bytes | None = None
        self._held = False

    def write(self, data: bytes) -> None:
        if self._head is not None:
            data, self._head = self._head + data, None
        elif not self._held and not data.startswith(CONTINUE):
            # A cycle's first write is its response's head (or, before it, a "100
            # Continue", which goes out at once).
            self._head, self._held = data, True
            return
        self._transport.write(data)

    def close(self) -> None:
        if self._head is not None:
            self._transport.write(self._head)
            self._head = None
        self._transport.close()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def __getattr__(self, name: str) -> object:
        return getattr(self._transport, name)


CONTINUE = b"HTTP/1.1 100 "
WS_MAX_BYTES = 4096


class OneWriteHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol, writing each response's head with its body (a HEAD
    request's, which has none, at once)."""

    def on_headers_complete(self) -> None:
        before = self.cycle
        super().on_headers_complete()
        cycle = self.cycle
        if cycle is not before and cycle.scope["method"] != "HEAD":
            cycle.transport = _HeadWithBody(self.transport)  # type: ignore[assignment]


class GatewayServer:
    def __init__(
        self, app: Litestar, host: str = "127.0.0.1", port: int = 8000, *, reuse_port: bool = False
    ) -> None:
        self.app = app
        self.reuse_port = reuse_port  # several processes on one port (processes.py)
        self.host = host
        self.port = port
        config = uvicorn.Config(
            HotPath(app),
            host=host,
            port=port,
            log_level="warning",
            log_config=None,  # its records reach the JSON lines through the root logger
            http=OneWriteHttp,
            timeout_keep_alive=KEEP_ALIVE,
            ws="websockets-sansio",
            # Clients have nothing to say on a socket (the gateway reads and drops what
            # they send), so a frame is kept small, not uvicorn's 16 MiB.
            ws_max_size=WS_MAX_BYTES,
            access_log=False,
            lifespan="on",
        )
        self._server = _Quiet(config)
        self._task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        if self.port == 0:
            self.port = free_port(self.host)
            self._server.config.port = self.port
        self._task = asyncio.create_task(self._serve())
        while not self._server.started:
            if self._task.done():
                self._task.result()  # the error that stopped it (a port in use)
                raise RuntimeError("the gateway stopped before it started")
            await asyncio.sleep(0.02)
        collector.settle()

    async def _serve(self) -> None:
        try:
            sockets = [self._shared_socket()] if self.reuse_port else None
            await self._server.serve(sockets=sockets)
        except (SystemExit, OSError):
            # uvicorn exits the process when it cannot bind; here it is one service of
            # several, which stop in order instead.
            raise GatewayCannotListen(
                f"the gateway cannot listen on {self.host}:{self.port} (in use? try --port)"
            ) from None

    async def stop(self) -> None:
        self._server.should_exit = True
        if self._task is not None:
            with contextlib.suppress(GatewayCannotListen):  # start has raised it already
                await self._task

    def _shared_socket(self) -> socket.socket:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((self.host, self.port))
        sock.set_inheritable(True)
        return sock
