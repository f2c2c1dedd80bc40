"""What the reliability suite and the soak share: a redis-server on a fixed loopback
port (so it can be killed and restarted under its clients), the services as real
`tabletop serve` processes, bots that count every command, and the checks.

Nothing here is timed for speed; times are measured and reported (takeover, outage).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from redis.asyncio import Redis

from events.envelope import Envelope
from events.keys import Keys
from events.redis_store import RedisEventStore
from services.client.bots import play_match
from services.client.client import CommandRejected, TabletopClient
from services.contracts.messages import REPLY_DECODER, Reply
from services.infra.embedded import EmbeddedRedis
from services.infra.ports import free_port
from services.infra.redisconn import GONE, connect
from services.readside.audit import audit

GROUP = "tt-commands"
GAME = "chicken"


# What a Redis restart makes a live service log on purpose (docs/reliability.md, "Redis
# restarts"): FastStream's read fails while the server is away and is tried again.
RESTART_RECORDS = frozenset({("faststream", "Message fetch error")})


class Server:
    """A redis-server with AOF on 127.0.0.1:<port>, killed and restarted in place."""

    def __init__(self, data: Path, appendfsync: str = "everysec") -> None:
        self.data = data
        self.appendfsync = appendfsync
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._server: EmbeddedRedis | None = None

    def start(self) -> Server:
        extra = ["--port", str(self.port), "--bind", "127.0.0.1"]
        self._server = EmbeddedRedis(self.data, appendfsync=self.appendfsync, extra=extra)
        self._server.start(timeout=60)
        return self

    @property
    def pid(self) -> int:
        assert self._server is not None and self._server.process is not None
        return self._server.process.pid

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last fsync."""
        if self._server is not None:
            self._server.kill()

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None


class Process:
    """One `tabletop serve ...` process, its JSON log lines in a file."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], logs: Path) -> None:
        self.name = name
        self.killed = False
        self.log_path = logs / f"{name}.log"
        self._log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from services.cli.main import main; main()", "serve", *args],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
        )

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def consumer(self) -> str:
        return f"commands-{socket.gethostname()}-{self.pid}"

    def kill(self) -> float:
        """kill -9; the monotonic time it was sent."""
        at = time.monotonic()
        self.killed = True
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        return at

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()

    def lines(self) -> list[dict[str, Any]]:
        out = []
        for raw in self.log_path.read_bytes().splitlines():
            with contextlib.suppress(ValueError):
                out.append(json.loads(raw))
        return out

    def errors(self, expected: frozenset[tuple[str, str]] = frozenset()) -> list[dict[str, Any]]:
        """What an operator would have to look into: lines at error level or worse,
        lines carrying an exception (a warning with a traceback is a failure someone
        caught, not a retry), and anything on stderr that is not a JSON line (a stray
        print or a traceback bypassing the logs). `expected` names (event, message)
        pairs a scenario causes on purpose and docs/reliability.md documents."""
        bad: list[dict[str, Any]] = []
        text = self.log_path.read_bytes()
        raws = text.splitlines()
        if self.killed and raws and not text.endswith(b"\n"):
            raws.pop()  # a line cut by kill -9 halfway through its write
        for raw in raws:
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
            except ValueError:
                line = None
            if not isinstance(line, dict):
                bad.append({"level": "not_json", "text": raw.decode(errors="replace")[:2000]})
                continue
            if (line.get("event"), line.get("message")) in expected:
                continue
            if line.get("level") in ("error", "critical") or "exception" in line:
                bad.append(line)
        return bad


class Stack:
    """The server and the services of one scenario; stops whatever it started."""

    def __init__(
        self,
        root: Path,
        partitions: int = 4,
        appendfsync: str = "everysec",
        extra_env: dict[str, str] | None = None,
    ) -> None:
        self.root = root
        self.partitions = partitions
        self.extra_env = extra_env or {}
        self.server = Server(root / "redis", appendfsync).start()
        self.logs = root / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self.processes: list[Process] = []

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETOP_") or k == "HOME"}
        env.update(
            TABLETOP_REDIS_URL=self.server.url,
            TABLETOP_PARTITIONS=str(self.partitions),
            PYTHONPATH=str(Path(__file__).parents[2]),
        )
        env.update(self.extra_env)
        return env

    # `serve` runs the players' gateway and the archiver too unless told not to: several
    # processes of a scenario would race for the gateway's one port (and meet whatever
    # else holds 8000), and each scenario is about the service it starts.
    def commands(self, name: str) -> Process:
        return self._start(name, ["--no-projector", "--no-gateway", "--no-archiver"])

    def projector(self, name: str) -> Process:
        return self._start(name, ["--no-commands", "--no-gateway", "--no-archiver"])

    def _start(self, name: str, args: list[str]) -> Process:
        process = Process(name, args, self.env(), self.logs)
        self.processes.append(process)
        return process

    def close(self) -> None:
        for process in self.processes:
            process.stop()
        self.server.stop()


@contextlib.contextmanager
def stack(
    root: Path,
    partitions: int = 4,
    appendfsync: str = "everysec",
    extra_env: dict[str, str] | None = None,
) -> Iterator[Stack]:
    made = Stack(root, partitions, appendfsync, extra_env)
    try:
        yield made
    finally:
        made.close()


async def until(check: Any, what: str, timeout: float = 300) -> None:
    """Poll `check` (a function, maybe async) until it holds. The bound is there so a
    scenario that never gets there fails with a sentence instead of hanging CI; it is
    generous on purpose (a loaded machine), never a measure of speed."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if asyncio.iscoroutine(found):
            found = await found
        if found:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        await asyncio.sleep(0.1)


