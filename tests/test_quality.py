"""The house rules that a green run must keep: ruff clean and formatted everywhere,
`mypy --strict` on the pure layers (domain/ and events/) and the services on them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_ruff_finds_nothing_and_nothing_needs_formatting() -> None:
    check = run("ruff", "check", ".")
    assert check.returncode == 0, check.stdout[-3000:]
    fmt = run("ruff", "format", "--check", ".")
    assert fmt.returncode == 0, fmt.stdout[-3000:]


def test_the_domain_the_log_and_the_services_are_strictly_typed() -> None:
    typed = run("mypy", "--strict", "--no-incremental", "domain", "events", "services")
    assert typed.returncode == 0, typed.stdout[-3000:]
