"""What the command service says about what it refuses: `tabletop serve` as a process of
its own against the test session's redis-server, its structlog JSON lines read back."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from redis.asyncio import Redis

from domain import match as m
from events.keys import Keys, partition_of
from services.client.client import TabletopClient

pytestmark = pytest.mark.redis

PARTITIONS = 4
SERVE = "from services.cli.main import main; main()"


def lines(path: Path) -> list[dict[str, Any]]:
    out = []
    for line in path.read_bytes().splitlines():
        if line.startswith(b"{"):
            out.append(msgspec.json.decode(line))
    return out


async def wait_for(check: Callable[[], Any], what: str, rounds: int = 400) -> None:
    """Poll until `check` holds; a bound on waiting, not a measure of speed."""
    for _ in range(rounds):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


def logged(path: Path, event: str, **match: Any) -> list[dict[str, Any]]:
    return [
        e
        for e in lines(path)
        if e.get("event") == event and all(e.get(k) == v for k, v in match.items())
    ]


async def test_everything_refused_is_logged_with_its_reason_and_ids(
    redis: Redis, redis_server: str, tmp_path: Path
) -> None:
    err = tmp_path / "serve.err"
    env = {
        **os.environ,
        "TABLETOP_REDIS_URL": redis_server,
        "TABLETOP_PARTITIONS": str(PARTITIONS),
    }
    with err.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-c", SERVE, "serve", "--no-projector", "--no-gateway"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )
    try:
        await wait_for(lambda: logged(err, "command_service_started"), "the service started")
        async with TabletopClient.from_url(redis_server, partitions=PARTITIONS, timeout=15) as c:
            match_id = await c.create("chicken", 2)
            p = partition_of(match_id, PARTITIONS)
            # A nesting bomb that names its reply stream: answered, and logged at info.
            bomb = b'{"command_id":"bomb","match_id":"%s","reply_to":"%s","command":%s}' % (
                match_id.encode(),
                c.reply_stream.encode(),
                b"[" * 2000 + b"]" * 2000,
            )
            assert (await c.send_bytes(match_id, "bomb", bomb)).code == "malformed_command"
            # A 5 MB name: too large.
            huge = await c.send(match_id, m.JoinMatch(player="n" * 5_000_000), check=False)
            assert huge.code == "too_large"
            # A command id used again for another command.
            first = await c.send(match_id, m.JoinMatch(player="ann"), command_id="twice")
            assert first.status == "accepted"
            reused = await c.send(
                match_id, m.JoinMatch(player="bea"), command_id="twice", check=False
            )
            assert reused.code == "command_id_reused"
            # Garbage nobody can be answered about: a dead letter.
            await redis.xadd(Keys(p).commands, {"c": b"\xff not json"})
            # A reply stream that is not a stream.
            await redis.set("tt:replies:broken", "x")
            await redis.xadd(
                Keys(p).commands,
                {
                    "c": msgspec.json.encode(
                        {
                            "command_id": "unanswerable",
                            "match_id": match_id,
                            "reply_to": "tt:replies:broken",
                            "command": {"type": "match.join", "player": "bea"},
                        }
                    )
                },
            )
            # The command stream deleted under the service.
            await wait_for(lambda: logged(err, "reply_failed"), "the failed reply logged")
            await redis.delete(Keys(p).commands)
            again = await c.send(match_id, m.LeaveMatch(player="ann"), check=False)
            assert again.status == "accepted"
            # A match key of the wrong type: that command fails alone, said at error
            # level with its ids; the good one read in the same batch is answered.
            broken = uuid.uuid4().hex
            q = Keys(partition_of(broken, PARTITIONS))
            await redis.set(q.match(broken), "x")
            fine = uuid.uuid4().hex
            while partition_of(fine, PARTITIONS) != partition_of(broken, PARTITIONS):
                fine = uuid.uuid4().hex
            async with redis.pipeline(transaction=True) as pipe:
                for cid, mid, cmd in (
                    ("doomed", broken, {"type": "match.join", "player": "ann"}),
                    ("fine", fine, {"type": "match.create", "game": "chicken", "seats": 2}),
                ):
                    entry = {"command_id": cid, "match_id": mid, "reply_to": c.reply_stream}
                    pipe.xadd(q.commands, {"c": msgspec.json.encode({**entry, "command": cmd})})
                await pipe.execute()
            await wait_for(lambda: logged(err, "command_failed"), "the failed command logged")
            # The batch's replies go after that line is logged: wait for the good one.
            answered: set[str] = set()
            for _ in range(400):
                replies: Any = await redis.xrange(c.reply_stream)
                answered = {msgspec.json.decode(f[b"r"])["command_id"] for _, f in replies}
                if "fine" in answered:
                    break
                await asyncio.sleep(0.05)
            assert "fine" in answered and "doomed" not in answered
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)

    [bomb_line] = logged(err, "command_refused", command_id="bomb")
    assert bomb_line["level"] == "info" and bomb_line["match_id"] == match_id
    assert bomb_line["code"] == "malformed_command" and bomb_line["reason"]
    [huge_line] = logged(err, "command_refused", code="too_large")
    assert huge_line["match_id"] == match_id and huge_line["command_id"] == huge.command_id
    [reused_line] = logged(err, "command_refused", code="command_id_reused")
    assert (reused_line["match_id"], reused_line["command_id"]) == (match_id, "twice")
    [dead] = logged(err, "command_dead_lettered")
    assert dead["level"] == "warning" and dead["code"] == "malformed_command" and dead["reason"]
    [failed] = logged(err, "reply_failed")
    assert failed["level"] == "warning" and failed["command_id"] == "unanswerable"
    assert failed["match_id"] == match_id and "WRONGTYPE" in failed["error"]
    [regrouped] = logged(err, "command_group_recreated")
    assert regrouped["level"] == "warning" and regrouped["stream"] == Keys(p).commands
    [failed_alone] = logged(err, "command_failed")
    assert failed_alone["level"] == "error" and "WRONGTYPE" in failed_alone["error"]
    assert (failed_alone["match_id"], failed_alone["command_id"]) == (broken, "doomed")
    # The handler itself never failed: FastStream logged no error of its own.
    assert [e for e in logged(err, "faststream") if e.get("level") in ("error", "critical")] == []
    # Every line is JSON: nothing reached stderr as a bare traceback.
    text = [x for x in err.read_bytes().splitlines() if x.strip()]
    assert [x for x in text if not x.startswith(b"{")] == []


def test_a_gateway_port_in_use_is_one_error_and_the_services_stop_in_order(
    redis: Redis, redis_server: str, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "TABLETOP_REDIS_URL": redis_server,
        "TABLETOP_PARTITIONS": str(PARTITIONS),
    }
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-c", SERVE, "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    text = done.stderr.decode()
    assert done.returncode == 1, text
    assert text.splitlines()[-1].startswith(f"Error: the gateway cannot listen on 127.0.0.1:{port}")
    # The command service and the projector that had started were stopped, in the loop,
    # before the process ended: no read loop torn down after it, no traceback anywhere.
    events = [msgspec.json.decode(x) for x in done.stderr.splitlines() if x.startswith(b"{")]
    stopped = {e.get("service") for e in events if e.get("event") == "service_stopped"}
    # The archiver starts after the gateway; the rematch process runs beside the commands.
    assert stopped == {"commands", "rematch", "projector"}
    bad = [e for e in events if "exception" in e or e.get("level") in ("error", "critical")]
    assert [e.get("logger") for e in bad] == ["uvicorn.error"], bad  # its word on the bind
    assert "Traceback" not in text and "never awaited" not in text
