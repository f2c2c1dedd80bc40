"""Ratings, told as stories from finished matches: openskill over the ranks, and the
bots, who are new players at every table, rated as the one opponent they are."""

from __future__ import annotations

from domain import match as m
from services.readside.projector import BOTS, RatingsProjection, rate, rating_key
from services.readside.schema import PlayerRating


def fresh() -> PlayerRating:
    new = RatingsProjection.model.rating()
    return PlayerRating(mu=new.mu, sigma=new.sigma)


def finish(table: dict[str, PlayerRating], *players: str, ranks: tuple[int, ...]) -> None:
    """A match of `players` ends in `ranks`; the table holds every rating it reads."""
    for player in players:
        table.setdefault(rating_key(player), fresh())
    done = m.MatchFinished(scores=(0,) * len(players), ranks=ranks, game="chicken", players=players)
    rate(table, done)


def test_the_winner_gains_what_the_loser_drops() -> None:
    table: dict[str, PlayerRating] = {}
    finish(table, "ann", "bea", ranks=(1, 2))
    assert table["ann"].mu > fresh().mu > table["bea"].mu
    assert (table["ann"].played, table["ann"].won) == (1, 1)
    assert (table["bea"].played, table["bea"].won) == (1, 0)


def test_every_bot_plays_under_the_bots_one_rating() -> None:
    """Ann beats a bot, then Bea beats another: the bots have lost once already, so
    Bea's win over a weaker-known opponent pays less than Ann's did."""
    table: dict[str, PlayerRating] = {}
    finish(table, "ann", "bot-1a2b", ranks=(1, 2))
    finish(table, "bea", "bot-3c4d", ranks=(1, 2))
    assert set(table) == {"ann", "bea", BOTS}
    assert table["bea"].mu - fresh().mu < table["ann"].mu - fresh().mu
    assert (table[BOTS].played, table[BOTS].won) == (2, 0)
    assert table[BOTS].mu < fresh().mu


def test_two_bots_at_one_table_are_still_a_rated_match() -> None:
    """Two bots share a rating but not a seat: the match is rated, and the bots' rating
    ends between where each bot's seat ended."""
    table: dict[str, PlayerRating] = {}
    finish(table, "bot-1a2b", "ann", "bot-3c4d", ranks=(1, 2, 3))
    assert table["ann"].played == 1
    assert (table[BOTS].played, table[BOTS].won) == (2, 1)
    assert abs(table[BOTS].mu - fresh().mu) < 1.0  # one first place, one last: about even


def test_one_person_in_two_seats_is_not_rated() -> None:
    table: dict[str, PlayerRating] = {}
    finish(table, "ann", "ann", ranks=(1, 2))
    assert table["ann"] == fresh()
