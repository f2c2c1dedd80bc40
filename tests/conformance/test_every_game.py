"""The conformance kit over every registered game, many seeds each."""

import os

import pytest

from domain.kernel import games
from tests.conformance.kit import run_clocked_conformance, run_conformance

SEEDS = int(os.environ.get("TABLETOP_CONFORMANCE_SEEDS", "200"))
CHUNK = 25


@pytest.mark.parametrize("name", sorted(games()))
@pytest.mark.parametrize("first", range(0, SEEDS, CHUNK))
def test_random_legal_play_is_sound(name: str, first: int) -> None:
    # Leaks are checked on every move of the first chunk, then every fifth move.
    run_conformance(
        games()[name],
        range(first, min(first + CHUNK, SEEDS)),
        leak_every=1 if first == 0 else 5,
    )


CLOCKED_SEEDS = max(4, SEEDS // 25)


@pytest.mark.parametrize("name", sorted(games()))
def test_clocked_play_with_expiries_and_absent_seats_is_sound(name: str) -> None:
    # Bots moving for seats out of time, seats lost on time and each game's absent rule.
    run_clocked_conformance(games()[name], range(CLOCKED_SEEDS))
