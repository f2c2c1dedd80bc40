"""Gatsby: the conformance kit, then the page's sentences as short stories."""

from __future__ import annotations

from domain.games.gatsby import GAME
from tests.conformance.kit import run_conformance


def test_conformance() -> None:
    run_conformance(GAME, seeds=range(40))
