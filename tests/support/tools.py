"""What the test run needs beyond Python packages, set up from the project's own files
before the first test, so `pytest` alone passes on a fresh machine: the official AsyncAPI
parser (pinned by tools/asyncapi/package-lock.json), axe-core for the pages'
accessibility (tools/a11y/package-lock.json), Debian's Chromium for the
browser tests (Playwright's own browser download is not reachable here) and Debian's
docker-compose, which checks deploy/compose.yaml where no Compose tool is installed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = ROOT / "tools" / "asyncapi"
AXE = ROOT / "tools" / "a11y"
CHROMIUM = Path(os.environ.get("TABLETOP_CHROMIUM", "/usr/bin/chromium"))


def _say(line: str) -> None:
    print(f"[test setup] {line}", file=sys.stderr, flush=True)


def _npm_ci(folder: Path, installed: Path, what: str) -> None:
    if installed.exists() or not shutil.which("npm"):
        return
    _say(f"installing {what} (npm ci, pinned)")
    subprocess.run(
        ["npm", "ci", "--prefix", str(folder), "--ignore-scripts", "--no-audit", "--no-fund"],
        check=False,
        stdout=subprocess.DEVNULL,
        timeout=600,
    )


def install_validator() -> None:
    parser = VALIDATOR / "node_modules" / "@asyncapi" / "parser"
    _npm_ci(VALIDATOR, parser, "the AsyncAPI validator")


def install_axe() -> None:
    _npm_ci(AXE, AXE / "node_modules" / "axe-core" / "axe.min.js", "axe-core")


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


def _apt_get(*args: str) -> int:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    out = subprocess.DEVNULL
    return subprocess.run(
        ["apt-get", *args], check=False, env=env, stdout=out, stderr=out, timeout=900
    ).returncode


def compose_tool() -> list[str] | None:
    """The command that runs Docker Compose here: the plugin, or the older standalone."""
    docker = shutil.which("docker")
    if (
        docker
        and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    ):
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def install_compose() -> None:
    if compose_tool() is not None or not shutil.which("apt-get") or os.geteuid() != 0:
        return
    _say("installing Debian's docker-compose to check deploy/compose.yaml (apt-get)")
    if _apt_get("install", "-y", "-qq", "docker-compose") != 0:
        _apt_get("update", "-qq")  # the package lists may be stale or missing
        _apt_get("install", "-y", "-qq", "docker-compose")


def set_up() -> None:
    """Missing tools are installed; a tool that cannot be is reported by its own tests."""
    install_validator()
    install_axe()
    install_chromium()
    install_compose()
