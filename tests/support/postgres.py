"""A private PostgreSQL server for a test, from Debian's `postgresql` binaries.

Started with initdb and pg_ctl in a temporary folder, on a free loopback port, never
the machine's own server; as root (CI), as the package's `postgres` user, since
initdb refuses to run as root. `bin_dir()` is None when the package is not installed.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from services.infra.ports import free_port


def bin_dir() -> Path | None:
    """The newest installed PostgreSQL's binaries, or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: p.parent)
    return found[-1].parent if found else None


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """A running server; yields its URL (user `tabletop`, trust auth, loopback only)."""
    binaries = bin_dir()
    assert binaries is not None, "no PostgreSQL binaries in /usr/lib/postgresql"
    folder = Path(tempfile.mkdtemp(prefix="tt-pg-"))
    data = folder / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    pg_ctl = [*as_user, str(binaries / "pg_ctl"), "-D", str(data)]

    def run(args: list[str]) -> None:
        done = subprocess.run(args, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = folder / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{args[len(as_user)]} failed: {done.stderr}{done.stdout}{tail}")

    try:
        run([*as_user, str(binaries / "initdb"), "-D", str(data), "-U", "tabletop",
             "--auth=trust", "-E", "UTF8", "--no-sync"])  # fmt: skip
        options = (
            f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={folder}"
            " -c fsync=off"
        )
        run([*pg_ctl, "-l", str(folder / "server.log"), "-w", "-t", "60", "-o", options, "start"])
        yield f"postgresql://tabletop@127.0.0.1:{port}/postgres"
    finally:
        with contextlib.suppress(Exception):
            subprocess.run([*pg_ctl, "-m", "fast", "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)
