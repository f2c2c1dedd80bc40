"""A response leaves in one write: its head waits for its body (services/gateway/server.py),
but never past a "100 Continue", a HEAD request or a closed connection."""

from __future__ import annotations

import asyncio
from typing import Any

from services.gateway.server import _HeadWithBody
from services.gateway.stack import Stack


class Wire:
    """A transport that records what is written, write by write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str) -> Any:
        return f"extra {name}"


def corked() -> tuple[_HeadWithBody, Wire]:
    wire = Wire()
    return _HeadWithBody(wire), wire  # type: ignore[arg-type]


def test_the_head_leaves_with_the_body_in_one_write() -> None:
    transport, wire = corked()
    # The response starts: uvicorn writes its head, then its body.
    transport.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
    assert wire.writes == []
    transport.write(b"{}")
    assert wire.writes == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"]
    # A streamed body's later parts go out as they come.
    transport.write(b"more")
    assert wire.writes[1:] == [b"more"]


def test_a_100_continue_goes_out_at_once() -> None:
    transport, wire = corked()
    # Before the response starts, the server asks for the body.
    transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    assert wire.writes == [b"HTTP/1.1 100 Continue\r\n\r\n"]
    transport.write(b"HTTP/1.1 204 No Content\r\n\r\n")
    transport.write(b"")
    assert wire.writes[1:] == [b"HTTP/1.1 204 No Content\r\n\r\n"]


def test_closing_sends_the_head_that_waits() -> None:
    transport, wire = corked()
    transport.write(b"HTTP/1.1 200 OK\r\n\r\n")
    # The application failed after starting its response: uvicorn closes.
    transport.close()
    assert wire.writes == [b"HTTP/1.1 200 OK\r\n\r\n"]
    assert wire.closed and transport.is_closing()
    get_extra_info = transport.get_extra_info  # forwarded to the wire by __getattr__
    assert callable(get_extra_info)
    assert get_extra_info("peername") == "extra peername"


async def exchange(stack: Stack, request: bytes, until: bytes) -> bytes:
    reader, writer = await asyncio.open_connection(stack.server.host, stack.server.port)
    try:
        writer.write(request)
        return await asyncio.wait_for(reader.readuntil(until), timeout=30)
    finally:
        writer.close()


async def test_a_real_server_answers_head_and_expect_continue(stack: Stack) -> None:
    # A HEAD request has no body to wait for: its head comes alone.
    head = await exchange(stack, b"HEAD /healthz HTTP/1.1\r\nhost: t\r\n\r\n", b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 ")
    # A client that waits for "100 Continue" gets it before sending the body.
    reader, writer = await asyncio.open_connection(stack.server.host, stack.server.port)
    try:
        body = b'{"name": "Ann"}'
        writer.write(
            b"POST /api/signin/dev HTTP/1.1\r\nhost: t\r\ncontent-type: application/json\r\n"
            b"expect: 100-continue\r\ncontent-length: %d\r\n\r\n" % len(body)
        )
        go_on = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=30)
        assert go_on.startswith(b"HTTP/1.1 100 Continue")
        writer.write(body)
        answer = await asyncio.wait_for(reader.readuntil(b"}"), timeout=30)
        assert answer.startswith(b"HTTP/1.1 200 OK")
        assert b'"token"' in answer
    finally:
        writer.close()
