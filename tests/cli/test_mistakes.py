"""Ordinary mistakes get one clear line and exit 2 (usage) or 1 (failure); inputs that
would give a wrong answer are refused the same way instead."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from services.cli import main as cli_main
from services.cli.main import main
from tests.cli.conftest import one_line, played

# (arguments, environment, exit code, a piece of the line); M is a 4-seat match.
MISTAKES = [
    (["demo", "--options", "notjson"], {}, 2, "'--options': not JSON"),
    (["demo", "--options", '{"nosuch": 1}'], {}, 2, "no option nosuch"),
    (["demo", "--options", "[1]"], {}, 2, "give a JSON object"),
    (["show", "M", "--as", "abc"], {}, 2, "'abc' is not a seat"),
    (["replay", "M", "--as", "7"], {}, 2, "this match has 4 seats"),
    (["import", "EMPTY"], {}, 1, "is empty"),
    (["import", "GARBAGE"], {}, 1, "garbage.jsonl"),
    (["import", "/no/such/file.jsonl"], {}, 2, "No such file"),
    (["lobby"], {"TABLETOP_REDIS_URL": "redis://127.0.0.1:1"}, 1, "cannot reach Redis"),
    (["lobby"], {"TABLETOP_REDIS_URL": "nonsense"}, 2, "TABLETOP_REDIS_URL='nonsense'"),
    (["lobby"], {"TABLETOP_LOG": "bogus"}, 2, "TABLETOP_LOG='bogus'"),
    (["lobby"], {"TABLETOP_PARTITIONS": "abc"}, 2, "TABLETOP_PARTITIONS='abc'"),
    (["lobby"], {"TABLETOP_PARTITIONS": "0"}, 2, "at least 1"),
    (["serve"], {"TABLETOP_WEBHOOK_URL": "https://p.example/h"}, 2, "TABLETOP_WEBHOOK_SECRET"),
    (["serve"], {"TABLETOP_WEBHOOK_URL": "p.example/h"}, 2, "TABLETOP_WEBHOOK_URL='p.example/h'"),
    (["serve"], {"TABLETOP_RATE": "abc"}, 2, "TABLETOP_RATE='abc' is not a number"),
    (["serve"], {"TABLETOP_RATE": "-5"}, 2, "TABLETOP_RATE='-5': it must be at least 0"),
    (["serve"], {"TABLETOP_BURST": "1.5"}, 2, "TABLETOP_BURST='1.5' is not a whole number"),
    (["serve"], {"TABLETOP_QUICKPLAY_WAIT": "nan"}, 2, "give a finite number"),
    (["serve"], {"TABLETOP_GATEWAY_SECRET": "short"}, 2, "5 characters: it must be at least 32"),
    (["demo", "--web"], {"TABLETOP_SOCKETS_PER_PLAYER": "x"}, 2, "TABLETOP_SOCKETS_PER_PLAYER"),
]

WRONG_ANSWERS = [
    (["replay", "M", "--to", "-1"], 2, "versions 1 to"),
    (["replay", "M", "--to", "9999"], 2, "versions 1 to"),
    (["replay", "M", "--to", "0"], 2, "versions 1 to"),
    (["show", "M", "--as", "5"], 2, "seat 5: this match has 4 seats"),
    (["show", "M", "--as", "0"], 2, "seats are numbered from 1"),
    (["history", "M", "--as", "9"], 2, "seat 9: this match has 4 seats"),
    (["leaderboard", "countdown", "--top", "-1"], 2, "'--top'"),
    (["leaderboard", "countdown", "--top", "0"], 2, "'--top'"),
    (["demo", "--players", "0"], 2, "'--players'"),
    (["demo", "--players", "9"], 2, "2 to 8 players"),
    (["lobby", "nosuchgame"], 2, "no game 'nosuchgame'"),
    (["leaderboard", "nosuch"], 2, "no game 'nosuch'"),
    (["serve", "--projector-partitions", "0-99"], 2, "partitions run from 0 to 3"),
    (["serve", "--command-partitions", "x"], 2, "write partitions as 0-7"),
    (["lobby", "--page", "0"], 2, "'--page'"),
    (["show", "nosuchmatch"], 1, "no match nosuchmatch"),
    (["fork", "M", "--at", "9999"], 2, "versions 1 to"),
    (["serve", "--port", "99999"], 2, "'--port'"),
    (["demo", "--web", "--port", "-1"], 2, "'--port'"),
    (["bench", "--only", "nonsense"], 2, "no section 'nonsense'; the sections are e2e,"),
    (["bench", "--only", ","], 2, "name a section"),
    (["bench", "--workers", "two"], 2, "not a list of process counts"),
    (["bench", "--matches", "0"], 2, "'--matches'"),
]


def _args(args: list[str], match_id: str, tmp_path: Path) -> list[str]:
    (tmp_path / "empty.jsonl").write_bytes(b"")
    (tmp_path / "garbage.jsonl").write_bytes(b"this is not an export\n")
    files = {"EMPTY": "empty.jsonl", "GARBAGE": "garbage.jsonl"}
    return [match_id if a == "M" else str(tmp_path / files[a]) if a in files else a for a in args]


@pytest.mark.parametrize(("args", "env", "code", "says"), MISTAKES)
def test_an_ordinary_mistake_gets_one_line_and_its_exit_code(
    cli: CliRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    env: dict[str, str],
    code: int,
    says: str,
) -> None:
    match_id = played(cli, "--game", "countdown", "--players", "4", "--seed", "1")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = cli.invoke(main, _args(args, match_id, tmp_path))
    line = one_line(result)
    assert result.exit_code == code, line
    assert says in line
    assert line.startswith("Error: ")


@pytest.mark.parametrize(("args", "code", "says"), WRONG_ANSWERS)
def test_an_input_that_would_give_a_wrong_answer_is_refused(
    cli: CliRunner, tmp_path: Path, args: list[str], code: int, says: str
) -> None:
    match_id = played(cli, "--game", "countdown", "--players", "4", "--seed", "1")
    result = cli.invoke(main, _args(args, match_id, tmp_path))
    line = one_line(result)
    assert result.exit_code == code, line
    assert says in line


def test_bench_without_its_extra_says_so_before_running(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_main, "BENCH_NEEDS", ("tabletop_no_such_package",))
    result = cli.invoke(main, ["bench", "--quick", "--no-doc"])
    line = one_line(result)
    assert result.exit_code == 1
    assert "pip install -e '.[bench]'" in line


def test_another_partition_count_than_the_data_was_made_with_is_refused(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = played(cli, "--game", "countdown", "--seed", "2")
    monkeypatch.setenv("TABLETOP_PARTITIONS", "8")
    result = cli.invoke(main, ["show", match_id])
    line = one_line(result)
    assert result.exit_code == 2
    assert "made with 4 partitions" in line and "TABLETOP_PARTITIONS=4" in line
    # The data is untouched: with its own count the match is there.
    monkeypatch.setenv("TABLETOP_PARTITIONS", "4")
    assert cli.invoke(main, ["show", match_id, "--json"]).exit_code == 0


def test_a_seat_is_read_from_1_in_flags_and_from_0_in_json(cli: CliRunner) -> None:
    import json

    match_id = played(cli, "--game", "countdown", "--players", "2", "--seed", "4")
    # Seat 1 (the first) sees the secret that countdown shows its seat 0 only.
    first = json.loads(cli.invoke(main, ["show", match_id, "--as", "1", "--json"]).output)
    second = json.loads(cli.invoke(main, ["show", match_id, "--as", "2", "--json"]).output)
    assert first["view"]["table"]["secret"] is not None
    assert second["view"]["table"]["secret"] is None


@pytest.mark.parametrize(
    ("args", "written"),
    [([], True), (["--only", "rules"], False), (["--quick"], False), (["--no-doc"], False)],
)
def test_only_a_full_bench_run_replaces_the_benchmarks_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], written: bool
) -> None:
    """docs/benchmarks.md is the latest full run: `--only gateway` once overwrote it with
    one section and zeros everywhere else."""
    import bench.command as bench_cli

    monkeypatch.setattr(bench_cli, "_repo_docs", lambda: tmp_path)
    monkeypatch.setattr(bench_cli, "run_all", lambda cfg: {"sections": list(cfg.sections)})
    monkeypatch.setattr(bench_cli, "render_markdown", lambda result: f"{result}\n")
    monkeypatch.setattr(bench_cli, "print_table", lambda result: None)
    result = CliRunner().invoke(main, ["bench", *args])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "benchmarks.md").exists() == written
