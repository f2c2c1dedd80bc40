"""The conformance kit over every registered game, many seeds each."""

import os

import pytest

from domain.kernel import games
from tests.conformance.kit import run_clocked_conformance, run_conformance

# 120 random matches a game keep the whole run within its 15 minutes on two cores; a
# deeper sweep before a release: TABLETOP_CONFORMANCE_SEEDS=1000.
SEEDS = int(os.environ.get("TABLETOP_CONFORMANCE_SEEDS", "120"))
CHUNK = 30


@pytest.mark.parametrize("name", sorted(games()))
@pytest.mark.parametrize("first", range(0, SEEDS, CHUNK))
def test_random_legal_play_is_sound(name: str, first: int) -> None:
    # Leaks are checked on every move of the first chunk, then every fifth move; bad
    # commands are tried every third move of the first chunk, then every sixth.
    run_conformance(
        games()[name],
        range(first, min(first + CHUNK, SEEDS)),
        leak_every=1 if first == 0 else 5,
        fuzz_every=3 if first == 0 else 6,
    )


CLOCKED_SEEDS = max(4, SEEDS // 15)


@pytest.mark.parametrize("name", sorted(games()))
def test_clocked_play_with_expiries_and_absent_seats_is_sound(name: str) -> None:
    # Bots moving for seats out of time, seats lost on time and each game's absent rule.
    run_clocked_conformance(games()[name], range(CLOCKED_SEEDS))
