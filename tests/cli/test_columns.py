"""What people read fits an 80-column terminal and keeps what they copy whole."""

from __future__ import annotations

import json

from click.testing import CliRunner

from services.cli.main import main
from tests.cli.conftest import played


def test_the_lobby_at_80_columns_shows_whole_match_ids_and_the_winners_names(
    cli: CliRunner,
) -> None:
    ids = [played(cli, "--game", "countdown", "--players", "4", "--seed", str(s)) for s in (1, 2)]
    finished = json.loads(cli.invoke(main, ["lobby", "--json"]).output)["finished"]
    result = cli.invoke(main, ["lobby"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    for match_id in ids:
        assert any(match_id in line for line in lines), result.output
    for row in finished:
        winner = row["players"][row["ranks"].index(1)]
        assert f"won by {winner}" in result.output
    assert "[1, 2" not in result.output and "[2, 1" not in result.output


def test_games_at_80_columns_shows_every_option_and_every_allowed_value_whole(
    cli: CliRunner,
) -> None:
    result = cli.invoke(main, ["games"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    words = {w for line in lines for w in line.replace("│", " ").split()}
    for game in json.loads(cli.invoke(main, ["games", "--json"]).output):
        assert game["name"] in words
        for option in game["options"]:
            assert option["name"] in words, option
            for value in option["schema"].get("enum", []):
                assert str(value) in words, (option, value)


def test_games_json_gives_each_option_a_json_schema_of_its_values(cli: CliRunner) -> None:
    rows = {g["name"]: g for g in json.loads(cli.invoke(main, ["games", "--json"]).output)}
    trek = {o["name"]: o for o in rows["trektwelve"]["options"]}
    assert trek["map"]["schema"]["enum"] == ["dhaulagiri", "dunai", "kagkot"]
    assert trek["map"]["default"] == "dunai"
    jewel = {o["name"]: o for o in rows["jewelbox"]["options"]}
    assert jewel["box_side"]["schema"]["anyOf"] == [
        {"enum": [4, 5], "type": "integer"},
        {"type": "null"},
    ]
    panda = {o["name"]: o for o in rows["pandapanda"]["options"]}
    assert panda["rounds_to_win"]["schema"] == {
        "minimum": 1,
        "maximum": 5,
        "type": "integer",
        "default": 2,
    }
    # No Python type names are left for a client to decode.
    assert "Literal" not in json.dumps(rows) and "int | None" not in json.dumps(rows)
