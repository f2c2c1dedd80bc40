"""The command line against the test session's redis-server, with a played match."""

from __future__ import annotations

import pytest
from click.testing import CliRunner, Result
from redis.asyncio import Redis

from services.cli.main import main


@pytest.fixture
def cli(redis: Redis, redis_server: str, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("TABLETOP_REDIS_URL", redis_server)
    monkeypatch.setenv("TABLETOP_PARTITIONS", "4")
    monkeypatch.delenv("TABLETOP_LOG", raising=False)
    return CliRunner()


def played(cli: CliRunner, *args: str) -> str:
    """Play a demo quietly and return its match id (from its last line)."""
    result = cli.invoke(main, ["demo", "--quiet", *args])
    assert result.exit_code == 0, result.output
    return result.output.strip().splitlines()[-1].split()[3].rstrip(":")


def one_line(result: Result) -> str:
    """The output of a command that failed as it should: one line, no traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    return lines[0]
