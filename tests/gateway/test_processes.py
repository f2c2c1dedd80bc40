"""`tabletop serve --gateway-processes 2`: two gateway processes on one port, and a
player is served the same by either (sign-in, quick play, live pushes)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
from redis.asyncio import Redis
from websockets.asyncio.client import connect

from services.infra.ports import free_port


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def refused(scraped: httpx.Response) -> float:
    """Requests refused as unsigned (401), as a scrape of `/metrics` counts them."""
    for line in scraped.text.splitlines():
        if line.startswith('tabletop_gateway_refusals_total{status="401"}'):
            return float(line.split()[-1])
    return 0.0


async def test_two_gateway_processes_on_one_port_serve_one_table_and_its_pushes(
    redis: Redis, redis_server: str
) -> None:
    port = free_port()
    env = {
        **os.environ,
        "TABLETOP_REDIS_URL": redis_server,
        "TABLETOP_DEV_SIGNIN": "1",
        "TABLETOP_QUICKPLAY_WAIT": "600",  # people fill this table, not bots
        "TABLETOP_PARTITIONS": "4",
        "COLUMNS": "200",
    }
    env.pop("TABLETOP_GATEWAY_SECRET", None)  # the processes must share the one made
    tabletop = os.path.join(os.path.dirname(sys.executable), "tabletop")
    serve = subprocess.Popen(
        [tabletop, "serve", "--gateway-processes", "2", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        assert serve.stdout is not None
        line = serve.stdout.readline()
        assert "serving" in line, line
        assert len(children_of(serve.pid)) >= 2
        # New connections until each process has answered one: a client per process.
        by_process: dict[int, httpx.AsyncClient] = {}
        spare: list[httpx.AsyncClient] = []
        for _ in range(200):
            client = httpx.AsyncClient(base_url=base, timeout=20)
            pid = (await client.get("/healthz")).json()["process"]
            if pid in by_process:
                spare.append(client)
            else:
                by_process[pid] = client
            if len(by_process) == 2:
                break
        assert len(by_process) == 2, "the kernel sent every connection to one process"
        assert set(by_process) <= set(children_of(serve.pid))
        first, second = by_process.values()
        # A token from one process is good at the other (one secret for all).
        ann = (await first.post("/api/signin/dev", json={"name": "Ann"})).json()["token"]
        bea = (await second.post("/api/signin/dev", json={"name": "Bea"})).json()["token"]
        ask = {"game": "chicken", "seats": 2}
        seat_ann = await first.post(
            "/api/quickplay", json=ask, headers={"authorization": f"Bearer {ann}"}
        )
        seat_bea = await second.post(
            "/api/quickplay", json=ask, headers={"authorization": f"Bearer {bea}"}
        )
        assert seat_ann.json()["match_id"] == seat_bea.json()["match_id"]
        match_id = seat_ann.json()["match_id"]
        # Ann follows the match on whichever process her socket reaches; each moves
        # through the other's process and the push arrives.
        url = f"ws://127.0.0.1:{port}/api/matches/{match_id}/live"
        async with connect(url, additional_headers={"authorization": f"Bearer {ann}"}) as socket:
            hello = json.loads(await socket.recv())
            while hello["view"]["status"] != "playing":
                hello = json.loads(await socket.recv())
            tokens = {"dev-ann": ann, "dev-bea": bea}
            mover = next(
                p
                for p in hello["view"]["players"]
                if p == "dev-ann" and hello["commands"] or p == "dev-bea" and not hello["commands"]
            )
            on = second if mover == "dev-ann" else first
            table = (
                await on.get(
                    f"/api/matches/{match_id}",
                    headers={"authorization": f"Bearer {tokens[mover]}"},
                )
            ).json()
            move = table["commands"][0]["legal"][0]
            reply = await on.post(
                f"/api/matches/{match_id}/commands",
                json={"command_id": uuid.uuid4().hex, "move": move},
                headers={"authorization": f"Bearer {tokens[mover]}"},
            )
            assert reply.json()["status"] == "accepted", reply.text
            while True:
                message = json.loads(await socket.recv())
                pushed = [line["version"] for line in message.get("events", [])]
                if message["kind"] == "update" and reply.json()["version"] in pushed:
                    break
        # Each process counts its refusals; a scrape, whichever process answers it,
        # counts them all (the processes share their metrics' directory).
        before = [refused(await client.get("/metrics")) for client in (first, second)]
        assert before[0] == before[1]
        for client, times in ((first, 3), (second, 2)):
            for _ in range(times):
                assert (await client.get("/api/me")).status_code == 401
        assert [refused(await c.get("/metrics")) for c in (first, second)] == [before[0] + 5] * 2
        for client in [*by_process.values(), *spare]:
            await client.aclose()
    finally:
        serve.send_signal(signal.SIGINT)
        code = serve.wait(timeout=60)
    assert code == 0
