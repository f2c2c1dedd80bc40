"""Every answer tells the browser how to guard the player's token: only the gateway's own
scripts run, no other site frames the pages, and nothing signed in is cached."""

from __future__ import annotations

import httpx
import pytest

from services.gateway.app import GatewayConfig
from services.gateway.stack import Stack
from services.infra.config import ConfigError
from tests.gateway.conftest import sign_in


def guarded(answer: httpx.Response) -> None:
    policy = answer.headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"


async def test_the_pages_run_only_the_gateways_own_scripts_and_are_framed_by_nobody(
    http: httpx.AsyncClient,
) -> None:
    for page in ("/", "/table?match=m-1", "/replay?match=m-1", "/static/style.css"):
        answer = await http.get(page)
        assert answer.status_code == 200
        guarded(answer)
        # A page or a script may be cached; it holds nobody's secrets.
        assert answer.headers.get("cache-control") != "no-store"


async def test_what_a_player_reads_is_never_stored_by_a_cache(http: httpx.AsyncClient) -> None:
    ann = await sign_in(http, "Ann")
    made = await http.post("/api/matches", json={"game": "chicken", "seats": 2}, headers=ann)
    match_id = made.json()["match_id"]
    for answer in (
        await http.get("/api/me", headers=ann),
        await http.get(f"/api/matches/{match_id}", headers=ann),
        await http.get("/api/games"),
        await http.get("/api/me"),  # refused: no token
    ):
        guarded(answer)
        assert answer.headers["cache-control"] == "no-store"


async def test_a_move_answered_before_the_framework_is_guarded_too(
    http: httpx.AsyncClient,
) -> None:
    ann = await sign_in(http, "Ann")
    made = await http.post("/api/matches", json={"game": "chicken", "seats": 2}, headers=ann)
    url = f"/api/matches/{made.json()['match_id']}/commands"
    for answer in (
        await http.post(url, json={"command": {"type": "Roll"}}, headers=ann),
        await http.post(url, json={"command": {"type": "Roll"}}),  # no token: 401
    ):
        assert answer.status_code in (401, 409, 422, 400), answer.text
        guarded(answer)
        assert answer.headers["cache-control"] == "no-store"


async def test_a_platform_named_by_the_operator_may_frame_the_pages(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLETOP_FRAME_ANCESTORS", "'self'   https://play.example")
    assert GatewayConfig.from_env().frame_ancestors == "'self' https://play.example"


@pytest.mark.parametrize(
    "sources",
    [
        "",
        "'self'; script-src *",
        "https://a.example, https://b.example",
        "x\r\nSet-Cookie: a",
        "'self'\n",
    ],
)
def test_a_frame_policy_that_would_break_out_of_its_header_is_refused(
    sources: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLETOP_FRAME_ANCESTORS", sources)
    with pytest.raises(ConfigError, match="TABLETOP_FRAME_ANCESTORS"):
        GatewayConfig.from_env()


async def test_head_is_answered_as_get_without_a_body(http: httpx.AsyncClient) -> None:
    """Uptime checks and link checkers ask HEAD of the pages and of /healthz."""
    for path in ("/", "/healthz", "/static/style.css", "/api/games"):
        head, get = await http.head(path), await http.get(path)
        assert head.status_code == get.status_code == 200, path
        assert head.content == b""
        assert head.headers["content-type"] == get.headers["content-type"]
        guarded(head)
