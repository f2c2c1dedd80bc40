"""Ratings reach the players: a game's leaderboard, open to anyone like the lobby, and
each player's own rating and place in every game they have finished a match of."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import msgspec
import pytest
from redis.asyncio import Redis

from events.keys import RATINGS
from services.gateway.app import GatewayConfig
from services.gateway.standings import tag
from services.infra.config import ConfigError
from services.readside.schema import PlayerRating
from tests.gateway.conftest import SECRET, gateway, sign_in
from tests.gateway.test_tables import won_at_once
from tests.support.tables import countdown_against_a_bot


async def board(http: httpx.AsyncClient, game: str, **query: Any) -> list[dict[str, Any]]:
    answer = await http.get(f"/api/games/{game}/leaderboard", params=query)
    assert answer.status_code == 200, answer.text
    return list(answer.json())


async def test_the_winner_of_a_match_tops_its_games_leaderboard(http: httpx.AsyncClient) -> None:
    _, winner, loser, seen = await won_at_once(http)
    winner_name = seen["view"]["names"][seen["view"]["you"]]
    for _ in range(400):  # the ratings projector folds the finish: a bound, not a measure
        rows = await board(http, "countdown")
        if len(rows) == 2:
            break
        await asyncio.sleep(0.05)
    assert [(r["rank"], r["name"], r["played"], r["won"]) for r in rows] == [
        (1, winner_name, 1, 1),
        (2, "Bea" if winner_name == "Ann" else "Ann", 1, 0),
    ]
    assert rows[0]["rating"] > rows[1]["rating"]
    assert {r["player_id"] for r in rows} == {"dev-ann", "dev-bea"}
    # Each player sees their own place, in the games they have played.
    for who, rank, won in ((winner, 1, 1), (loser, 2, 0)):
        mine = (await http.get("/api/me/ratings", headers=who)).json()
        assert [(r["game"], r["rank"], r["played"], r["won"]) for r in mine] == [
            ("countdown", rank, 1, won)
        ]
    assert await board(http, "countdown", top=1) == rows[:1]


async def test_a_game_nobody_has_finished_has_an_empty_board_and_no_game_no_board(
    http: httpx.AsyncClient,
) -> None:
    assert await board(http, "chicken") == []
    missing = await http.get("/api/games/no-such-game/leaderboard")
    assert missing.status_code == 404 and "no game called" in missing.json()["detail"]
    for top in (0, 101):
        refused = await http.get("/api/games/chicken/leaderboard", params={"top": top})
        assert refused.status_code == 400
    assert (await http.get("/api/me/ratings")).status_code == 401


async def test_players_rated_the_same_share_a_place(http: httpx.AsyncClient, redis: Redis) -> None:
    rated = {"dev-ann": (30.0, 5.0), "dev-bea": (30.0, 5.0), "dev-cid": (25.0, 8.0)}
    for player, (mu, sigma) in rated.items():
        rating = PlayerRating(mu=mu, sigma=sigma, played=3, won=1)
        await redis.hset(RATINGS.rating("chicken"), player, msgspec.json.encode(rating))
        await redis.zadd(RATINGS.board("chicken"), {player: rating.ordinal})
    await redis.sadd(RATINGS.games, "chicken")  # as the ratings projector writes them
    rows = await board(http, "chicken")
    assert [(r["rank"], r["player_id"]) for r in rows[2:]] == [(3, "dev-cid")]
    assert [r["rank"] for r in rows] == [1, 1, 3]
    bea = await sign_in(http, "Bea")
    mine = (await http.get("/api/me/ratings", headers=bea)).json()
    assert [(r["game"], r["rank"], r["rating"]) for r in mine] == [("chicken", 1, 15.0)]


async def test_the_board_ranks_people_not_the_bots_they_played(http: httpx.AsyncClient) -> None:
    """A bot is a new player at every table: rated as an opponent, never on the board."""
    ann = await sign_in(http, "Ann")
    await countdown_against_a_bot(http, ann, {"start": 3})  # Ann takes what she may
    for _ in range(400):
        rated = (await http.get("/api/me/ratings", headers=ann)).json()
        if rated:
            break
        await asyncio.sleep(0.05)
    assert [(r["game"], r["rank"], r["played"]) for r in rated] == [("countdown", 1, 1)]
    assert [r["player_id"] for r in await board(http, "countdown")] == ["dev-ann"]
    # Off the board, the bots' one rating still tells a player how strong they play.
    bots = (await http.get("/api/games/countdown/bots")).json()
    assert (bots["played"], bots["won"]) == (1, 1 - rated[0]["won"])
    assert (bots["rating"] > rated[0]["rating"]) == (bots["won"] == 1), "the winner rates higher"
    assert (await http.get("/api/games/chicken/bots")).json() is None  # none has played it
    missing = await http.get("/api/games/nosuchgame/bots")
    assert (missing.status_code, missing.json()["detail"]) == (
        404,
        "There is no game called nosuchgame.",
    )


async def test_two_players_of_one_name_are_told_apart_by_their_tags(
    http: httpx.AsyncClient, redis: Redis
) -> None:
    for player_id, mu in (("u-1001", 30.0), ("u-2002", 28.0)):
        body = {"player_id": player_id, "name": "Ann"}
        signed = await http.post("/api/signin", json=body, headers={"x-gateway-secret": SECRET})
        assert signed.status_code == 200, signed.text
        rating = PlayerRating(mu=mu, sigma=5.0, played=2, won=1)
        await redis.hset(RATINGS.rating("chicken"), player_id, msgspec.json.encode(rating))
        await redis.zadd(RATINGS.board("chicken"), {player_id: rating.ordinal})
    await redis.sadd(RATINGS.games, "chicken")
    rows = await board(http, "chicken")
    assert [(r["name"], r["tag"]) for r in rows] == [("Ann", tag("u-1001")), ("Ann", tag("u-2002"))]
    assert rows[0]["tag"] != rows[1]["tag"] and len(rows[0]["tag"]) == 4


async def test_an_operator_may_keep_the_boards_to_signed_in_players(
    redis: Redis, redis_server: str
) -> None:
    # `redis` empties the test Redis of other stories' boards.
    async with gateway(redis_server, leaderboards="players") as (_, http):
        refused = await http.get("/api/games/chicken/leaderboard")
        assert refused.status_code == 401
        assert "token" in refused.json()["detail"].lower()
        ann = await sign_in(http, "Ann")
        shown = await http.get("/api/games/chicken/leaderboard", headers=ann)
        assert shown.status_code == 200 and shown.json() == []
        # The lobby stays open to anyone; only the boards are kept.
        assert (await http.get("/api/matches")).status_code == 200


@pytest.mark.parametrize("value", ["private", "Players", "off"])
def test_a_setting_for_the_boards_other_than_public_or_players_is_refused(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("TABLETOP_LEADERBOARDS", value)
    with pytest.raises(ConfigError, match="TABLETOP_LEADERBOARDS is"):
        GatewayConfig.from_env()
    monkeypatch.setenv("TABLETOP_LEADERBOARDS", "players")
    assert GatewayConfig.from_env().leaderboards == "players"
