"""A browser that goes away mid-send (a page reloaded, a phone asleep) ends its socket
quietly: no traceback at error level for the most ordinary thing a socket does."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

from uvicorn.protocols.utils import ClientDisconnected

from services.gateway.notices import _notify
from services.gateway.tokens import Player


class GoneSocket:
    """A socket whose client has left: every send fails as uvicorn's do."""

    def __init__(self) -> None:
        self.sends = 0

    async def send_data(self, data: str, mode: str = "text") -> None:
        self.sends += 1
        raise ClientDisconnected()

    async def receive_data(self, mode: str = "text") -> str:
        await asyncio.Event().wait()  # the read has not noticed yet
        return ""


class Hub:
    @contextlib.contextmanager
    def subscribe(self, key: str) -> Iterator[asyncio.Queue[Any]]:
        yield asyncio.Queue()


class ReadModels:
    async def inbox(self, player: str, n: int) -> list[Any]:
        return []


class Gateway:
    notices = Hub()
    read_models = ReadModels()
    names = None  # no notice here names a player to look up


async def test_a_notice_socket_whose_client_left_ends_without_an_error() -> None:
    socket = GoneSocket()
    async with asyncio.timeout(10):
        await _notify(socket, Gateway(), Player("dev-ann", "Ann"))  # type: ignore[arg-type]
    assert socket.sends == 1
