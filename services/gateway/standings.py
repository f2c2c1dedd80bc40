"""Ratings, as the ratings projector keeps them (openskill's Plackett-Luce; a player's
rating is its ordinal, mu - 3 sigma, which is what the boards are ordered by): a game's
leaderboard, open to anyone like the lobby, and the caller's own rating in each game
they have finished a match of."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Protocol, cast

import msgspec
from litestar import Request, get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import Parameter

from domain.kernel import games
from services.gateway import contract
from services.gateway.tables import NameBook
from services.gateway.tokens import Player
from services.readside.notices import BOTS
from services.readside.readmodels import ReadModels

TOP = 100  # the most places a leaderboard answer holds


class Standing(msgspec.Struct):
    """One place on a game's leaderboard."""

    rank: int
    """From 1; players rated the same share a place (1, 1, 3)."""
    player_id: str
    name: str
    tag: str
    """Four hex digits from the player id, the same wherever the player is shown: two
    players who chose the same name tell apart on a board (Ann #3fa2, Ann #91c0)."""
    rating: float
    """The ordinal (mu - 3 sigma), to two places: low until a player has played some."""
    played: int
    won: int


class BotsRating(msgspec.Struct):
    """How strong a game's bots play: the one rating they all play under."""

    rating: float
    played: int
    won: int


class MyRating(msgspec.Struct):
    """The caller's standing in one game."""

    game: str
    title: str
    rank: int
    rating: float
    played: int
    won: int


class _Config(Protocol):
    @property
    def leaderboards(self) -> str: ...


class _Gateway(Protocol):
    """What these routes use of services.gateway.app.Gateway."""

    config: _Config
    names: NameBook
    read_models: ReadModels

    def caller(self, authorization: str | None) -> Player: ...


def _gateway(state: State) -> _Gateway:
    return cast(_Gateway, state.gateway)


def _rating(ordinal: float) -> float:
    return round(ordinal, 2)


def tag(player_id: str) -> str:
    """A short mark of the player id (not a secret: the id is on the board too)."""
    return hashlib.sha256(player_id.encode()).hexdigest()[:4]


def _board_of(state: State, request: Request[Any, Any, Any], game: str) -> _Gateway:
    """The gateway, once the caller may read the game's board and the game exists: open
    to anyone unless the operator keeps the boards to signed-in players (401)."""
    gw = _gateway(state)
    if gw.config.leaderboards != "public":
        gw.caller(request.headers.get("authorization"))
    if game not in games():
        raise NotFoundException(f"There is no game called {game}.")
    return gw


@get("/api/games/{game:str}/leaderboard", responses=contract.refusals(400, 401, 404, 429))
async def leaderboard(
    state: State,
    request: Request[Any, Any, Any],
    game: Annotated[str, Parameter(max_length=40, description="The game's name.")],
    top: Annotated[int, Parameter(ge=1, le=TOP)] = 20,
) -> list[Standing]:
    """The game's best players by rating, best first. Open to anyone, like the lobby,
    unless the operator keeps the boards to signed-in players
    (`TABLETOP_LEADERBOARDS=players`: 401 without a token)."""
    gw = _board_of(state, request, game)
    rows = await gw.read_models.leaderboard(game, top)
    names = await gw.names.named([player for player, _ in rows])
    # Best first: a player shares the place of the one before when rated the same.
    ranks: list[int] = []
    for i, (_, r) in enumerate(rows):
        ranks.append(ranks[-1] if i and r.ordinal == rows[i - 1][1].ordinal else i + 1)
    return [
        Standing(rank, player, name, tag(player), _rating(r.ordinal), r.played, r.won)
        for rank, (player, r), name in zip(ranks, rows, names, strict=True)
    ]


@get("/api/games/{game:str}/bots", responses=contract.refusals(400, 401, 404, 429))
async def bots_rating(
    state: State,
    request: Request[Any, Any, Any],
    game: Annotated[str, Parameter(max_length=40, description="The game's name.")],
) -> BotsRating | None:
    """The rating every bot of the game plays under (kept off the board, which ranks
    people), so a player can tell how strong an opponent a bot is; null until a bot has
    finished a match of it. Open to whoever may read the game's leaderboard."""
    found = await _board_of(state, request, game).read_models.player(game, BOTS)
    return None if found is None else BotsRating(_rating(found.ordinal), found.played, found.won)


@get("/api/me/ratings", responses=contract.SIGNED)
async def my_ratings(state: State, me: Player) -> list[MyRating]:
    """The caller's rating and place in each game they have finished a match of."""
    gw = _gateway(state)
    out = []
    known = games()
    for name in await gw.read_models.rated_games():
        spec = known.get(name)
        if spec is None:  # a game no longer offered here
            continue
        rating = await gw.read_models.player(name, me.id)
        rank = await gw.read_models.rank(name, me.id) if rating is not None else None
        if rating is not None and rank is not None:
            out.append(
                MyRating(name, spec.title, rank, _rating(rating.ordinal), rating.played, rating.won)
            )
    return out


ROUTES = [leaderboard, bots_rating, my_ratings]
