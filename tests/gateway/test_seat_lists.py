"""A view's lists of one entry per seat (annotated `BySeat`) are named to the web table,
which draws each entry in its seat's panel: a list so annotated must hold exactly one
entry per seat at every table size, or a hand would sit under the wrong player's name."""

from __future__ import annotations

import msgspec
import pytest

from domain import match as m
from domain.kernel import games, get_game
from services.gateway.tables import seat_lists, view_for

_enc = msgspec.json.Encoder()


def started(game: str, seats: int) -> m.MatchState:
    state: m.MatchState | None = None
    commands: list[object] = [m.CreateMatch(game=game, seats=seats, options={})]
    commands += [m.JoinMatch(player=f"p{i}") for i in range(seats)]
    commands.append(m.StartMatch(player="p0", seed=11))
    for command in commands:
        for event in m.decide(state, command):
            state = m.evolve(state, event)
    assert state is not None
    return state


@pytest.mark.parametrize("game", sorted(games()))
def test_every_list_a_game_calls_by_seat_has_one_entry_per_seat(game: str) -> None:
    rules = get_game(game)
    for seats in range(rules.min_players, min(rules.max_players, rules.min_players + 2) + 1):
        state = started(game, seats)
        names = [f"P{i}" for i in range(seats)]
        view = msgspec.json.decode(_enc.encode(view_for(state, 0, names)))
        assert view["seat_lists"] == seat_lists(game)
        for key in view["seat_lists"]:
            assert len(view["table"][key]) == seats, (game, seats, key)


def test_a_kokeshi_view_names_its_workshops_and_a_gallery_its_hands_and_walls() -> None:
    assert seat_lists("kokeshi") == ["workshops"]
    assert seat_lists("gallerygambit") == ["hands", "walls"]
    assert seat_lists("chicken") == []
