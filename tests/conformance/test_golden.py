"""Recorded matches replay to the very same bytes."""

import pytest

from domain.kernel import games
from tests.conformance.golden import GOLDEN, SEEDS, path_for, read
from tests.conformance.kit import replay_commands

REAL_GAMES = sorted(name for name in games() if name != "countdown")


@pytest.mark.parametrize("name", REAL_GAMES)
def test_every_game_has_golden_transcripts(name: str) -> None:
    for seed in SEEDS:
        assert path_for(name, seed).exists(), f"python -m tests.conformance.golden {name}"


@pytest.mark.parametrize(
    "path", sorted(GOLDEN.glob("*/*.jsonl")), ids=lambda p: p.parent.name + "/" + p.stem
)
def test_a_golden_match_replays_byte_for_byte(path) -> None:  # type: ignore[no-untyped-def]
    transcript = read(path)
    if transcript.game not in games():
        pytest.skip(f"{transcript.game} is not registered in this run (TABLETOP_GAMES)")
    assert replay_commands(transcript) == transcript.events
