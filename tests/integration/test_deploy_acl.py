"""deploy/users.acl, loaded into a real redis-server: each process can do its work as
its own user, and a client cannot read the log, where hidden information lives."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import quote

import pytest
from redis.exceptions import NoPermissionError

from events.redis_store import RedisEventStore
from services import compose
from services.client.bots import play_match
from services.client.client import TabletopClient
from services.infra.config import Settings
from services.infra.embedded import EmbeddedRedis
from services.infra.redisconn import connect
from services.readside.projector import Projector
from services.readside.readmodels import ReadModels

pytestmark = pytest.mark.redis
ACL = Path(__file__).parents[2] / "deploy" / "users.acl"
P = 4


async def test_each_process_works_as_its_own_user_and_a_client_cannot_read_the_log(
    tmp_path: Path,
) -> None:
    acl = tmp_path / "users.acl"
    shutil.copy(ACL, acl)
    server = EmbeddedRedis(tmp_path / "data", extra=["--aclfile", str(acl)]).start()

    def url(user: str) -> str:
        return f"unix://{user}:{quote('change-me')}@{server.socket}"

    service = compose.command_service(
        Settings(redis_url=url("tt-commands"), partitions=P, polling_ms=20)
    )
    try:
        await service.start()
        async with TabletopClient.from_url(url("tt-client"), partitions=P, timeout=10) as client:
            match_id, live = await play_match(
                client, service.store, "countdown", seats=2, seed=3, options={"start": 12}
            )
        assert live.state.status == "finished"
        projecting = connect(url("tt-projector"))
        reading = connect(url("tt-client"))
        try:
            projector = Projector(projecting, RedisEventStore(projecting, P))
            assert await projector.catch_up() > 0
            models = ReadModels(reading, P)
            summary = await models.summary(match_id)
            assert summary is not None and summary.status == "finished"
            assert await models.history(match_id, 0)
            assert await models.leaderboard("countdown")
            keys = service.store.keys(match_id)
            for hidden in (keys.log, keys.match(match_id), keys.snapshot(match_id)):
                with pytest.raises(NoPermissionError):
                    await reading.xrange(hidden)
        finally:
            await projecting.aclose()
            await reading.aclose()
    finally:
        await service.stop()
        server.stop()


def test_a_server_that_refuses_its_acl_file_fails_to_start_with_its_reason(
    tmp_path: Path,
) -> None:
    acl = tmp_path / "users.acl"
    acl.write_text("# Redis takes no comments in an ACL file\nuser default on nopass ~* +@all\n")
    with pytest.raises(RuntimeError, match="ACL"):
        EmbeddedRedis(tmp_path / "data", extra=["--aclfile", str(acl)]).start()
