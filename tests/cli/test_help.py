"""-h, --version, shell completion, and pages numbered as the lobby says."""

from __future__ import annotations

import json
from importlib.metadata import version

from click.testing import CliRunner

from services.cli.main import main
from tests.cli.conftest import played


def test_dash_h_helps_like_dash_dash_help_for_the_group_and_a_command() -> None:
    runner = CliRunner()
    for args in ([], ["lobby"], ["projections", "rebuild"]):
        short = runner.invoke(main, [*args, "-h"])
        assert short.exit_code == 0 and short.output.startswith("Usage: ")
        assert short.output == runner.invoke(main, [*args, "--help"]).output


def test_version_names_the_installed_distribution() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"tabletop, version {version('tabletop')}"


def test_shell_completion_offers_the_commands() -> None:
    result = CliRunner().invoke(
        main,
        [],
        prog_name="tabletop",
        env={"_TABLETOP_COMPLETE": "bash_complete", "COMP_WORDS": "tabletop lo", "COMP_CWORD": "1"},
    )
    assert result.exit_code == 0
    assert "plain,lobby" in result.output.split()


def test_the_lobby_s_first_page_is_page_1(cli: CliRunner) -> None:
    older = played(cli, "--game", "countdown", "--seed", "1")
    newer = played(cli, "--game", "countdown", "--seed", "2")

    def page(n: str) -> list[str]:
        out = cli.invoke(
            main, ["lobby", "--status", "finished", "--size", "1", "--page", n, "--json"]
        )
        return [row["match_id"] for row in json.loads(out.output)["finished"]]

    assert page("1") == [newer]
    assert page("2") == [older]
    assert page("3") == []
