"""The gateway's HTTP and WebSocket routes (Litestar).

The gateway decides nothing: every command goes to the command streams through the
client library, as the signed-in player, and every read passes the domain's view and
redaction for the caller's seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal, cast

import msgspec
import structlog
from litestar import Litestar, Request, WebSocket, get, post, websocket
from litestar.datastructures import CacheControlHeader, State
from litestar.di import Provide
from litestar.exceptions import (
    ClientException,
    HTTPException,
    NotAuthorizedException,
    NotFoundException,
    PermissionDeniedException,
)
from litestar.logging.config import LoggingConfig
from litestar.openapi import OpenAPIConfig
from litestar.params import Parameter
from litestar.response import File
from litestar.static_files import create_static_files_router
from litestar.types import ControllerRouterHandler
from redis.asyncio import Redis

from domain import match as m
from domain.addressing import to_reader
from domain.games import names as offered
from domain.kernel import Rejected, games
from events.keys import GATEWAY
from events.matches import load_match
from events.store import EventStore
from services.client.client import CommandRejected, TabletopClient
from services.commands.intake import ID
from services.contracts.messages import Reply
from services.gateway import api, contract, feeds, headers, sockets, tables
from services.gateway.chat import ROUTES as CHAT_ROUTES
from services.gateway.chat import Chat, ChatHub
from services.gateway.limits import Limits, SlowDown, Sockets
from services.gateway.live import LiveHub
from services.gateway.notices import ROUTES as NOTICE_ROUTES
from services.gateway.notices import NoticeHub
from services.gateway.seating import Bots, NoTable, QuickPlay, first_free
from services.gateway.signouts import Signouts
from services.gateway.standings import ROUTES as STANDING_ROUTES
from services.gateway.tokens import (
    MIN_SECRET_CHARS,
    TOKEN_TTL,
    BadName,
    BadToken,
    Player,
    Tokens,
    bearer,
    dev_player_id,
    display_name,
)
from services.infra import metrics
from services.infra.config import ConfigError, env_float, env_int
from services.readside.readmodels import ReadModels
from services.readside.schema import Summary

STATIC = Path(__file__).with_name("static")
MAX_STRING = 100  # the longest string a move may carry (card names, map names)
log = structlog.get_logger("gateway")


class GatewayConfig(msgspec.Struct, kw_only=True):
    secret: str
    dev_signin: bool = False
    quickplay_wait: float = 15.0
    bot_delay: float = 0.4
    bot_rematch_wait: float = 600.0
    """Seconds a bot stays at a finished table to accept a rematch offered there."""
    token_ttl: int = TOKEN_TTL
    rate: float = 20.0
    """Signed requests a second one player may make, sustained (0: no limit; limits.py)."""
    burst: int = 60
    """How many of them a player may save up for a burst."""
    tables_per_minute: float = 10.0
    """Tables one player may open a minute (0: no limit), in bursts of `tables_burst`."""
    tables_burst: int = 10
    sockets_per_player: int = 32
    """WebSockets one player may hold open in a gateway process (0: no limit)."""
    frame_ancestors: str = "'none'"
    """Sites that may show the pages in a frame (CSP sources; a platform embedding them)."""
    cors_origins: tuple[str, ...] = ()
    """Other sites whose pages may call the API (a platform's own client; headers.cors)."""
    leaderboards: Literal["public", "players"] = "public"
    """Who may read a game's leaderboard: anyone, like the lobby, or signed-in players."""
    chat: bool = True
    """Table chat (services/gateway/chat.py); off for a platform that has its own."""
    token_in_address: bool = False
    """A socket's token read from `?token=` (with a warning); off, the default: such a
    socket is refused, its token unread."""

    @classmethod
    def from_env(cls) -> GatewayConfig:
        """The settings from TABLETOP_*; a wrong one is a ConfigError naming it."""
        env = os.environ
        secret = env.get("TABLETOP_GATEWAY_SECRET") or ""
        if not secret:
            # Tokens then hold for this process only: a platform must share a secret.
            log.warning("gateway_secret_generated")
            secret = secrets.token_urlsafe(32)
        elif len(secret) < MIN_SECRET_CHARS:
            raise ConfigError(
                f"TABLETOP_GATEWAY_SECRET is {len(secret)} characters: it must be at least "
                f"{MIN_SECRET_CHARS} (it signs the player tokens with HMAC-SHA256)"
            )
        return cls(
            secret=secret,
            dev_signin=env.get("TABLETOP_DEV_SIGNIN", "") == "1",
            quickplay_wait=env_float("TABLETOP_QUICKPLAY_WAIT", 15),
            bot_delay=env_float("TABLETOP_BOT_DELAY", 0.4),
            bot_rematch_wait=env_float("TABLETOP_BOT_REMATCH_WAIT", 600),
            rate=env_float("TABLETOP_RATE", 20),
            burst=env_int("TABLETOP_BURST", 60),
            tables_per_minute=env_float("TABLETOP_TABLES_PER_MINUTE", 10),
            sockets_per_player=env_int("TABLETOP_SOCKETS_PER_PLAYER", 32),
            frame_ancestors=env.get("TABLETOP_FRAME_ANCESTORS", "'none'"),
            cors_origins=headers.cors_origins(env.get("TABLETOP_CORS_ORIGINS", "")),
            leaderboards=_leaderboards(env.get("TABLETOP_LEADERBOARDS") or "public"),
            chat=_on_off("TABLETOP_CHAT", env.get("TABLETOP_CHAT") or "on"),
            token_in_address=_on_off(
                "TABLETOP_TOKEN_IN_ADDRESS", env.get("TABLETOP_TOKEN_IN_ADDRESS") or "off"
            ),
        )

    def __post_init__(self) -> None:
        self.frame_ancestors = headers.frame_ancestors(self.frame_ancestors)
        self.cors_origins = headers.cors_origins(" ".join(self.cors_origins))


def _leaderboards(value: str) -> Literal["public", "players"]:
    if value == "public":
        return "public"
    if value == "players":
        return "players"
    raise ConfigError(
        f"TABLETOP_LEADERBOARDS is {value!r}: say public (anyone may read them) or players "
        "(only signed-in players)"
    )


def _on_off(name: str, value: str) -> bool:
    if value in ("on", "off"):
        return value == "on"
    raise ConfigError(f"{name} is {value!r}: say on or off")


class Gateway:
    """What the routes share: Redis, the store, the client library, the live hub."""

    def __init__(
        self,
        config: GatewayConfig,
        redis: Redis,
        listen: Redis,
        store: EventStore,
        client: TabletopClient,
        read_models: ReadModels,
        notices: Redis,
        chat: Redis | None,
    ) -> None:
        self.config = config
        self.redis = redis
        self.store = store
        self.client = client
        self.read_models = read_models
        self.signouts = Signouts(redis, config.token_ttl)
        self.tokens = Tokens(config.secret, config.token_ttl, ended=self.signouts.ended)
        self.requests = Limits(config.rate, config.burst)
        self.tables = Limits(
            config.tables_per_minute / 60, config.tables_burst, what="tables opened"
        )
        self.sockets = Sockets(config.sockets_per_player)
        self.names = tables.NameBook(redis)
        self.hub = LiveHub(listen, store.partitions)
        self.feeds = feeds.Feeds(self.hub, store, self.names)
        self.notices = NoticeHub(notices, store.partitions)
        # `chat`: the chat hub's own client (it blocks), closed with the hub; None when
        # chat is off.
        self.chat = Chat(redis, store, ChatHub(chat, store.partitions)) if chat else None
        self.bots = Bots(
            client,
            store,
            self.hub,
            self.remember,
            redis,
            delay=config.bot_delay,
            rematch_wait=config.bot_rematch_wait,
        )
        self.quick = QuickPlay(client, store, self.bots, redis, config.quickplay_wait)
        self._seating: dict[str, tuple[str, list[str | None]]] = {}

    def caller(self, authorization: str | None) -> Player:
        """The player a request's `Authorization` header signs in: 401 without a good
        token, 429 when they ask too fast."""
        try:
            me = self.tokens.read(bearer(authorization))
        except BadToken as err:
            raise NotAuthorizedException(str(err)) from None
        self.requests.check(me.id)
        return me

    def platform(self, given: str | None) -> None:
        """The caller proves to be the platform with the shared secret (the header
        `X-Gateway-Secret`), or is refused 401."""
        if not secrets.compare_digest((given or "").encode(), self.config.secret.encode()):
            raise NotAuthorizedException(
                "Only the platform may do this: the gateway secret is wrong."
            )

    @property
    def token_in_address(self) -> bool:
        return self.config.token_in_address

    @contextlib.contextmanager
    def admit(self, player: str) -> Iterator[str]:
        """A WebSocket of `player`'s, held open for the block: refused (the sentence why,
        else "") when they ask too fast or hold too many already."""
        wait = self.requests.wait(player)
        if wait > 0:
            yield self.requests.sentence(wait)
            return
        with self.sockets.hold(player) as held:
            yield "" if held else self.sockets.refusal()

    async def start(self) -> None:
        await self.signouts.refresh()  # before the first request: ended stays ended
        self.signouts.start()
        await self.client.__aenter__()
        await self.hub.start()
        await self.notices.start()
        if self.chat is not None:
            await self.chat.hub.start()
        self.bots.start()
        self.quick.start()

    async def stop(self) -> None:
        await self.signouts.stop()
        await self.quick.stop()
        await self.bots.stop()
        await self.feeds.stop()
        await self.hub.stop()
        await self.notices.stop()
        if self.chat is not None:
            await self.chat.hub.stop()
        await self.client.close()
        await self.client.redis.aclose()
        await self.redis.aclose()

    async def remember(self, player: Player) -> None:
        await self.redis.hset(GATEWAY.names, player.id, player.name)
        self.names.learn(player.id, player.name)

    async def signed_in(self, player: Player) -> api.SignedIn:
        # The sign-in's time comes from Redis's clock, the one that times the ends of
        # sign-ins (signouts.py): a gateway whose own clock runs fast would otherwise
        # issue tokens that outlive a ban, and one that runs slow refuse fresh ones.
        seconds, micros = await self.redis.time()
        token = self.tokens.issue(player, issued_ms=seconds * 1000 + micros // 1000)
        return api.SignedIn(token, player.id, player.name, self.tokens.ttl_seconds)

    async def seating(self, match_id: str) -> tuple[str, list[str | None]] | None:
        """The game and players of a match; kept once it has started (seats are fixed)."""
        known = self._seating.get(match_id)
        if known is not None:
            return known
        # A socket here follows the match: its feed has it folded already.
        state = self.feeds.state_of(match_id)
        if state is None or state.status == "lobby":
            found = await load_match(self.store, match_id)
            if found is None:
                return None
            state = found.state
        seating = (state.game, list(state.players))
        if state.status != "lobby":
            if len(self._seating) >= 50_000:
                self._seating.pop(next(iter(self._seating)))
            self._seating[match_id] = seating
        return seating

    async def send(self, match_id: str, command: Any, command_id: str | None = None) -> Reply:
        return await self.client.send(match_id, command, command_id=command_id, check=False)


# --- helpers shared by the routes ---------------------------------------------------------


def _gateway(state: State) -> Gateway:
    return cast(Gateway, state.gateway)


async def _caller(request: Request[Any, Any, Any]) -> Player:
    return _gateway(request.app.state).caller(request.headers.get("authorization"))


class Refused(HTTPException):
    """A command or request the referee refuses: 409, with its code and sentence."""

    status_code = 409


class TooLarge(HTTPException):
    status_code = 413


def _as_caller(me: Player, body: api.Body) -> None:
    if body.player is not None and body.player != me.id:
        raise PermissionDeniedException(
            f"You are signed in as {me.id}; a command can only be sent as yourself, "
            f"not as {body.player}."
        )


def _refused(reply: Reply) -> None:
    if reply.status == "rejected" or reply.original_status == "rejected":
        raise Refused(f"{reply.code}: {reply.message}")


async def _live(gw: Gateway, match_id: str) -> m.MatchState:
    found = await load_match(gw.store, match_id)
    if found is None:
        raise NotFoundException(f"There is no match {match_id}.")
    return found.state


def _check_strings(value: Any) -> None:
    if isinstance(value, str) and len(value) > MAX_STRING:
        raise ClientException(f"A move's text fields hold at most {MAX_STRING} characters.")
    if isinstance(value, dict):
        for v in value.values():
            _check_strings(v)
    elif isinstance(value, list):
        if len(value) > 64:
            raise ClientException("A move's lists hold at most 64 items.")
        for v in value:
            _check_strings(v)


# `?as=`: a seat (0-based) or `spectator`; the pattern documents it, `_parse_seat`
# checks it with a sentence of its own.
AsReader = Annotated[
    str | None,
    Parameter(
        query="as",
        schema_extra={"pattern": "^([0-9]{1,2}|spectator)?$"},
        description="Read as this seat (0-based) or `spectator` (else as the caller's own).",
    ),
]


def _parse_seat(raw: str | None, state: m.MatchState, me: Player) -> int | None:
    """The seat a read is made as: the caller's own by default, or `spectator`; any seat
    only once the match is over (replay)."""
    own = tables.seat_of(state, me.id)
    if raw is None or raw == "":
        return own
    if raw == "spectator":
        return None
    try:
        seat = int(raw)
    except ValueError:
        raise ClientException("`as` is a seat number (0-based) or `spectator`.") from None
    if not 0 <= seat < state.seats:
        # A seat the document admits, not at this table: no such view (404).
        raise NotFoundException(
            f"`as={seat}` names no seat: this table's seats are 0 to {state.seats - 1} "
            "(0-based), or `spectator`."
        )
    if seat != own and state.status != "finished":
        raise PermissionDeniedException("Another seat's view is shown only once the match is over.")
    return seat


# --- routes: health and sign-in ---------------------------------------------------------


@get("/healthz", responses=contract.refusals(503))
async def healthz(state: State) -> api.Health:
    try:
        await _gateway(state).redis.ping()
    except Exception as err:
        raise HTTPException(status_code=503, detail=f"Redis is unreachable: {err}") from None
    return api.Health(status="ok", redis="ok", process=os.getpid())


@get("/readyz", responses=contract.refusals(503))
async def readyz(state: State) -> api.Health:
    """Ready for traffic: Redis answers and the live hub follows the logs."""
    gw = _gateway(state)
    try:
        await gw.redis.ping()
    except Exception as err:
        raise HTTPException(status_code=503, detail=f"Redis is unreachable: {err}") from None
    if not gw.hub.running:
        raise HTTPException(status_code=503, detail="The live hub is not following the logs.")
    if not gw.notices.running:
        raise HTTPException(status_code=503, detail="The notice hub is not following notices.")
    if gw.chat is not None and not gw.chat.hub.running:
        raise HTTPException(status_code=503, detail="The chat hub is not following the chat.")
    return api.Health(status="ok", redis="ok")


@get("/metrics", sync_to_thread=False, include_in_schema=False)
def prometheus_metrics() -> Any:
    """This process's Prometheus metrics (services/infra/metrics.py)."""
    from litestar import Response

    return Response(metrics.scrape(), media_type=metrics.CONTENT_TYPE_LATEST)


@post("/api/signin", status_code=200, responses=contract.refusals(400, 401, 413))
async def signin(
    state: State, request: Request[Any, Any, Any], data: api.PlatformSignIn
) -> api.SignedIn:
    """The platform vouches for a player (header `X-Gateway-Secret`) and gets a token."""
    gw = _gateway(state)
    _platform(gw, request)
    player = Player(data.player_id, _display_name(data.name))
    await gw.remember(player)
    return await gw.signed_in(player)


def _platform(gw: Gateway, request: Request[Any, Any, Any]) -> None:
    gw.platform(request.headers.get("x-gateway-secret"))


def _display_name(given: str) -> str:
    try:
        return display_name(given)
    except BadName as err:
        raise ClientException(str(err)) from None


@post("/api/signin/dev", status_code=200, responses=contract.refusals(400, 404, 413))
async def dev_signin(state: State, data: api.DevSignIn) -> api.SignedIn:
    """Sign in by name alone (development only: TABLETOP_DEV_SIGNIN=1)."""
    gw = _gateway(state)
    if not gw.config.dev_signin:
        raise NotFoundException("Development sign-in is off on this gateway.")
    name = _display_name(data.name)
    player = Player(dev_player_id(name), name)
    await gw.remember(player)
    return await gw.signed_in(player)


@post(
    "/api/players/{player_id:str}/signout", status_code=200, responses=contract.refusals(400, 401)
)
async def end_signins(
    state: State, request: Request[Any, Any, Any], player_id: contract.PlayerIdPath
) -> api.SignedOut:
    """The platform ends every sign-in of a player's so far (a ban, a copied token):
    their tokens are refused and their sockets closed, in every gateway process within
    a second (header `X-Gateway-Secret`)."""
    gw = _gateway(state)
    _platform(gw, request)
    return api.SignedOut(player_id, await gw.signouts.end(player_id))


@post("/api/me/signout", status_code=200, responses=contract.SIGNED)
async def sign_out(state: State, request: Request[Any, Any, Any], me: Player) -> api.SignedOut:
    """End this sign-in of mine (the token of this request), on this device alone (the
    web page's "Sign out")."""
    gw = _gateway(state)
    _, this = gw.tokens.sign_in(cast(str, bearer(request.headers.get("authorization"))))
    return api.SignedOut(me.id, await gw.signouts.end(me.id, this))


@post("/api/me/signout/everywhere", status_code=200, responses=contract.SIGNED)
async def sign_out_everywhere(state: State, me: Player) -> api.SignedOut:
    """End every sign-in of mine so far, on every device (the web page's "Sign out
    everywhere": a token left on a shared computer, or copied)."""
    return api.SignedOut(me.id, await _gateway(state).signouts.end(me.id))


@get("/api/me", responses=contract.SIGNED)
async def whoami(me: Player) -> api.Me:
    return api.Me(me.id, me.name)


# --- routes: games and the lobby -----------------------------------------------------------


@get("/api/games", sync_to_thread=False)
def list_games() -> list[api.GameInfo]:
    return [
        api.GameInfo(
            name=g.name,
            title=g.title,
            min_players=g.min_players,
            max_players=g.max_players,
            options_schema=msgspec.json.schema(g.options_type),
            clock_expiries=["lose", "bot", *(["skip"] if g.skip is not None else [])],
        )
        for g in games().values()
    ]


@get(
    "/api/games/{name:str}/components",
    sync_to_thread=False,
    responses=contract.refusals(404),
    cache_control=CacheControlHeader(max_age=3600, public=True),
)
def game_components(name: str) -> dict[str, str]:
    """What the table calls each component of the game (cards, tiles, pieces), by id:
    the box's contents, public to everyone. Empty for a game whose ids read as they are."""
    game = games().get(name)
    if game is None:
        raise NotFoundException(f"There is no game {name}.")
    return dict(game.components()) if game.components is not None else {}


STATUSES = ("lobby", "playing", "finished")
MAX_PAGE = 1_000_000  # of 20 tables: past any lobby, and an offset Redis takes


@get("/api/matches", responses=contract.refusals(400))  # the lobby: no sign-in
async def list_matches(
    state: State,
    # The names are in the schema: a name outside them is a client's mistake it can see.
    game: Annotated[str | None, Parameter(schema_extra={"enum": offered()})] = None,
    status: Annotated[str, Parameter(schema_extra={"enum": list(STATUSES)})] = "lobby",
    page: Annotated[int, Parameter(ge=0, le=MAX_PAGE)] = 0,
) -> list[api.MatchRow]:
    if status not in STATUSES:
        raise ClientException("status is one of lobby, playing, finished.")
    if game and game not in games():
        raise ClientException(f"There is no game called {game}.")
    gw = _gateway(state)
    return [await _row(gw, s) for s in await gw.read_models.lobby(game or None, status, page, 20)]


@get("/api/me/matches", responses=contract.SIGNED)
async def my_matches(state: State, me: Player) -> list[api.MatchRow]:
    """The tables I sit at, waiting or in play, and those I played to the end: the latest
    change first (a table closed in the browser is found again here)."""
    gw = _gateway(state)
    return [await _row(gw, s) for s in await gw.read_models.mine(me.id)]


async def _row(gw: Gateway, s: Summary) -> api.MatchRow:
    return api.MatchRow(
        match_id=s.match_id,
        game=s.game,
        title=s.title,
        seats=s.seats,
        options=s.options,
        players=s.players,
        names=await gw.names.of(s.players),
        status=s.status,
        version=s.version,
        free_seats=s.free_seats,
        updated_at=s.updated_at,
        rematch=s.rematch,
        rematch_of=s.rematch_of,
        unlisted=s.unlisted,
    )


@post("/api/matches", responses=contract.SENDS)
async def create_match(state: State, me: Player, data: api.CreateBody) -> api.Created:
    _as_caller(me, data)
    gw = _gateway(state)
    gw.tables.check(me.id)
    match_id = uuid.uuid4().hex[:16]
    _refused(
        await gw.send(
            match_id,
            m.CreateMatch(
                game=data.game,
                seats=data.seats,
                options=data.options,
                clock=msgspec.UNSET if data.clock is None else data.clock,
                unlisted=True if data.unlisted else msgspec.UNSET,
            ),
        )
    )
    if data.join:
        _refused(await gw.send(match_id, m.JoinMatch(player=me.id)))
    return api.Created(match_id)


@post("/api/matches/{match_id:str}/join", status_code=200, responses=contract.SENDS)
async def join(
    state: State, me: Player, match_id: contract.MatchIdPath, data: api.JoinBody
) -> api.Seated:
    _as_caller(me, data)
    gw = _gateway(state)
    await _refused_to(
        gw, match_id, me, await gw.send(match_id, m.JoinMatch(player=me.id, seat=data.seat))
    )
    seat = tables.seat_of(await _live(gw, match_id), me.id)
    return api.Seated(match_id, seat if seat is not None else -1)


@post("/api/matches/{match_id:str}/leave", status_code=200, responses=contract.SENDS)
async def leave(
    state: State, me: Player, match_id: contract.MatchIdPath, data: api.Body
) -> api.Created:
    _as_caller(me, data)
    gw = _gateway(state)
    await _refused_to(gw, match_id, me, await gw.send(match_id, m.LeaveMatch(player=me.id)))
    await gw.quick.left(match_id, me.id)
    return api.Created(match_id)


@post("/api/matches/{match_id:str}/start", status_code=200, responses=contract.SENDS)
async def start(
    state: State, me: Player, match_id: contract.MatchIdPath, data: api.Body
) -> api.Created:
    _as_caller(me, data)
    gw = _gateway(state)
    await _refused_to(gw, match_id, me, await gw.send(match_id, m.StartMatch(player=me.id)))
    return api.Created(match_id)


@post("/api/matches/{match_id:str}/concede", status_code=200, responses=contract.SENDS)
async def concede(
    state: State, me: Player, match_id: contract.MatchIdPath, data: api.Body
) -> api.Created:
    _as_caller(me, data)
    gw = _gateway(state)
    await _refused_to(gw, match_id, me, await gw.send(match_id, m.Concede(player=me.id)))
    return api.Created(match_id)


_SEAT_NUMBER = re.compile(r"\b[Ss]eat (\d+)\b")


async def _spoken(
    gw: Gateway, match_id: str, me: Player, message: str, *, seats: bool = False
) -> str:
    """The referee's sentence as its caller reads it: the rules name players by id; the
    caller is "You" ("You have no seat at this table.") and the others are named.
    `seats`: a game's rules name seats by number ("It is seat 2's turn."): those are
    named too ("It is Bea's turn."); a lifecycle sentence's seat is the seat itself
    ("Seat 2 is not free.")."""
    seated = await gw.seating(match_id)
    players = seated[1] if seated else []
    names = await gw.names.of(players)
    others = [(p, n) for p, n in zip(players, names, strict=True) if p and p != me.id]
    said = [(me.id, "You"), *others]
    # The longer id first: one id may hold another ("dev-ann", "dev-anna").
    for player_id, name in sorted(said, key=lambda pair: -len(pair[0])):
        message = message.replace(player_id, name)
    if seats and players:

        def seat_named(found: re.Match[str]) -> str:
            at = int(found.group(1)) - 1
            if not 0 <= at < len(players) or players[at] is None:
                return found.group(0)  # no one there: the seat it is
            return "You" if players[at] == me.id else names[at]

        message = _SEAT_NUMBER.sub(seat_named, message)
    return to_reader(message)


async def _refused_to(gw: Gateway, match_id: str, me: Player, reply: Reply) -> None:
    """`_refused`, the referee's sentence spoken to the caller (`_spoken`)."""
    if reply.status == "rejected" or reply.original_status == "rejected":
        raise Refused(f"{reply.code}: {await _spoken(gw, match_id, me, reply.message)}")


@post("/api/matches/{match_id:str}/undo", status_code=200, responses=contract.SENDS)
async def undo(
    state: State, me: Player, match_id: contract.MatchIdPath, data: api.Body
) -> api.Created:
    """Take back my last move of this turn, where the match allows it (the view's `undo`
    names the seat that may); refused 409 `cannot_undo`, with why, where it stands."""
    _as_caller(me, data)
    gw = _gateway(state)
    await _refused_to(gw, match_id, me, await gw.send(match_id, m.UndoMove(player=me.id)))
    return api.Created(match_id)


@post("/api/matches/{match_id:str}/rematch", status_code=200, responses=contract.SENDS)
async def offer_rematch(
    state: State, me: Player, match_id: contract.MatchIdPath, data: api.Body
) -> api.Created:
    """Offer the table of this finished match a rematch (it counts as my acceptance)."""
    _as_caller(me, data)
    gw = _gateway(state)
    await _refused_to(gw, match_id, me, await gw.send(match_id, m.OfferRematch(player=me.id)))
    return api.Created(match_id)


@post("/api/matches/{match_id:str}/rematch/accept", status_code=200, responses=contract.SENDS)
async def accept_rematch(
    state: State, me: Player, match_id: contract.MatchIdPath, data: api.Body
) -> api.Created:
    """Accept the rematch on offer; once everyone has, the view's `rematch.match_id` names
    the new match, which the rematch process opens and starts."""
    _as_caller(me, data)
    gw = _gateway(state)
    await _refused_to(gw, match_id, me, await gw.send(match_id, m.AcceptRematch(player=me.id)))
    return api.Created(match_id)


@post("/api/matches/{match_id:str}/rematch/decline", status_code=200, responses=contract.SENDS)
async def decline_rematch(
    state: State, me: Player, match_id: contract.MatchIdPath, data: api.Body
) -> api.Created:
    """Decline the rematch on offer: it is off (anyone may offer another)."""
    _as_caller(me, data)
    gw = _gateway(state)
    await _refused_to(gw, match_id, me, await gw.send(match_id, m.DeclineRematch(player=me.id)))
    return api.Created(match_id)


@post("/api/matches/{match_id:str}/bots", status_code=200, responses=contract.SENDS)
async def add_bot(
    state: State, me: Player, match_id: contract.MatchIdPath, data: api.BotBody
) -> api.Seated:
    """A bot sits down; only someone seated at the table may invite one."""
    gw = _gateway(state)
    table = await _live(gw, match_id)
    if me.id not in table.players:
        raise PermissionDeniedException("Only a player at this table may seat a bot.")
    # The first free seat of the table just read, unless the caller named one.
    asked = data.seat if data.seat is not None else first_free(table.players)
    try:
        _, seat = await gw.bots.seat(match_id, asked)
    except CommandRejected as err:
        raise Refused(str(err)) from None
    return api.Seated(match_id, seat if seat is not None else -1)


@post("/api/quickplay", status_code=200, responses=contract.SENDS)
async def quickplay(state: State, me: Player, data: api.QuickPlayBody) -> api.Seated:
    """Seat me at a table of that game with that many seats, with others waiting for the
    same; the match starts once full, and bots take the seats nobody took in time."""
    _as_caller(me, data)
    gw = _gateway(state)
    try:
        found = await gw.quick.find(me, data.game, data.seats, data.options)
    except (CommandRejected, NoTable) as err:
        raise Refused(str(err)) from None
    return api.Seated(found.match_id, found.seat)


# --- routes: a match as the caller sees it ------------------------------------------------


@get("/api/matches/{match_id:str}", responses=contract.READS_MATCH)
async def show(state: State, me: Player, match_id: contract.MatchIdPath) -> api.TableBody:
    gw = _gateway(state)
    table = await _live(gw, match_id)
    seat = tables.seat_of(table, me.id)
    names = await gw.names.of(table.players)
    return api.TableBody(
        match_id, seat, tables.view_for(table, seat, names), tables.commands_for(table, seat)
    )


@get("/api/matches/{match_id:str}/commands", responses=contract.READS_MATCH)
async def legal_commands(
    state: State, me: Player, match_id: contract.MatchIdPath
) -> list[tables.CommandChoice]:
    table = await _live(_gateway(state), match_id)
    return tables.commands_for(table, tables.seat_of(table, me.id))


@get("/api/matches/{match_id:str}/history", responses=contract.READS_MATCH)
async def history(
    state: State,
    me: Player,
    match_id: contract.MatchIdPath,
    as_: AsReader = None,
) -> api.History:
    gw = _gateway(state)
    found = await tables.recorded(gw.store, match_id)
    if found is None:
        raise NotFoundException(f"There is no match {match_id}.")
    last = found.state_at(len(found.events))
    seat = _parse_seat(as_, last, me)
    names = await gw.names.of(last.players)
    by_id = await gw.names.of_lines(last.players, names, found.events)
    lines = tables.lines_for(found.game, found.envelopes, found.events, seat, names, by_id)
    return api.History(match_id, seat, last.version, lines)


@get("/api/matches/{match_id:str}/replay", responses=contract.REPLAYS)
async def replay(
    state: State,
    me: Player,
    match_id: contract.MatchIdPath,
    version: int = 0,
    as_: AsReader = None,
) -> api.ReplayBody:
    """A finished match at any version, as any seat or a spectator."""
    gw = _gateway(state)
    found = await tables.recorded(gw.store, match_id)
    if found is None:
        raise NotFoundException(f"There is no match {match_id}.")
    last = found.state_at(len(found.events))
    if last.status != "finished":
        raise Refused("A match is replayed once it is over.")
    seat = _parse_seat(as_, last, me)
    at = min(max(1, version or last.version), last.version)
    then = found.state_at(at)
    names = await gw.names.of(last.players)
    events = found.events[at - 1 : at]
    by_id = await gw.names.of_lines(last.players, names, events)
    shown = tables.lines_for(found.game, found.envelopes[at - 1 : at], events, seat, names, by_id)
    return api.ReplayBody(
        match_id,
        seat,
        at,
        last.version,
        tables.view_for(then, seat, names),
        shown[0] if shown else None,
    )


@post("/api/matches/{match_id:str}/commands", status_code=200, responses=contract.SENDS)
async def play(
    state: State, me: Player, match_id: contract.MatchIdPath, data: api.MoveBody
) -> api.ReplyBody:
    """Send a game command as me; the answer is the command service's reply. The same
    command id again answers the same (a retry is safe); with another body, 409."""
    # Served by `HotPath` in front of the framework; this route describes it (OpenAPI)
    # and serves it when the application is used without it.
    return await play_move(_gateway(state), me, match_id, data)


async def play_move(gw: Gateway, me: Player, match_id: str, data: api.MoveBody) -> api.ReplyBody:
    _as_caller(me, data)
    _check_strings(data.move)
    body = msgspec.json.encode(data.move, order="sorted")
    # Command ids are the caller's own: namespaced by player, no two players' collide.
    command_id = f"gw.{me.id}.{data.command_id}"
    command = m.PlayMove(player=me.id, move=msgspec.Raw(body))
    reply = await gw.send(match_id, command, command_id)
    if reply.code == "command_id_reused":
        # The store keeps a digest of every command's body beside its id.
        raise Refused("That command id was already used for another command; choose a new one.")
    lines: list[tables.Line] = []
    message = reply.message
    if reply.events and reply.status == "accepted":
        seated = await gw.seating(match_id)
        if seated is not None:
            game, players = seated
            names = await gw.names.of(players)
            seat = players.index(me.id) if me.id in players else None
            events = [m.codec(game).decode(bytes(e)) for e in reply.events]
            by_id = await gw.names.of_lines(players, names, events)
            first = reply.version - len(events) + 1
            for i, event in enumerate(events):
                text = m.describe(game, tables.named(event, by_id), seat, names)
                body_out = cast(dict[str, Any], msgspec.to_builtins(event))
                lines.append(tables.Line(first + i, m.event_tag(event), body_out, text))
    if message:
        message = await _spoken(gw, match_id, me, message, seats=True)
    return api.ReplyBody(
        command_id=data.command_id,
        status=reply.status,
        version=reply.version,
        events=lines,
        code=reply.code,
        message=message,
        original_status=reply.original_status,
    )


# --- the hot path ---------------------------------------------------------------------------

# A match id as the routes take it (contract.MatchIdPath); any other path is Litestar's.
_PLAY_PATH = re.compile(rf"^/api/matches/({ID.pattern})/commands$")
_MOVE_BODY = msgspec.json.Decoder(api.MoveBody)
_JSON = msgspec.json.Encoder()
MAX_BODY = 16 * 1024


class HotPath:
    """The gateway's ASGI application: a move (POST .../commands, what players send most)
    is served here, the rest by Litestar. A move's cost was mostly the framework's
    (routing, dependency and body extraction, response), more than the move itself; here
    it is the same checks and answers with msgspec, and `play_move` does the work the
    route does."""

    def __init__(self, app: Litestar) -> None:
        self.app = app
        config = _gateway(app.state).config
        self.headers = headers.security(config.frame_ancestors)
        self.cors = headers.cors(config.cors_origins)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if scope["method"] == "POST":
            found = _PLAY_PATH.match(path)
            if found is not None:
                await self._play(found.group(1), scope, receive, send)
                return
        if scope["method"] == "HEAD":
            # Answered as a GET (uptime checks and link checkers ask HEAD of the pages and
            # /healthz); uvicorn sends the head alone, as it holds the request's own scope.
            scope = {**scope, "method": "GET"}
        guarded = headers.guarded(send, self.headers, api=path.startswith("/api/"))
        await self.app(scope, receive, guarded)

    async def _play(self, match_id: str, scope: Any, receive: Any, send: Any) -> None:
        gw = _gateway(self.app.state)
        status, answer = 200, b""
        head = [(b"content-type", b"application/json"), *self.headers, headers.NO_STORE]
        head += headers.cross_origin(self.cors, _header(scope, b"origin"))
        try:
            me = gw.tokens.read(bearer(_header(scope, b"authorization")))
            gw.requests.check(me.id)
            body = await _body(receive, MAX_BODY)
            try:
                data = _MOVE_BODY.decode(body)
            except (msgspec.ValidationError, msgspec.DecodeError) as err:
                raise ClientException(f"Validation failed for a move: {err}") from None
            except RecursionError:
                raise ClientException(TOO_DEEP) from None
            answer = _JSON.encode(await play_move(gw, me, match_id, data))
        except BadToken as err:
            status, answer = 401, _problem(401, str(err))
            await _log_refusal(NotAuthorizedException(str(err)), scope)
        except HTTPException as err:
            status, answer = err.status_code, _problem(err.status_code, err.detail)
            head += [(k.lower().encode(), v.encode()) for k, v in (err.headers or {}).items()]
            await _log_refusal(err, scope)
        except Exception:
            log.exception("move_failed", match_id=match_id)
            status, answer = 500, _problem(500, "Internal Server Error")
        head.append((b"content-length", str(len(answer)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": head})
        await send({"type": "http.response.body", "body": answer})


def _header(scope: Any, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return cast(bytes, value).decode("latin-1")
    return None


async def _body(receive: Any, limit: int) -> bytes:
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientException("The request ended before its body.")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"A body holds at most {limit} bytes.")
        parts.append(chunk)
        if not message.get("more_body", False):
            return b"".join(parts)


def _problem(status: int, detail: str) -> bytes:
    return _JSON.encode({"status_code": status, "detail": detail})


# --- live ---------------------------------------------------------------------------------


@websocket("/api/matches/{match_id:str}/live")
async def live(socket: WebSocket[Any, Any, Any], match_id: contract.MatchIdPath) -> None:
    """The caller's view on connect, then after each batch of new events one message:
    those events (redacted for the caller, with their sentences), the view after them
    and whether it is the caller's turn; `?since=V` first sends what came after V. Signed
    in as sockets.py says (subprotocols `tabletop`, `bearer.<token>`)."""
    gw = _gateway(socket.app.state)
    async with sockets.admitted(socket, gw) as me:
        if me is not None:
            await _follow(socket, gw, me, match_id)


def _since(raw: str | None) -> int | None:
    """`?since=`: a version, or nothing. ASCII digits only, and few: str.isdigit takes
    "²", which int() refuses, and int() refuses 4,300 digits or more."""
    if not raw:
        return None
    if len(raw) > 18 or not raw.isascii() or not raw.isdigit():
        raise ValueError(f"since must be a version number (0 or more), not {raw[:20]!r}.")
    return int(raw)


async def _follow(socket: WebSocket[Any, Any, Any], gw: Gateway, me: Player, match_id: str) -> None:
    try:
        since = _since(socket.query_params.get("since"))
    except ValueError as err:
        log.info(
            "request_refused",
            status=4400,
            path=socket.scope.get("path"),
            reason=str(err),
            player=me.id,
            match_id=match_id,
        )
        await sockets.refuse(socket, str(err), 4400)
        return
    with gw.feeds.follow(match_id) as feed:
        await feed.ready.wait()
        if feed.failed:
            await sockets.refuse(socket, "The match cannot be read just now; connect again.", 1011)
            return
        inbox, base = feed.join()
        try:
            if base is None:
                await sockets.refuse(socket, f"There is no match {match_id}.", 4404)
                return
            if since is not None and since < base.state.version:
                first = await feeds.catch_up(gw.store, gw.names, match_id, since, base)
            else:
                names = await gw.names.of(base.state.players)
                first = feeds.Batch("hello", base.state, names)
            await socket.send_data(first.text_for(me.id), mode="text")
            closed = asyncio.create_task(_until_closed(socket, inbox))
            try:
                while (batch := await inbox.get()) is not feeds.Closed:
                    await socket.send_data(batch.text_for(me.id), mode="text")
            finally:
                closed.cancel()
            if feed.failed and not closed.done():
                await sockets.refuse(socket, "The live feed stopped; connect again.", 1011)
        except sockets.GONE:
            pass
        finally:
            feed.leave(inbox)


async def _until_closed(socket: WebSocket[Any, Any, Any], inbox: feeds.Inbox) -> None:
    await sockets.until_closed(socket)
    inbox.put_nowait(feeds.Closed)


# --- pages ----------------------------------------------------------------------------------


@get("/", sync_to_thread=False, include_in_schema=False)
def index() -> File:
    return File(STATIC / "index.html", content_disposition_type="inline", media_type="text/html")


@get("/table", sync_to_thread=False, include_in_schema=False)
def table_page() -> File:
    return File(STATIC / "table.html", content_disposition_type="inline", media_type="text/html")


@get("/replay", sync_to_thread=False, include_in_schema=False)
def replay_page() -> File:
    return File(STATIC / "replay.html", content_disposition_type="inline", media_type="text/html")


TOO_DEEP = "The JSON is nested too deeply to be read."


def _decoding(err: RecursionError) -> bool:
    """A body nested deeper than the decoder goes (msgspec: "... while deserializing")."""
    return "deserializ" in str(err)


def _too_deep(request: Request[Any, Any, Any], err: RecursionError) -> Any:
    from litestar import Response

    if _decoding(err):
        return Response({"detail": TOO_DEEP, "status_code": 400}, status_code=400)
    # A recursion of our own is a bug: the operator gets its traceback.
    log.error("request_failed", path=request.url.path, exc_info=err)
    return Response({"detail": "Internal Server Error", "status_code": 500}, status_code=500)


def _rejected(request: Request[Any, Any, Any], err: Rejected) -> Any:
    from litestar import Response

    return Response({"detail": f"{err.code}: {err}", "status_code": 409}, status_code=409)


# A person's mistake (no token, a refused move, no such match) is answered in one clear
# line and logged in one line, never as a traceback at error level: operators keep error
# level for what is really wrong.
CLIENT_ERRORS = frozenset({400, 401, 403, 404, 405, 409, 413, 415, 422, 429})


async def _log_refusal(exc: Exception, scope: Any) -> None:
    status = 409 if isinstance(exc, Rejected) else getattr(exc, "status_code", None)
    if isinstance(exc, RecursionError) and _decoding(exc):
        status, exc = 400, ClientException(TOO_DEEP)
    if status in CLIENT_ERRORS:
        metrics.count(metrics.REFUSALS, str(status))
        detail = getattr(exc, "detail", "") or str(exc)
        # A player held to the rate is named: who floods is what the operator asks.
        who = {"player": exc.player} if isinstance(exc, SlowDown) and exc.player else {}
        log.info(
            "request_refused", status=status, path=scope.get("path"), reason=str(detail), **who
        )


def create_app(gateway: Gateway | None) -> Litestar:
    """The Litestar application; `gateway` None builds it for the OpenAPI document only."""

    async def startup(app: Litestar) -> None:
        if gateway is not None:
            await gateway.start()

    async def shutdown(app: Litestar) -> None:
        if gateway is not None:
            await gateway.stop()

    handlers: list[ControllerRouterHandler] = [
        healthz,
        readyz,
        prometheus_metrics,
        signin,
        dev_signin,
        end_signins,
        sign_out,
        sign_out_everywhere,
        whoami,
        list_games,
        game_components,
        list_matches,
        my_matches,
        create_match,
        join,
        leave,
        start,
        concede,
        undo,
        offer_rematch,
        accept_rematch,
        decline_rematch,
        add_bot,
        quickplay,
        show,
        legal_commands,
        history,
        replay,
        play,
        live,
        *NOTICE_ROUTES,
        *CHAT_ROUTES,
        *STANDING_ROUTES,
        index,
        table_page,
        replay_page,
        create_static_files_router(path="/static", directories=[STATIC], include_in_schema=False),
    ]
    app = Litestar(
        route_handlers=[*contract.options_handlers(handlers), *handlers],
        plugins=[contract.StrictStructs()],
        dependencies={"me": Provide(_caller)},
        state=State({"gateway": gateway}),
        on_startup=[startup],
        on_shutdown=[shutdown],
        exception_handlers={Rejected: _rejected, RecursionError: _too_deep},
        after_exception=[_log_refusal],
        request_max_body_size=MAX_BODY,
        cors_config=None if gateway is None else headers.cors(gateway.config.cors_origins),
        openapi_config=OpenAPIConfig(
            title="tabletop gateway", version="1", description="Players' edge of tabletop."
        ),
        # Litestar's own records go to the root logger, which writes the service's JSON lines.
        logging_config=LoggingConfig(
            configure_root_logger=False,
            loggers={"litestar": {"level": "INFO", "propagate": True, "handlers": []}},
            log_exceptions="always",
            # RecursionError: a body nested too deeply; _too_deep logs a real one whole.
            disable_stack_trace={*CLIENT_ERRORS, Rejected, RecursionError},
        ),
        debug=False,
    )
    # Generated now, once, and served as it is from then on.
    contract.link_match_ids(app.openapi_schema)
    contract.show_a_game(app.openapi_schema, "chicken")
    return app
