"""The gateway under load: N simulated players (two a match of Chicken!) over HTTP and
WebSockets on loopback, against the same moves sent straight to the command streams in
the same run, with the command service, projector and gateway in a process of their own.

Measured: commands/s both ways (and their ratio), POST-to-push latency (from the POST
of a move to its event arriving on the mover's WebSocket), and the gateway process's
memory per open WebSocket. The load generator is one Python process: at high counts it
is part of what is measured, on the gateway side more than on the direct one.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import random
import time
import uuid
from typing import Any

import msgspec

from bench.common import percentile, quiet_logs

SECRET = "bench-secret-not-for-production-0123"


def stack_child(url: str, partitions: int, port: int, q: Any, stop: Any, services: bool) -> None:
    quiet_logs()
    asyncio.run(_stack(url, partitions, port, q, stop, services))


async def _stack(url: str, partitions: int, port: int, q: Any, stop: Any, services: bool) -> None:
    import os

    from domain.kernel import games
    from services.gateway.app import GatewayConfig
    from services.gateway.stack import Stack
    from services.infra.config import Settings

    games()
    config = GatewayConfig(secret=SECRET, dev_signin=True, bot_delay=0.0)
    settings = Settings(redis_url=url, partitions=partitions)
    # The command service and projector in one process, the gateway in another: the
    # direct run and the gateway run then meet the same command service.
    stack = Stack(settings, config, port=port, commands=services, projector=services)
    if services:
        await stack.start_services()
    else:
        await stack.server.start()
    q.put(("ready", os.getpid()))
    while not stop.is_set():
        await asyncio.sleep(0.05)
    if services:
        await stack.stop_services()
    else:
        await stack.stop()


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def run_gateway(url: str, matches: int, moves: int, partitions: int = 16) -> dict[str, Any]:
    from services.gateway.server import free_port

    port = free_port()
    ctx = mp.get_context("spawn")
    q, stop = ctx.Queue(), ctx.Event()
    children = [
        ctx.Process(target=stack_child, args=(url, partitions, port, q, stop, services))
        for services in (True, False)
    ]
    for child in children:
        child.start()
    try:
        pids = [q.get(timeout=60)[1] for _ in children]
        gateway_pid = children[1].pid or pids[-1]
        return asyncio.run(
            _measure(url, f"127.0.0.1:{port}", gateway_pid, matches, moves, partitions)
        )
    finally:
        stop.set()
        for child in children:
            child.join(timeout=30)
            if child.is_alive():
                child.kill()


async def _measure(
    url: str, address: str, pid: int, matches: int, moves: int, partitions: int
) -> dict[str, Any]:
    direct = await _direct(url, matches, moves, partitions)
    through = await _through_gateway(address, pid, matches, moves)
    ratio = through["cmds_per_s"] / direct["cmds_per_s"] if direct["cmds_per_s"] else 0.0
    return {
        "players": matches * 2,
        "matches": matches,
        "moves_per_match": moves,
        "direct": direct,
        "gateway": through,
        "ratio": round(ratio, 2),
    }


def _choose(state: Any, rng: random.Random) -> tuple[int, Any]:
    from domain.kernel import get_game

    game = get_game(state.game)
    seat = rng.choice(sorted(game.to_act(state.game_state)))
    return seat, rng.choice(list(game.legal(state.game_state, seat)))


async def _direct(url: str, matches: int, moves: int, partitions: int) -> dict[str, Any]:
    """The same moves through the client library, folding each reply's events."""
    from domain import match as m
    from services.client.client import TabletopClient

    async with TabletopClient.from_url(url, partitions=partitions, timeout=120) as client:

        async def one(i: int) -> int:
            rng = random.Random(i)
            codec = m.codec("chicken")
            players = [f"d{i}a", f"d{i}b"]
            match_id = uuid.uuid4().hex[:16]
            state: Any = None
            replies = [await client.send(match_id, m.CreateMatch(game="chicken", seats=2))]
            replies += [await client.join(match_id, p) for p in players]
            replies.append(await client.start(match_id, players[0], seed=i + 1))
            sent = 0
            while True:
                for reply in replies:
                    state = m.fold([codec.decode(bytes(e)) for e in reply.events], state)
                if sent >= moves or state.status != "playing":
                    return sent
                seat, move = _choose(state, rng)
                replies = [await client.play(match_id, players[seat], move)]
                sent += 1

        t0 = time.perf_counter()
        counts = await asyncio.gather(*(one(i) for i in range(matches)))
        elapsed = time.perf_counter() - t0
    total = sum(counts)
    return {
        "commands": total,
        "seconds": round(elapsed, 2),
        "cmds_per_s": round(total / elapsed, 1),
    }


