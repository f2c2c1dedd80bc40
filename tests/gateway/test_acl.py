"""The gateway runs as the `tt-gateway` user of deploy/users.acl."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from services import compose
from services.gateway.app import GatewayConfig
from services.gateway.server import GatewayServer
from services.infra.config import Settings
from services.infra.embedded import EmbeddedRedis
from tests.gateway.conftest import SECRET

pytestmark = pytest.mark.redis
ACL = Path(__file__).parents[2] / "deploy" / "users.acl"


async def test_the_gateway_serves_a_match_as_its_own_redis_user(tmp_path: Path) -> None:
    acl = tmp_path / "users.acl"
    shutil.copy(ACL, acl)
    server = EmbeddedRedis(tmp_path / "data", extra=["--aclfile", str(acl)]).start()

    def settings(user: str) -> Settings:
        url = f"unix://{user}:{quote('change-me')}@{server.socket}"
        return Settings(redis_url=url, partitions=4, polling_ms=20)

    service = compose.command_service(settings("tt-commands"))
    config = GatewayConfig(secret=SECRET, dev_signin=True)
    web = GatewayServer(compose.gateway(settings("tt-gateway"), config), port=0)
    try:
        await service.start()
        await web.start()
        async with httpx.AsyncClient(base_url=web.url, timeout=20) as http:
            assert (await http.get("/healthz")).status_code == 200
            heads = []
            for name in ("Ann", "Bea"):
                token = (await http.post("/api/signin/dev", json={"name": name})).json()["token"]
                heads.append({"authorization": f"Bearer {token}"})
            made = await http.post(
                "/api/matches", json={"game": "chicken", "seats": 2}, headers=heads[0]
            )
            match_id = made.json()["match_id"]
            await http.post(f"/api/matches/{match_id}/join", json={}, headers=heads[1])
            started = await http.post(f"/api/matches/{match_id}/start", json={}, headers=heads[1])
            assert started.status_code == 200, started.text
            table = (await http.get(f"/api/matches/{match_id}", headers=heads[0])).json()
            assert table["view"]["status"] == "playing"
            assert (await http.get(f"/api/matches/{match_id}/history", headers=heads[0])).json()[
                "lines"
            ]
    finally:
        await web.stop()
        await service.stop()
        server.stop()
