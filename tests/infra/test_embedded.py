"""The embedded server: ready once loaded, one per data folder, never an orphan."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import redis as sync_redis

from services.infra import embedded
from services.infra.embedded import (
    EmbeddedRedis,
    open_data_folder,
    redis_server_binary,
    running,
)

pytestmark = pytest.mark.redis

CLI = [sys.executable, "-c", "from services.cli.main import main; main()"]


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETOP_")}
    return {**env, "TABLETOP_HOME": str(home), "COLUMNS": "80"}


def _gone(pid: int, within: float = 30.0) -> bool:
    """Whether `pid` has ended, waiting for the kernel's signal to get there."""
    deadline = time.monotonic() + within
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not running(pid)


def test_a_data_folder_of_thousands_of_events_answers_every_command_reopened(
    tmp_path: Path,
) -> None:
    # One 3-13 demo leaves ~3,800 events and a ~19 MB log of commands: on the server that
    # counted as ready when its socket accepted, every read after it failed with
    # BusyLoadingError. (A log past 16 MB is now compacted as the server stops.)
    home = tmp_path / "home"
    demo = subprocess.run(
        [*CLI, "demo", "--game", "threethirteen", "--seed", "1", "--quiet"],
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert demo.returncode == 0, demo.stderr
    match_id = demo.stdout.strip().splitlines()[-1].split()[3].rstrip(":")
    assert (home / "appendonly.aof").stat().st_size > 1_000_000
    # Every read command, each starting the server on the folder again (issue 13).
    reads = (
        (["lobby", "--json"], match_id),
        (["lobby", "threethirteen", "--json"], match_id),
        (["show", match_id, "--json"], match_id),
        (["history", match_id, "--as", "2", "--json"], '"match.finished"'),
        (["replay", match_id, "--to", "100", "--json"], '"version": 100'),
        (["export", match_id], match_id),
    )
    for args, says in reads:
        done = subprocess.run(
            [*CLI, *args], env=_env(home), capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, (args, done.stderr)
        assert says in done.stdout, args
    board = subprocess.run(
        [*CLI, "leaderboard", "threethirteen", "--json"],
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert board.returncode == 0, board.stderr
    assert {row["player"] for row in json.loads(board.stdout)} == {"Ann", "Bea", "Cid"}
    audited = subprocess.run(
        [*CLI, "audit", match_id], env=_env(home), capture_output=True, text=True, timeout=300
    )
    assert audited.stdout.startswith(f"audit ok: match {match_id}")


def _slow_to_load(data: Path, keys: int = 20_000) -> None:
    """A data folder whose AOF starts with a snapshot of `keys` incompressible values,
    so that `--key-load-delay` (µs per key) makes loading as slow as a test needs."""
    server = EmbeddedRedis(data).start()
    client = sync_redis.Redis(unix_socket_path=str(server.socket))
    pipe = client.pipeline(transaction=False)
    for i in range(keys):
        pipe.set(f"k{i}", os.urandom(1000))
    pipe.execute()
    client.bgrewriteaof()
    while client.info("persistence")["aof_rewrite_in_progress"]:
        time.sleep(0.05)
    client.close()
    server.stop()


def test_the_server_is_ready_once_loaded_and_says_so_when_loading_takes_long(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    _slow_to_load(data)
    capfd.readouterr()
    # 20,000 keys at 100 µs each: at least two seconds of loading.
    server = EmbeddedRedis(data, extra=["--key-load-delay", "100"]).start()
    try:
        client = sync_redis.Redis(unix_socket_path=str(server.socket))
        assert client.dbsize() == 20_000
        assert client.info("persistence")["loading"] == 0
        client.close()
    finally:
        server.stop()
    assert f"loading the data folder {data}…" in capfd.readouterr().err


def test_killing_the_process_that_started_the_server_leaves_no_server_behind(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    owner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path;"
            "from services.infra.embedded import EmbeddedRedis;"
            "s = EmbeddedRedis(Path(sys.argv[1])).start();"
            "print('server', s.process.pid, flush=True); time.sleep(600)",
            str(data),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert owner.stdout is not None
    line = ""
    while not line.startswith("server "):
        line = owner.stdout.readline()
        assert line, "the owner ended before it started a server"
    server_pid = int(line.split()[1])
    assert running(server_pid)
    owner.send_signal(signal.SIGKILL)
    owner.wait()
    assert _gone(server_pid)
    # The next command finds the folder free and starts its own.
    again = EmbeddedRedis(data).start()
    try:
        assert sync_redis.Redis(unix_socket_path=str(again.socket)).ping()
    finally:
        again.stop()


def test_a_server_left_on_the_data_folder_is_stopped_before_a_new_one_starts(
    tmp_path: Path,
) -> None:
    # An orphan, as one started without a parent-death signal would be left.
    data = tmp_path / "data"
    data.mkdir()
    stale_sock = tmp_path / "stale.sock"
    orphan = subprocess.Popen(
        [redis_server_binary(), "--port", "0", "--unixsocket", str(stale_sock)]
        + ["--dir", str(data.resolve()), "--appendonly", "yes", "--logfile", ""],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while not stale_sock.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    (data / "server.json").write_text(
        json.dumps({"owner": 999_999, "server": orphan.pid, "socket": str(stale_sock)})
    )
    try:
        server = EmbeddedRedis(data).start()
        try:
            assert orphan.wait(timeout=30) == 0  # stopped cleanly (SIGTERM), by the new owner
            assert embedded._servers_on(data) == [server.process.pid]  # type: ignore[union-attr]
        finally:
            server.stop()
    finally:
        if orphan.poll() is None:  # the test failed: leave no server of its own behind
            orphan.kill()
            orphan.wait()


def test_a_second_command_uses_the_running_server_and_the_owner_waits_for_it(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    owner = open_data_folder(data)
    user = open_data_folder(data)
    assert isinstance(owner, EmbeddedRedis) and not isinstance(user, EmbeddedRedis)
    assert user.url == owner.url
    assert len(embedded._servers_on(data)) == 1
    assert owner.process is not None
    pid = owner.process.pid

    stopping = threading.Thread(target=owner.stop)
    stopping.start()
    # The owner has said it is stopping, and waits for its user: the server still answers.
    while json.loads((data / "server.json").read_text())["state"] != "stopping":
        time.sleep(0.02)
    client = sync_redis.Redis.from_url(user.url)
    assert client.ping()
    client.close()
    user.stop()
    stopping.join(timeout=60)
    assert not stopping.is_alive()
    assert _gone(pid)


def test_a_data_folder_held_by_a_process_whose_server_does_not_answer_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fcntl

    from click.testing import CliRunner

    from services.cli.main import main

    data = tmp_path / "data"
    data.mkdir()
    (data / "server.json").write_text(
        json.dumps({"owner": os.getpid(), "server": 1, "socket": "/nonexistent/redis.sock"})
    )
    with open(data / "server.lock", "ab") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        monkeypatch.setattr(embedded, "ATTACH_TIMEOUT", 0.3)
        monkeypatch.delenv("TABLETOP_REDIS_URL", raising=False)
        result = CliRunner().invoke(main, ["--home", str(data), "lobby"])
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"Error: the data folder {data} is in use by process {os.getpid()}, whose Redis "
        "does not answer; stop that process or use another --home"
    )


def test_two_commands_at_once_share_one_server(tmp_path: Path) -> None:
    home = tmp_path / "home"
    serve = subprocess.Popen(
        [*CLI, "serve", "--port", "0"],
        env=_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert serve.stdout is not None
        assert "serving" in serve.stdout.readline()
        demo = subprocess.run(
            [*CLI, "demo", "--game", "chicken", "--players", "2", "--quiet"],
            env=_env(home),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert demo.returncode == 0, demo.stderr
        assert demo.stdout.strip().splitlines()[-1].startswith("audit ok")
        assert len(embedded._servers_on(home)) == 1
    finally:
        serve.send_signal(signal.SIGINT)
        _, err = serve.communicate(timeout=60)
    assert serve.returncode == 0, err
    assert embedded._servers_on(home) == []
    # serve logs at info: the start and the stop of each service, and of its server.
    logged = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    said = [(e["event"], e.get("service")) for e in logged if e["level"] == "info"]
    for service in ("commands", "projector"):
        assert ("service_started", service) in said and ("service_stopped", service) in said
    assert ("embedded_redis_started", None) in said and ("embedded_redis_stopped", None) in said


def test_the_embedded_server_promises_what_the_docs_say(tmp_path: Path) -> None:
    root = Path(__file__).parents[2]
    server = EmbeddedRedis(tmp_path / "data").start()
    try:
        client = sync_redis.Redis(unix_socket_path=str(server.socket))
        running_with = client.config_get("appendfsync")["appendfsync"]
        assert client.config_get("appendonly")["appendonly"] == "yes"
        client.close()
    finally:
        server.stop()
    assert running_with == embedded.APPENDFSYNC == "everysec"
    for doc in ("README.md", "docs/event-store.md", "docs/architecture.md"):
        assert f"appendfsync {running_with}" in (root / doc).read_text(), doc


def test_serve_on_a_taken_port_stops_everything_and_says_so_in_one_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*CLI, "serve", "--port", str(port)],
            env=_env(tmp_path / "home"),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    lines = [x for x in done.stderr.splitlines() if x.strip()]
    assert done.returncode == 1
    assert lines[-1] == f"Error: the gateway cannot listen on 127.0.0.1:{port} (in use? try --port)"
    # Every other line is a JSON log record; the embedded server was shut down in order.
    assert all(x.startswith("{") for x in lines[:-1]), lines
    records = [json.loads(x) for x in lines[:-1]]
    assert "embedded_redis_stopped" in [r["event"] for r in records]
    # The only error is uvicorn's own word on the bind; no task is left dying at exit.
    errors = [r for r in records if r["level"] in ("error", "critical")]
    assert [r["logger"] for r in errors] == ["uvicorn.error"], errors


def test_a_log_grown_past_its_last_rewrite_is_compacted_when_the_owner_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each command starts and stops its own server, so Redis's automatic rewrite never
    # gets its chance: the owner rewrites a log that has doubled before it stops.
    monkeypatch.setattr(embedded, "COMPACT_FROM", 256 * 1024)
    data = tmp_path / "data"

    def aof_bytes() -> int:
        return (data / "appendonly.aof").stat().st_size

    # Every write reaches the file before its reply, so the size read below is the whole
    # log: with `everysec` a slow disk lets Redis hold writes back for up to two seconds.
    server = EmbeddedRedis(data, appendfsync="always").start()
    client = sync_redis.Redis(unix_socket_path=str(server.socket))
    for round_ in range(40):  # one small key written over and over: a long log, little data
        client.set("score", "x" * 10_000 + str(round_))
    client.close()
    grown = aof_bytes()
    server.stop()
    assert aof_bytes() < grown / 4

    again = EmbeddedRedis(data).start()
    try:
        client = sync_redis.Redis(unix_socket_path=str(again.socket))
        assert client.get("score") == b"x" * 10_000 + b"39"
        client.close()
    finally:
        again.stop()


def test_a_small_log_is_left_as_it_is(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = EmbeddedRedis(data).start()
    client = sync_redis.Redis(unix_socket_path=str(server.socket))
    client.set("k", "v")
    client.close()
    before = (data / "appendonly.aof").read_bytes()
    server.stop()
    # Not rewritten: still the commands as sent, with no snapshot preamble.
    assert (data / "appendonly.aof").read_bytes() == before
    assert not before.startswith(b"REDIS")