async def _through_gateway(address: str, pid: int, matches: int, moves: int) -> dict[str, Any]:
    import httpx
    from websockets.asyncio.client import connect

    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(base_url=f"http://{address}", timeout=120, limits=limits) as http:

        async def sign_in(name: str) -> dict[str, str]:
            answer = (await http.post("/api/signin/dev", json={"name": name})).json()
            return {"authorization": f"Bearer {answer['token']}", "token": answer["token"]}

        async def table(i: int) -> tuple[str, list[dict[str, str]]]:
            heads = [await sign_in(f"g{i}a"), await sign_in(f"g{i}b")]
            auth = [{"authorization": h["authorization"]} for h in heads]
            made = await http.post(
                "/api/matches", json={"game": "chicken", "seats": 2}, headers=auth[0]
            )
            match_id = made.json()["match_id"]
            await http.post(f"/api/matches/{match_id}/join", json={}, headers=auth[1])
            await http.post(f"/api/matches/{match_id}/start", json={}, headers=auth[0])
            return match_id, heads

        tables = await asyncio.gather(*(table(i) for i in range(matches)))
        before = rss_kib(pid)
        sockets: list[list[Any]] = []
        for match_id, heads in tables:
            pair = []
            for h in heads:
                ws = await connect(f"ws://{address}/api/matches/{match_id}/live?token={h['token']}")
                pair.append(ws)
            sockets.append(pair)
        await asyncio.sleep(0.5)
        after = rss_kib(pid)
        latencies: list[float] = []

        async def play(i: int) -> int:
            match_id, heads = tables[i]
            rng = random.Random(i)
            views: list[dict[str, Any]] = []
            for ws in sockets[i]:
                hello = msgspec.json.decode(await ws.recv())
                views.append(hello)
            sent = 0
            while sent < moves and views[0]["view"]["status"] == "playing":
                acting = [s for s in (0, 1) if views[s]["commands"]]
                if not acting:
                    break
                seat = rng.choice(acting)
                move = rng.choice(views[seat]["commands"][0]["legal"])
                body = {"command_id": uuid.uuid4().hex, "move": move}
                t0 = time.perf_counter()
                reply = await http.post(
                    f"/api/matches/{match_id}/commands",
                    json=body,
                    headers={"authorization": heads[seat]["authorization"]},
                )
                version = reply.json()["version"]
                pushed = False
                # Both sockets follow to the view after the move; the mover's first
                # event of it is the push that is timed.
                for s, ws in enumerate(sockets[i]):
                    while True:
                        message = msgspec.json.decode(await ws.recv())
                        if s == seat and not pushed and message["kind"] == "event":
                            latencies.append(time.perf_counter() - t0)
                            pushed = True
                        if message["kind"] == "view" and message["version"] >= version:
                            views[s] = message
                            break
                sent += 1
            return sent

        t0 = time.perf_counter()
        counts = await asyncio.gather(*(play(i) for i in range(matches)))
        elapsed = time.perf_counter() - t0
        for pair in sockets:
            for ws in pair:
                await ws.close()
    total = sum(counts)
    latencies.sort()
    return {
        "commands": total,
        "seconds": round(elapsed, 2),
        "cmds_per_s": round(total / elapsed, 1),
        "post_to_push_p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "post_to_push_p99_ms": round(percentile(latencies, 99) * 1000, 1),
        "websockets": 2 * matches,
        "kib_per_websocket": round((after - before) / (2 * matches), 1),
    }


if __name__ == "__main__":
    import json
    import sys
    import tempfile
    from pathlib import Path

    from services import compose

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    server = compose.embedded_server(Path(tempfile.mkdtemp(prefix="tt-gw-bench-")))
    try:
        print(json.dumps(run_gateway(server.url, n, 30), indent=2))
    finally:
        server.stop()
