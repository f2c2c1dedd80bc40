"""The kernel's shared pieces: the game declaration, the recorder, seat order, decks."""

from __future__ import annotations

import importlib

import pytest

from domain.kernel import GameSpec, Recorder, games, readme_assumptions, readme_designed
from domain.table import clockwise, next_seat, top_cards, under_the_tops


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
