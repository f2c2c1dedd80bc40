"""A token verified once is taken on trust by its string, until it expires."""

from __future__ import annotations

import time

import pytest

from services.gateway.tokens import BadToken, Player, Tokens
from tests.gateway.conftest import SECRET


def test_a_token_read_again_is_the_same_player_until_it_expires() -> None:
    tokens = Tokens(SECRET, ttl_seconds=60)
    token = tokens.issue(Player("p-1", "Ann"))
    assert tokens.read(token) == Player("p-1", "Ann")
    assert tokens.read(token) == Player("p-1", "Ann")  # from the verified ones
    with pytest.raises(BadToken, match="expired"):
        tokens.read(token, now=time.time() + 61)


def test_a_token_altered_by_one_character_is_refused_even_after_the_real_one() -> None:
    tokens = Tokens(SECRET)
    token = tokens.issue(Player("p-1", "Ann"))
    tokens.read(token)
    forged = token[:-2] + ("A" if token[-2] != "A" else "B") + token[-1]
    with pytest.raises(BadToken, match="not one this gateway issued"):
        tokens.read(forged)
