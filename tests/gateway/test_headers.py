"""Every answer tells the browser how to guard the player's token: only the gateway's own
scripts run, no other site frames the pages, and nothing signed in is cached."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from redis.asyncio import Redis

from services.gateway.app import GatewayConfig
from services.gateway.stack import Stack
from services.infra.config import ConfigError
from tests.gateway.conftest import gateway, sign_in


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


PLATFORM = "https://play.example"


@pytest.fixture
async def platform_http(redis: Redis, redis_server: str) -> AsyncIterator[httpx.AsyncClient]:
    """A gateway whose operator lets the platform's own pages call the API."""
    allowed = {"cors_origins": (PLATFORM,)}
    async with gateway(redis_server, rate=0, tables_per_minute=0, **allowed) as (_, client):
        yield client


def preflight(method: str, headers: str) -> dict[str, str]:
    return {"access-control-request-method": method, "access-control-request-headers": headers}


async def test_a_platforms_page_may_call_the_api_with_a_players_token(
    platform_http: httpx.AsyncClient,
) -> None:
    http = platform_http
    ann = await sign_in(http, "Ann")
    made = await http.post("/api/matches", json={"game": "chicken", "seats": 2}, headers=ann)
    url = f"/api/matches/{made.json()['match_id']}/commands"
    # The browser asks first, for a move and for a read.
    for path, method in ((url, "POST"), ("/api/me", "GET")):
        asked = await http.options(
            path, headers={"origin": PLATFORM, **preflight(method, "authorization, content-type")}
        )
        assert asked.status_code == 204, asked.text
        assert asked.headers["access-control-allow-origin"] == PLATFORM
        assert method in asked.headers["access-control-allow-methods"]
        assert "authorization" in asked.headers["access-control-allow-headers"].lower()
        assert "access-control-allow-credentials" not in asked.headers
    # Then reads the answers: a move answered before the framework, and a read after it.
    for answer in (
        await http.post(
            url, json={"command": {"type": "Roll"}}, headers={**ann, "origin": PLATFORM}
        ),
        await http.get("/api/me", headers={**ann, "origin": PLATFORM}),
    ):
        assert answer.headers["access-control-allow-origin"] == PLATFORM, answer.request.url
        assert "Origin" in answer.headers["vary"]
        assert "retry-after" in answer.headers["access-control-expose-headers"].lower()


async def test_a_site_the_operator_did_not_name_may_not_read_the_api(
    platform_http: httpx.AsyncClient,
) -> None:
    stranger = "https://stranger.example"
    ann = await sign_in(platform_http, "Ann")
    asked = await platform_http.options(
        "/api/me", headers={"origin": stranger, **preflight("GET", "authorization")}
    )
    assert asked.status_code == 400
    assert "access-control-allow-origin" not in asked.headers
    made = await platform_http.post(
        "/api/matches", json={"game": "chicken", "seats": 2}, headers=ann
    )
    assert made.is_success, made.text
    moved = await platform_http.post(
        f"/api/matches/{made.json()['match_id']}/commands",
        json={"command": {"type": "Roll"}},
        headers={**ann, "origin": stranger},
    )
    assert "access-control-allow-origin" not in moved.headers
    # Nor may the platform's page send the platform's secret: it belongs on its servers.
    asked = await platform_http.options(
        "/api/signin", headers={"origin": PLATFORM, **preflight("POST", "x-gateway-secret")}
    )
    assert asked.status_code == 400


async def test_a_gateway_whose_operator_named_no_site_answers_its_own_pages_only(
    http: httpx.AsyncClient,
) -> None:
    asked = await http.options(
        "/api/me", headers={"origin": PLATFORM, **preflight("GET", "authorization")}
    )
    assert "access-control-allow-origin" not in asked.headers
    read = await http.get("/api/games", headers={"origin": PLATFORM})
    assert "access-control-allow-origin" not in read.headers


def test_the_operator_names_the_platforms_origins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETOP_CORS_ORIGINS", " https://Play.example  http://localhost:5173 ")
    assert GatewayConfig.from_env().cors_origins == (
        "https://play.example",
        "http://localhost:5173",
    )


@pytest.mark.parametrize(
    "origins", ["*", "https://*.example", "https://play.example/", "play.example", "https://a, b"]
)
def test_an_origin_that_is_not_one_site_is_refused(
    origins: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLETOP_CORS_ORIGINS", origins)
    with pytest.raises(ConfigError, match="TABLETOP_CORS_ORIGINS"):
        GatewayConfig.from_env()
