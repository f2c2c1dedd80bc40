"""The house rules that a green run must keep: ruff clean and formatted everywhere,
`mypy --strict` on the pure layers (domain/ and events/), the services on them, the
bench, the scripts and the tests."""

from __future__ import annotations

import ast
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


def test_the_bench_the_scripts_and_the_tests_are_strictly_typed_too() -> None:
    # A test typed loosely checks less than it seems to: a view read as Any passes a
    # misspelt field until the day it runs.
    typed = run("mypy", "--strict", "--no-incremental", "bench", "scripts", "tests")
    assert typed.returncode == 0, typed.stdout[-3000:]


def test_redis_key_names_are_spelled_in_events_keys_only() -> None:
    # The AsyncAPI document spells the channels' address patterns for its readers.
    allowed = {"events/keys.py", "services/contracts/asyncapi.py"}
    spelled = []
    for folder in ("domain", "events", "services", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name in allowed:
                continue
            tree = ast.parse(path.read_text())
            docstrings = {
                id(node.body[0].value)
                for node in ast.walk(tree)
                if isinstance(
                    node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
                )
                and node.body
                and isinstance(node.body[0], ast.Expr)
                and isinstance(node.body[0].value, ast.Constant)
            }
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and "tt:" in node.value
                    and id(node) not in docstrings
                ):
                    spelled.append(f"{name}:{node.lineno}: {node.value!r}")
    assert not spelled, "\n".join(spelled)