async def wait_alive(redis: Redis, *services: Process, timeout: float = 60) -> None:
    """Until every command service has written its first heartbeat."""
    deadline = time.monotonic() + timeout
    while True:
        beats: Any = await redis.hgetall(f"tt:heartbeats:{GROUP}")
        names = {k.decode() for k in beats}
        if all(s.consumer in names for s in services):
            return
        for s in services:
            if s.proc.poll() is not None:
                raise RuntimeError(f"{s.name} exited: {s.log_path.read_text()[-2000:]}")
        if time.monotonic() > deadline:
            raise RuntimeError("command services did not start")
        await asyncio.sleep(0.1)


# --- counting bots -----------------------------------------------------------------------


@dataclass
class Answer:
    at: float
    reply: Reply


@dataclass
class Tally:
    """Every command the bots sent, and what came back."""

    sent: dict[str, float] = field(default_factory=dict)
    answered: dict[str, Answer] = field(default_factory=dict)
    lost: set[str] = field(default_factory=set)  # never answered within the client timeout
    matches: set[str] = field(default_factory=set)
    finished: int = 0
    rejected: int = 0
    extra_replies: int = 0  # answers beyond the first (a command run twice answers twice)

    def accepted(self) -> dict[str, str]:
        """command id -> match id, for every command whose first outcome was acceptance."""
        return {
            cid: a.reply.match_id
            for cid, a in self.answered.items()
            if a.reply.status == "accepted" or a.reply.original_status == "accepted"
        }

    def summary(self) -> dict[str, int | float]:
        return {
            "sent": len(self.sent),
            "answered": len(self.answered),
            "lost": len(self.lost),
            "duplicate_replies": self.extra_replies,
            "duplicate_first_answers": sum(
                a.reply.status == "duplicate" for a in self.answered.values()
            ),
            "slowest_answer_ms": int(
                max((a.at - self.sent[cid] for cid, a in self.answered.items()), default=0) * 1000
            ),
            "rejected": self.rejected,
            "matches": len(self.matches),
            "finished": self.finished,
        }


class CountingClient(TabletopClient):
    def __init__(self, redis: Redis, tally: Tally, **kwargs: Any) -> None:
        super().__init__(redis, **kwargs)
        self.tally = tally

    async def send_bytes(self, match_id: str, command_id: str, body: bytes) -> Reply:
        self.tally.sent[command_id] = time.monotonic()
        self.tally.matches.add(match_id)
        try:
            reply = await super().send_bytes(match_id, command_id, body)
        except TimeoutError:
            self.tally.lost.add(command_id)
            raise
        self.tally.answered[command_id] = Answer(time.monotonic(), reply)
        return reply

    async def count_replies(self) -> None:
        """Answers beyond one per command, read back from this client's reply stream."""
        seen: dict[str, int] = {}
        found: Any = await self.redis.xrange(self.reply_stream)
        for _, fields in found:
            cid = REPLY_DECODER.decode(fields[b"r"]).command_id
            seen[cid] = seen.get(cid, 0) + 1
        self.tally.extra_replies += sum(n - 1 for n in seen.values())


