"""A socket signs in with its token in a header, never in its address: proxies write
addresses to their logs. A browser offers it as a subprotocol; other clients may send
`Authorization`; the gateway answers `tabletop` and never echoes the token."""

from __future__ import annotations

import httpx
import pytest
from structlog.testing import capture_logs
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Subprotocol

from services.gateway.app import GatewayConfig
from services.gateway.sockets import IN_ADDRESS
from services.gateway.stack import Stack
from services.infra.config import ConfigError
from tests.gateway.conftest import gateway, sign_in
from tests.gateway.test_gateway import receive, table_of_two


def live(stack: Stack, match_id: str) -> str:
    return f"ws://{stack.server.host}:{stack.server.port}/api/matches/{match_id}/live"


def token_of(headers: dict[str, str]) -> str:
    return headers["authorization"].split()[1]


async def test_a_browser_signs_in_with_its_token_offered_as_a_subprotocol(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    match_id, (ann, _) = await table_of_two(http)
    offered = [Subprotocol("tabletop"), Subprotocol(f"bearer.{token_of(ann)}")]
    async with connect(live(stack, match_id), subprotocols=offered) as socket:
        hello = await receive(socket)
        assert socket.response is not None
        assert socket.response.headers["sec-websocket-protocol"] == "tabletop"
        assert socket.subprotocol == "tabletop"
    assert hello["kind"] == "hello" and hello["seat"] == 0


async def test_a_client_that_sets_headers_signs_in_with_authorization(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    match_id, (_, bea) = await table_of_two(http)
    async with connect(live(stack, match_id), additional_headers=bea) as socket:
        hello = await receive(socket)
    assert hello["kind"] == "hello" and hello["seat"] == 1


async def test_the_notice_socket_signs_in_the_same_way(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    ann = await sign_in(http, "Ann")
    url = f"ws://{stack.server.host}:{stack.server.port}/api/me/notices/live"
    offered = [Subprotocol("tabletop"), Subprotocol(f"bearer.{token_of(ann)}")]
    async with connect(url, subprotocols=offered) as socket:
        hello = await receive(socket)
    assert hello["kind"] == "hello"


@pytest.mark.parametrize("token", ["", "abc", "x" * 3000])
async def test_a_bad_token_offered_as_a_subprotocol_closes_the_socket_with_why(
    stack: Stack, http: httpx.AsyncClient, token: str
) -> None:
    match_id, _ = await table_of_two(http)
    offered = [Subprotocol("tabletop"), Subprotocol(f"bearer.{token}")]
    async with connect(live(stack, match_id), subprotocols=offered) as socket:
        with pytest.raises(ConnectionClosed) as closed:
            await receive(socket)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


async def test_once_the_operator_allows_it_a_token_in_the_address_signs_in_and_is_logged(
    redis_server: str,
) -> None:
    """`TABLETOP_TOKEN_IN_ADDRESS=on`, for clients that cannot send a header or a
    subprotocol: the operator finds them in the log."""
    async with gateway(redis_server, token_in_address=True, rate=0) as (stack, http):
        match_id, (ann, bea) = await table_of_two(http)
        with capture_logs() as logs:
            async with connect(f"{live(stack, match_id)}?token={token_of(ann)}") as socket:
                assert (await receive(socket))["seat"] == 0
            async with connect(live(stack, match_id), additional_headers=bea) as socket:
                assert (await receive(socket))["seat"] == 1
    warned = [e for e in logs if e["event"] == "socket_token_in_address"]
    assert [(e["log_level"], e["player"]) for e in warned] == [("warning", "dev-ann")]
    assert token_of(ann) not in str(logs)


async def test_a_token_in_the_address_is_refused_unread(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    """By default (`TABLETOP_TOKEN_IN_ADDRESS=off`): the socket closes with 4401 and
    why, the token unread and kept out of the log; the header still signs in."""
    match_id, (ann, _) = await table_of_two(http)
    with capture_logs() as logs:
        async with connect(f"{live(stack, match_id)}?token={token_of(ann)}") as socket:
            with pytest.raises(ConnectionClosed) as closed:
                await receive(socket)
        async with connect(live(stack, match_id), additional_headers=ann) as socket:
            assert (await receive(socket))["seat"] == 0
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    assert closed.value.rcvd.reason == IN_ADDRESS
    assert [e["event"] for e in logs if "token_in_address" in e["event"]] == [
        "socket_token_in_address_refused"
    ]
    assert token_of(ann) not in str(logs)


def test_the_operator_turns_the_address_on_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLETOP_TOKEN_IN_ADDRESS", raising=False)
    assert GatewayConfig.from_env().token_in_address is False
    monkeypatch.setenv("TABLETOP_TOKEN_IN_ADDRESS", "on")
    assert GatewayConfig.from_env().token_in_address is True
    monkeypatch.setenv("TABLETOP_TOKEN_IN_ADDRESS", "no")
    with pytest.raises(ConfigError, match="TABLETOP_TOKEN_IN_ADDRESS is 'no': say on or off"):
        GatewayConfig.from_env()
