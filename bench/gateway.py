"""The gateway under load: N simulated players (two a match of Chicken!) over HTTP and
WebSockets on loopback, against the same moves sent straight to the command streams in
the same run. The command service and projector run in a process of their own, the
gateway in one process or several (SO_REUSEPORT, as `tabletop serve --gateway-processes`
runs them), the simulated players in this one.

Measured: commands/s both ways (and their ratio), POST-to-push latency (from the POST
of a move to its event arriving on the mover's WebSocket), the gateway's memory per
open WebSocket, and the CPU each part used per command (gateway, services, the Redis
server when it runs here, the load generator): on a shared machine the CPU per command
moves less than the rates do.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing as mp
import os
import random
import time
import uuid
from typing import Any

import msgspec

from bench.common import percentile, quiet_logs

SECRET = "bench-secret-not-for-production-0123"


def services_child(url: str, partitions: int, q: Any, stop: Any) -> None:
    """The command service and projector, in one process for the whole run: the direct
    run and every gateway run meet the same warm command service."""
    from services.infra import loop

    quiet_logs()
    loop.run(_services(url, partitions, q, stop))


async def _services(url: str, partitions: int, q: Any, stop: Any) -> None:
    from domain.kernel import games
    from services.gateway.app import GatewayConfig
    from services.gateway.stack import Stack
    from services.infra.config import Settings

    games()
    settings = Settings(redis_url=url, partitions=partitions)
    stack = Stack(settings, GatewayConfig(secret=SECRET))
    await stack.start_services()
    q.put(("ready", os.getpid()))
    while not stop.is_set():
        await asyncio.sleep(0.05)
    await stack.stop_services()


def gateway_child(url: str, partitions: int, port: int, q: Any, stop: Any, shared: bool) -> None:
    """One gateway process, as `tabletop serve --gateway-processes N` runs each (on
    uvloop; `shared`: the port bound with SO_REUSEPORT beside others)."""
    from services.infra import loop

    quiet_logs()
    loop.run(_gateway(url, partitions, port, q, stop, shared))


async def _gateway(url: str, partitions: int, port: int, q: Any, stop: Any, shared: bool) -> None:
    from domain.kernel import games
    from services import compose
    from services.gateway.app import GatewayConfig
    from services.gateway.server import GatewayServer
    from services.infra.config import Settings

    games()
    # The simulated players move as fast as their replies come, far past what a person
    # does: limits high enough never to refuse them, still checked on every request.
    config = GatewayConfig(
        secret=SECRET,
        dev_signin=True,
        bot_delay=0.0,
        rate=1e6,
        burst=1_000_000,
        tables_per_minute=1e6,
        tables_burst=1_000_000,
    )
    settings = Settings(redis_url=url, partitions=partitions)
    server = GatewayServer(compose.gateway(settings, config), port=port, reuse_port=shared)
    await server.start()
    q.put(("ready", os.getpid()))
    while not stop.is_set():
        await asyncio.sleep(0.05)
    await server.stop()


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int | None = None) -> float:
    """CPU time (user + system) a process has used so far; None: this one."""
    if pid is None:
        return time.process_time()
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def redis_pids(url: str) -> list[int | None]:
    """The Redis server's process when it runs on this machine (the embedded one does),
    for its CPU: it shares the cores with the rest. Empty when it is elsewhere."""
    from services.infra.redisconn import connect

    redis = connect(url)
    try:
        pid = int((await redis.info("server"))["process_id"])
    finally:
        await redis.aclose()
    try:
        with open(f"/proc/{pid}/comm") as comm:
            return [pid] if "redis" in comm.read() else []
    except OSError:
        return []


class _Cpu:
    """CPU used by each part (gateway, services, Redis, load generator) between two marks."""

    def __init__(self, parts: dict[str, list[int | None]]) -> None:
        self.parts = {k: pids for k, pids in parts.items() if pids}
        self.start = self._now()

    def _now(self) -> dict[str, float]:
        return {k: sum(cpu_seconds(p) for p in pids) for k, pids in self.parts.items()}

    def per_command(self, commands: int, seconds: float) -> dict[str, Any]:
        used = {k: v - self.start[k] for k, v in self._now().items()}
        return {
            "cpu_ms_per_command": {
                k: round(v * 1000 / max(1, commands), 3) for k, v in used.items()
            },
            "cores": {k: round(v / seconds, 2) for k, v in used.items()},
        }


def run_gateway(
    url: str,
    matches: int,
    moves: int,
    partitions: int = 16,
    processes: tuple[int, ...] = (1, 2),
) -> dict[str, Any]:
    """Straight to the streams first, then through the gateway as each count of gateway
    processes (fresh matches each time), against the same command service."""
    from services.infra import collector
    from services.infra.ports import free_port

    # The simulated players keep thousands of sockets and their views: with Python's
    # default thresholds they spent most of their CPU in full collections. Settled as
    # the services are; the same for the direct run and the gateway runs.
    collector.settle()
    ctx = mp.get_context("spawn")
    q, stop = ctx.Queue(), ctx.Event()
    services = ctx.Process(target=services_child, args=(url, partitions, q, stop))
    services.start()
    try:
        services_pid = q.get(timeout=60)[1]
        direct = asyncio.run(_direct(url, matches, moves, partitions, services_pid))
        runs = []
        for count in processes:
            # Each run starts once the projector has caught up with the one before: its
            # backlog would otherwise be billed to this one.
            waited = asyncio.run(_projected(url, partitions))
            port = free_port()
            done = ctx.Event()
            gateways = [
                ctx.Process(target=gateway_child, args=(url, partitions, port, q, done, count > 1))
                for _ in range(count)
            ]
            for child in gateways:
                child.start()
            try:
                pids = [q.get(timeout=60)[1] for _ in gateways]
                through = asyncio.run(
                    _through_gateway(f"127.0.0.1:{port}", url, pids, services_pid, matches, moves)
                )
            finally:
                done.set()
                _join(gateways)
            ratio = through["cmds_per_s"] / direct["cmds_per_s"] if direct["cmds_per_s"] else 0.0
            runs.append(
                {"processes": count, **through, "ratio": round(ratio, 2), "waited_s": waited}
            )
    finally:
        stop.set()
        _join([services])
    first = runs[0]
    return {
        "players": matches * 2,
        "matches": matches,
        "moves_per_match": moves,
        "direct": direct,
        "gateway": {k: v for k, v in first.items() if k != "ratio"},
        "ratio": first["ratio"],
        "by_processes": runs,
    }


async def _projected(url: str, partitions: int, limit_s: float = 300.0) -> float:
    """Seconds until the projector has caught up with every partition log (at most
    `limit_s`: a run after that starts anyway)."""
    from bench.end_to_end import projected_everything

    t0 = time.perf_counter()
    while not await projected_everything(url, partitions):
        if time.perf_counter() - t0 > limit_s:
            break
        await asyncio.sleep(0.2)
    return round(time.perf_counter() - t0, 1)


def _join(children: list[Any]) -> None:
    for child in children:
        child.join(timeout=30)
        if child.is_alive():
            child.kill()


def _choose(state: Any, rng: random.Random) -> tuple[int, Any]:
    from domain.kernel import get_game

    game = get_game(state.game)
    seat = rng.choice(sorted(game.to_act(state.game_state)))
    return seat, rng.choice(list(game.legal(state.game_state, seat)))


async def _direct(
    url: str, matches: int, moves: int, partitions: int, services_pid: int
) -> dict[str, Any]:
    """The same moves through the client library, folding each reply's events."""
    from domain import match as m
    from services.client.client import TabletopClient
    from services.compose import GATEWAY_POOL
    from services.infra.redisconn import connect

    # Its connections as the gateway's: a pool that waits when all are busy.
    redis = connect(url, blocking=True, max_connections=GATEWAY_POOL)
    async with TabletopClient(redis, partitions=partitions, timeout=120) as client:

        async def one(i: int) -> int:
            rng = random.Random(i)
            codec = m.codec("chicken")
            players = [f"d{i}a", f"d{i}b"]
            match_id = uuid.uuid4().hex[:16]
            state: Any = None
            replies = [await client.send(match_id, m.CreateMatch(game="chicken", seats=2))]
            replies += [await client.join(match_id, p) for p in players]
            replies.append(await client.start(match_id, players[0]))
            sent = 0
            while True:
                for reply in replies:
                    state = m.fold([codec.decode(bytes(e)) for e in reply.events], state)
                if sent >= moves or state.status != "playing":
                    return sent
                seat, move = _choose(state, rng)
                replies = [await client.play(match_id, players[seat], move)]
                sent += 1

        cpu = _Cpu({"services": [services_pid], "redis": await redis_pids(url), "load": [None]})
        t0 = time.perf_counter()
        counts = await asyncio.gather(*(one(i) for i in range(matches)))
        elapsed = time.perf_counter() - t0
    total = sum(counts)
    return {
        "commands": total,
        "seconds": round(elapsed, 2),
        "cmds_per_s": round(total / elapsed, 1),
        **cpu.per_command(total, elapsed),
    }


