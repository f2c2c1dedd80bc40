"""`tabletop demo --web` prints a URL where a person signs in by name and plays."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import httpx
from redis.asyncio import Redis

from services.infra.ports import free_port


async def test_demo_web_prints_a_url_that_serves_the_table_with_dev_sign_in(
    redis: Redis, redis_server: str
) -> None:
    port = free_port()
    env = {**os.environ, "TABLETOP_REDIS_URL": redis_server, "COLUMNS": "200"}
    env.pop("TABLETOP_DEV_SIGNIN", None)  # the demo turns it on itself
    demo = subprocess.Popen(
        [
            os.path.join(os.path.dirname(sys.executable), "tabletop"),
            "demo",
            "--web",
            "--port",
            str(port),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        assert demo.stdout is not None
        line = demo.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found and int(found.group(1)) == port, line
        async with httpx.AsyncClient(base_url=found.group(0), timeout=20) as http:
            assert (await http.get("/healthz")).json()["status"] == "ok"
            assert '<script type="module"' in (await http.get("/")).text
            signed = await http.post("/api/signin/dev", json={"name": "Ann"})
            assert signed.status_code == 200
    finally:
        demo.send_signal(signal.SIGINT)
        code = demo.wait(timeout=30)
    assert code == 0
    # The person reads the URL, not the operators' log lines (a warning about a secret
    # that only `serve`'s processes need to share).
    assert demo.stderr is not None
    said = demo.stderr.read()
    assert '"level":"warning"' not in said and "Traceback" not in said, said
