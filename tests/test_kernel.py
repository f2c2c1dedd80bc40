"""The kernel's shared pieces: the game declaration, the recorder, seat order, decks."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from domain import match as m
from domain.kernel import (
    GameSpec,
    Recorder,
    Rejected,
    games,
    options_schema,
    readme_assumptions,
    readme_designed,
)
from domain.table import clockwise, next_seat, top_cards, under_the_tops
from services.cli.main import option_schemas


def test_a_recorder_folds_each_event_as_it_is_recorded() -> None:
    turn = Recorder[int, int](10, lambda total, step: total + step)
    turn.record(1, 2)
    turn.record(3)
    assert turn.events == [1, 2, 3]
    assert turn.state == 16


def test_clockwise_goes_once_round_the_table_ending_with_the_seat_itself() -> None:
    assert list(clockwise(2, 4)) == [3, 0, 1, 2]
    assert list(clockwise(2, 4, inclusive=True)) == [2, 3, 0, 1]


def test_the_next_seat_skips_those_who_are_out_and_falls_back_to_the_seat() -> None:
    out = {3, 0}
    assert next_seat(2, 4, lambda s: s not in out) == 1
    assert next_seat(2, 4, lambda s: False) == 2
    assert next_seat(2, 4, lambda s: s == 2, inclusive=True) == 2


def test_the_top_of_a_deck_is_its_last_card() -> None:
    assert top_cards(["a", "b", "c", "d"], 2) == ("d", "c")
    assert top_cards(["a"], 0) == ()
    assert under_the_tops([["a", "b"], [], ["c"], ["d", "e", "f"]]) == ["a", "d", "e"]


@pytest.mark.parametrize("name", sorted(n for n in games() if n != "countdown"))
def test_every_game_declares_the_assumptions_its_readme_lists(name: str) -> None:
    game = games()[name]
    package = importlib.import_module(f"domain.games.{name}")
    assert isinstance(package.GAME, GameSpec), "a game declares a GameSpec"
    assert package.GAME is game
    listed = readme_assumptions(package.__file__ or "")
    assert game.assumptions == listed
    assert bool(listed) == (game.rules_status != "complete"), (
        "a game resting on assumptions lists them; a complete one lists none"
    )


@pytest.mark.parametrize("name", sorted(n for n in games() if n != "countdown"))
def test_a_house_completed_game_declares_what_its_readme_says_was_designed(name: str) -> None:
    game = games()[name]
    package = importlib.import_module(f"domain.games.{name}")
    listed = readme_designed(package.__file__ or "")
    assert game.designed == listed
    assert bool(listed) == (game.rules_status == "house-completed"), (
        "a house-completed game lists what was designed; any other lists nothing"
    )


@pytest.mark.parametrize("name", sorted(n for n in games() if n != "countdown"))
def test_every_option_games_json_lists_is_named_in_the_games_readme(name: str) -> None:
    # Issue 14: `tabletop games --json` and each README stay in step with what changed;
    # an option added to the rules (weevil groups, number dice) is one a reader can find.
    package = importlib.import_module(f"domain.games.{name}")
    readme = Path(package.__file__ or "").with_name("README.md").read_text(encoding="utf-8")
    for option in options_schema(games()[name]):
        assert re.search(rf"`{re.escape(option['name'])}[`=]", readme), (
            f"the {name} README never names its option `{option['name']}`"
        )


def _integer_options() -> list[tuple[str, str, dict[str, Any]]]:
    """(game, option, the integer part of its schema) for every integer option."""
    out = []
    for name, game in games().items():
        if name == "countdown":
            continue  # the tests' own game
        for option in option_schemas(game):
            for part in [option["schema"], *option["schema"].get("anyOf", [])]:
                if part.get("type") == "integer":
                    out.append((name, option["name"], part))
    return out


@pytest.mark.parametrize(("name", "option", "schema"), _integer_options())
def test_an_integer_options_stated_values_are_the_ones_the_game_takes(
    name: str, option: str, schema: dict[str, Any]
) -> None:
    # Issue 13: `games --json` gives each option's allowed values and range.
    game = games()[name]
    if "enum" in schema:
        taken, refused = list(schema["enum"]), [min(schema["enum"]) - 1, max(schema["enum"]) + 1]
    else:
        assert "minimum" in schema and "maximum" in schema, f"{name}.{option} has no range"
        taken = [schema["minimum"], schema["maximum"]]
        refused = [schema["minimum"] - 1, schema["maximum"] + 1]

    def opens(value: int) -> bool:
        for seats in range(game.min_players, game.max_players + 1):
            try:
                m.decide(None, m.CreateMatch(game=name, seats=seats, options={option: value}))
                return True
            except Rejected as refusal:
                assert refusal.code != "unknown_game"
        return False

    assert [v for v in taken if not opens(v)] == [], f"{name}.{option} refuses a stated value"
    assert [v for v in refused if opens(v)] == [], f"{name}.{option} takes an unstated value"


def test_every_game_with_an_integer_option_is_looked_at() -> None:
    assert len({name for name, _, _ in _integer_options()}) >= 9