class PatientStore(RedisEventStore):
    """The bots' view of the store: waits out a restarting server instead of failing."""

    async def load(self, match_id: str, after_version: int = 0) -> list[Envelope]:
        delay = 0.05
        while True:
            try:
                return await super().load(match_id, after_version)
            except GONE:
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)


async def bots(
    url: str,
    tally: Tally,
    stop: asyncio.Event,
    *,
    tables: int,
    partitions: int,
    timeout: float = 60,
) -> None:
    """`tables` bot pairs, each playing whole matches one after the other until `stop`."""
    redis = connect(url)
    store = PatientStore(redis, partitions)
    clients = [
        CountingClient(connect(url), tally, partitions=partitions, timeout=timeout)
        for _ in range(tables)
    ]

    async def table(client: CountingClient, n: int) -> None:
        game = 0
        while not stop.is_set():
            game += 1
            try:
                _, live = await play_match(client, store, GAME, seats=2, bot_seed=n * 1000 + game)
                tally.finished += live.state.status == "finished"
            except CommandRejected:
                tally.rejected += 1
            except TimeoutError:
                pass  # counted as lost by the client

    try:
        async with contextlib.AsyncExitStack() as closing:
            for client in clients:
                await closing.enter_async_context(client)
            await asyncio.gather(*(table(c, i) for i, c in enumerate(clients)))
            for client in clients:
                await client.count_replies()
    finally:
        for client in clients:
            await client.redis.aclose()
        await redis.aclose()


# --- checks ---------------------------------------------------------------------------------


class Effects(msgspec.Struct):
    """What the match streams hold against what the bots were told."""

    applied_twice: list[str]  # a command id in two separate places of one match
    missing: list[str]  # accepted, and not in its match stream
    unknown: list[str]  # in a stream, and never accepted to anyone
    audit_failed: list[str]
    events: int


async def effects(redis: Redis, tally: Tally, partitions: int) -> Effects:
    store = RedisEventStore(redis, partitions)
    accepted = tally.accepted()
    twice: list[str] = []
    seen: set[str] = set()
    failed: list[str] = []
    events = 0
    for match_id in sorted(tally.matches):
        envelopes = await store.load(match_id)
        events += len(envelopes)
        # One run of consecutive events per command: a command applied twice has two.
        runs = [
            e.command_id
            for i, e in enumerate(envelopes)
            if i == 0 or envelopes[i - 1].command_id != e.command_id
        ]
        twice += [cid for cid in set(runs) if runs.count(cid) > 1]
        seen.update(runs)
        if envelopes and (await audit(store, match_id)).status not in ("ok", "skipped"):
            failed.append(match_id)
    return Effects(
        applied_twice=sorted(twice),
        missing=sorted(set(accepted) - seen),
        unknown=sorted(seen - set(accepted)),
        audit_failed=failed,
        events=events,
    )


async def pending(redis: Redis, partitions: int) -> dict[str, int]:
    """Pending commands per consumer, over every partition."""
    out: dict[str, int] = {}
    for p in range(partitions):
        with contextlib.suppress(Exception):  # NOGROUP before the first read
            info: Any = await redis.xinfo_consumers(Keys(p).commands, GROUP)
            for c in info:
                out[c["name"].decode()] = out.get(c["name"].decode(), 0) + int(c["pending"])
    return out


async def pending_command_ids(redis: Redis, partitions: int, consumer: str) -> list[str]:
    """The command ids a consumer holds unacknowledged."""
    out = []
    for p in range(partitions):
        with contextlib.suppress(Exception):
            rows: Any = await redis.xpending_range(
                Keys(p).commands, GROUP, min="-", max="+", count=10_000, consumername=consumer
            )
            for row in rows:
                entry: Any = await redis.xrange(
                    Keys(p).commands, min=row["message_id"], max=row["message_id"]
                )
                for _, fields in entry:
                    body = json.loads(fields[b"c"])
                    out.append(body["command_id"])
    return out


def report(name: str, figures: dict[str, Any]) -> None:
    """Figures for docs/reliability.md: printed (`pytest -s`) and kept in a file when
    TABLETOP_RELIABILITY_REPORT names one."""
    line = json.dumps({"scenario": name, **figures})
    print(f"\nRELIABILITY {line}")
    path = os.environ.get("TABLETOP_RELIABILITY_REPORT")
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")
