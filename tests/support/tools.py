"""What the test run needs beyond Python packages, set up from the project's own files
before the first test, so `pytest` alone passes on a fresh machine: the official AsyncAPI
parser (pinned by tools/asyncapi/package-lock.json) and Debian's Chromium for the
browser tests (Playwright's own browser download is not reachable here)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = ROOT / "tools" / "asyncapi"
CHROMIUM = Path(os.environ.get("TABLETOP_CHROMIUM", "/usr/bin/chromium"))


def _say(line: str) -> None:
    print(f"[test setup] {line}", file=sys.stderr, flush=True)


def install_validator() -> None:
    if (VALIDATOR / "node_modules" / "@asyncapi" / "parser").is_dir() or not shutil.which("npm"):
        return
    _say("installing the AsyncAPI validator (npm ci, pinned)")
    subprocess.run(
        ["npm", "ci", "--prefix", str(VALIDATOR), "--ignore-scripts", "--no-audit", "--no-fund"],
        check=False,
        stdout=subprocess.DEVNULL,
        timeout=600,
    )


def install_chromium() -> None:
    if CHROMIUM.exists() or not shutil.which("apt-get") or os.geteuid() != 0:
        return
    _say("installing Debian's chromium for the browser tests (apt-get)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=False, env=env, timeout=900)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "chromium"],
        check=False,
        env=env,
        stdout=subprocess.DEVNULL,
        timeout=1800,
    )


def set_up() -> None:
    """Missing tools are installed; a tool that cannot be is reported by its own tests."""
    install_validator()
    install_chromium()