class _Http:
    """One keep-alive HTTP/1.1 connection, for one simulated player: requests in turn.

    The load generator is one Python process; a general client (httpx) spent most of
    its CPU in its connection pool, so the generator, not the gateway, set the pace."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reconnects = 0  # idle connections the server had closed
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        try:
            return await self._request(method, path, body, token)
        except (ConnectionError, asyncio.IncompleteReadError):
            # The server closed an idle connection (uvicorn keeps one 5 s): again on a
            # new one. Every request here is safe to repeat (a move by its command id).
            await self.close()
            self.reconnects += 1
            return await self._request(method, path, body, token)

    async def _request(
        self, method: str, path: str, body: Any, token: str | None
    ) -> tuple[int, Any]:
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        assert self._reader is not None
        payload = msgspec.json.encode(body) if body is not None else b""
        head = (
            f"{method} {path} HTTP/1.1\r\nhost: {self.host}\r\ncontent-length: {len(payload)}\r\n"
        )
        if body is not None:
            head += "content-type: application/json\r\n"
        if token:
            head += f"authorization: Bearer {token}\r\n"
        self._writer.write(head.encode() + b"\r\n" + payload)
        status_line = await self._reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection")
        status = int(status_line.split()[1])
        length, chunked = 0, False
        while (line := await self._reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value:
                chunked = True
        if chunked:
            parts = []
            while size := int((await self._reader.readline()).strip(), 16):
                parts.append(await self._reader.readexactly(size))
                await self._reader.readline()
            await self._reader.readline()
            data = b"".join(parts)
        else:
            data = await self._reader.readexactly(length)
        return status, msgspec.json.decode(data) if data else None

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(Exception):
                await self._writer.wait_closed()
            self._reader = self._writer = None


async def _through_gateway(
    address: str, redis_url: str, pids: list[int], services_pid: int, matches: int, moves: int
) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    host, port = address.rsplit(":", 1)
    https: list[list[_Http]] = [[_Http(host, int(port)) for _ in (0, 1)] for _ in range(matches)]
    limit = asyncio.Semaphore(200)  # connections being opened at once

    async def table(i: int) -> tuple[str, list[str]]:
        async with limit:
            a, b = https[i]
            tokens = [
                (await a.request("POST", "/api/signin/dev", {"name": f"g{i}a"}))[1]["token"],
                (await b.request("POST", "/api/signin/dev", {"name": f"g{i}b"}))[1]["token"],
            ]
            made = await a.request(
                "POST", "/api/matches", {"game": "chicken", "seats": 2}, tokens[0]
            )
            match_id = made[1]["match_id"]
            await b.request("POST", f"/api/matches/{match_id}/join", {}, tokens[1])
            await a.request("POST", f"/api/matches/{match_id}/start", {}, tokens[0])
            return match_id, tokens

    tables = await asyncio.gather(*(table(i) for i in range(matches)))
    before = sum(rss_kib(pid) for pid in pids)
    sockets: list[list[Any]] = []
    for match_id, tokens in tables:
        pair = []
        for token in tokens:
            url = f"ws://{address}/api/matches/{match_id}/live"
            signed = {"authorization": f"Bearer {token}"}
            pair.append(
                await connect(url, additional_headers=signed, compression=None, max_size=2**22)
            )
        sockets.append(pair)
    await asyncio.sleep(0.5)
    after = sum(rss_kib(pid) for pid in pids)
    latencies: list[float] = []

    async def play(i: int) -> int:
        match_id, tokens = tables[i]
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
            _, reply = await https[i][seat].request(
                "POST", f"/api/matches/{match_id}/commands", body, tokens[seat]
            )
            version = reply["version"]
            pushed = False
            # Both sockets follow to the view after the move; the mover's first
            # message with an event of it is the push that is timed.
            for s, ws in enumerate(sockets[i]):
                while True:
                    message = msgspec.json.decode(await ws.recv())
                    if s == seat and not pushed and message["events"]:
                        latencies.append(time.perf_counter() - t0)
                        pushed = True
                    if message["version"] >= version:
                        views[s] = message
                        break
            sent += 1
        return sent

    cpu = _Cpu(
        {
            "gateway": [*pids],
            "services": [services_pid],
            "redis": await redis_pids(redis_url),
            "load": [None],
        }
    )
    t0 = time.perf_counter()
    counts = await asyncio.gather(*(play(i) for i in range(matches)))
    elapsed = time.perf_counter() - t0
    used = cpu.per_command(sum(counts), elapsed)
    for pair in sockets:
        for ws in pair:
            await ws.close()
    for pair_http in https:
        for h in pair_http:
            await h.close()
    total = sum(counts)
    latencies.sort()
    return {
        "commands": total,
        "seconds": round(elapsed, 2),
        "cmds_per_s": round(total / elapsed, 1),
        "post_to_push_p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "post_to_push_p99_ms": round(percentile(latencies, 99) * 1000, 1),
        "http_reconnects": sum(h.reconnects for pair in https for h in pair),
        "websockets": 2 * matches,
        "kib_per_websocket": round((after - before) / (2 * matches), 1),
        **used,
    }


if __name__ == "__main__":
    import json
    import sys
    import tempfile
    from pathlib import Path

    from services import compose

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    counts = tuple(int(c) for c in sys.argv[2].split(",")) if len(sys.argv) > 2 else (1, 2)
    server = compose.embedded_server(Path(tempfile.mkdtemp(prefix="tt-gw-bench-")))
    try:
        print(json.dumps(run_gateway(server.url, n, 20, processes=counts), indent=2))
    finally:
        server.stop()
