"""The `tabletop` command line.

People number seats from 1: in sentences, in flags (`--as 2`) and in messages. Machines
number them from 0: in every JSON document (`--json`, views, events, replies). A mistake
gets one line and exit 2 (usage) or 1 (failure), never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import os
import secrets
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypedDict, TypeVar, cast

import click
import msgspec
import redis.exceptions
import structlog
from rich.console import Console
from rich.table import Table

from domain import match as m
from domain.kernel import Game, Rejected, RulesStatus, games, get_game
from events.envelope import Envelope
from events.keys import UNLISTED, Keys
from services import compose
from services.gateway import GatewayCannotListen
from services.infra import collector, loop
from services.infra.config import (
    ConfigError,
    Settings,
    check_partitions,
    check_redis_url,
)
from services.infra.embedded import DataFolderInUse
from services.infra.logging import configure, level_from_env
from services.readside.readmodels import ReadModels, told

if TYPE_CHECKING:  # the gateway is imported only by the commands that run it
    from services.gateway.app import GatewayConfig

log = structlog.get_logger("tabletop.cli")

# Made again for every command: rich reads COLUMNS when a console is made.
console = Console(highlight=False)


# --- one line per mistake ---------------------------------------------------------------


F = TypeVar("F", bound=Callable[..., Any])


def port_option(what: str) -> Callable[[F], F]:
    """`--port`, a TCP port (0: any free one), 8000 unless given."""
    return click.option(
        "--port",
        type=click.IntRange(0, 65_535),
        default=8000,
        show_default=True,
        help=f"{what} (0: any free one).",
    )


class TabletopGroup(click.Group):
    """click's group, with every ordinary mistake told in one line: click's usage errors
    (exit 2), settings the environment got wrong (exit 2), and failures (exit 1)."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as err:
            hint = f" (see '{err.ctx.command_path} -h')" if err.ctx is not None else ""
            _fail(err.format_message() + hint, 2)
        except click.ClickException as err:
            _fail(err.format_message(), err.exit_code)
        except ConfigError as err:
            _fail(str(err), 2)
        except DataFolderInUse as err:
            _fail(str(err), 1)
        except GatewayCannotListen as err:
            _fail(str(err), 1)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as err:
            where = os.environ.get("TABLETOP_REDIS_URL") or "the embedded server"
            _fail(f"cannot reach Redis ({where}): {_first_line(err)}", 1)
        except redis.exceptions.NoPermissionError as err:
            _fail(f"Redis refused: {_first_line(err)}", 1)
        except (click.Abort, KeyboardInterrupt):
            _fail("stopped", 130)
        sys.exit(code if isinstance(code, int) else 0)


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def _fail(message: str, code: int) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


BENCH_NEEDS = ("eventsourcing",)  # what `pip install -e '.[bench]'` adds that bench imports


def _check_bench_extra() -> None:
    missing = [p for p in BENCH_NEEDS if importlib.util.find_spec(p) is None]
    if missing:
        raise click.ClickException(
            f"bench needs the bench extra ({', '.join(missing)} is not installed): "
            "pip install -e '.[bench]'"
        )


@click.group(cls=TabletopGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tabletop", prog_name="tabletop")
@click.option(
    "--home",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Data folder of the embedded Redis (default $TABLETOP_HOME or ./.tabletop).",
)
@click.pass_context
def main(ctx: click.Context, home: Path | None) -> None:
    """tabletop: turn-based board games on an event-sourced Redis log.

    Seats are numbered from 1 here (flags, sentences, messages) and from 0 in JSON.
    """
    global console
    console = Console(highlight=False)
    command = ctx.invoked_subcommand
    configure(level=level_from_env("INFO" if command == "serve" else "WARNING"))
    # Settings the environment got wrong are said before any server starts.
    Settings.from_env("unix://")
    url = os.environ.get("TABLETOP_REDIS_URL")
    if url:
        check_redis_url(url)
    if command == "bench":
        _check_bench_extra()
    ctx.ensure_object(dict)
    ctx.obj["home"] = home


# --- games ------------------------------------------------------------------------------


class GameRow(TypedDict):
    """One game in `tabletop games`, as its JSON shows it."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: list[dict[str, Any]]
    rules: RulesStatus
    rules_version: str
    assumptions: list[str]
    designed: list[str]


def option_schemas(game: Game) -> list[dict[str, Any]]:
    """Each option of the game: its name, default and a JSON Schema of its values,
    from msgspec's schema of the game's options Struct."""
    schema = msgspec.json.schema(game.options_type)
    defs: dict[str, Any] = schema.get("$defs", {})
    root = _inline(schema, defs)
    out: list[dict[str, Any]] = []
    for f in msgspec.structs.fields(game.options_type):
        if f.default is not msgspec.NODEFAULT:
            default = f.default
        elif f.default_factory is not msgspec.NODEFAULT:
            default = f.default_factory()
        else:
            default = None
        prop = root.get("properties", {}).get(f.encode_name, {})
        out.append({"name": f.encode_name, "default": default, "schema": prop})
    return out


def _inline(node: Any, defs: dict[str, Any], depth: int = 0) -> Any:
    """The schema with its `$ref`s replaced by what they name (options are shallow)."""
    if depth > 8:
        return node
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline(defs[ref.removeprefix("#/$defs/")], defs, depth + 1)
        return {k: _inline(v, defs, depth + 1) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs, depth + 1) for v in node]
    return node


def _shown(value: Any) -> str:
    return json.dumps(value).strip('"')


def _allowed(schema: dict[str, Any]) -> str:
    """An option's values as a person reads them: `a | b`, `true | false`, `1..13`."""
    if "enum" in schema:
        return " | ".join(_shown(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " | ".join(_allowed(s) for s in schema["anyOf"])
    kind = schema.get("type")
    if kind == "boolean":
        return "true | false"
    if kind == "null":
        return "null"
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        high = schema.get("maximum", schema.get("exclusiveMaximum"))
        if low is not None or high is not None:
            return f"{'' if low is None else low}..{'' if high is None else high}"
        return str(kind)
    return str(kind or "any")


@main.command("games")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def games_cmd(as_json: bool) -> None:
    """The registered games, their player counts, options and rules status."""
    rows: list[GameRow] = []
    for name, game in games().items():
        rows.append(
            {
                "name": name,
                "title": game.title,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "options": option_schemas(game),
                "rules": game.rules_status,
                "rules_version": game.rules_version,
                "assumptions": list(game.assumptions),
                "designed": list(game.designed),
            }
        )
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    table = Table()
    # The name is what people type: never cut. Options fold rather than lose a value.
    width = max((len(r["name"]) for r in rows), default=4)
    table.add_column("game, title, rules", no_wrap=True, min_width=width)
    table.add_column("players")
    table.add_column("options = default, then the allowed values", overflow="fold")
    for r in rows:
        opts = "\n".join(
            f"{o['name']} = {_shown(o['default'])}\n  [dim]{_allowed(o['schema'])}[/]"
            for o in r["options"]
        )
        status = r["rules"] + (f" ({len(r['assumptions'])})" if r["assumptions"] else "")
        low, high = r["min_players"], r["max_players"]
        table.add_row(
            f"{r['name']}\n[dim]{r['title']}\n{status}[/]",
            str(low) if low == high else f"{low}-{high}",
            opts or "-",
        )
    console.print(table)
    console.print("[dim]tabletop games --json: each option's JSON Schema and the assumptions[/]")


def _known_game(name: str, param: str) -> str:
    if name not in games():
        raise click.BadParameter(
            f"no game {name!r}; the games are {', '.join(sorted(games()))}", param_hint=param
        )
    return name


# --- serve and demo ---------------------------------------------------------------------


def _partition_list(spec: str, total: int, param: str | None = None) -> list[int]:
    """'0-7' or '0,2,4' -> partitions; '' -> all."""
    if not spec:
        return list(range(total))
    out: list[int] = []
    try:
        for part in spec.split(","):
            lo, _, hi = part.partition("-")
            out += list(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise click.BadParameter(
            f"{spec!r}: write partitions as 0-7 or 0,2,4", param_hint=param
        ) from None
    wrong = [p for p in out if not 0 <= p < total]
    if wrong or not out:
        raise click.BadParameter(
            f"{spec!r}: partitions run from 0 to {total - 1} (TABLETOP_PARTITIONS={total})",
            param_hint=param,
        )
    return sorted(set(out))


@contextlib.contextmanager
def _settings(ctx: click.Context) -> Iterator[Settings]:
    """The settings, for TABLETOP_REDIS_URL's Redis or the data folder's embedded one."""
    with compose.settings(ctx.obj["home"]) as settings:
        yield settings


async def _checked(settings: Settings) -> None:
    """The partition count agrees with the data's, before anything reads or writes it."""
    redis = compose.redis_client(settings)
    try:
        await check_partitions(redis, settings.partitions)
    finally:
        await redis.aclose()


@main.command()
@click.option("--commands/--no-commands", default=True, help="Run the command service.")
@click.option("--projector/--no-projector", default=True, help="Run the projector.")
@click.option(
    "--projector-partitions",
    default="",
    envvar="TABLETOP_PROJECTOR_PARTITIONS",
    help="Partitions this projector follows, e.g. 0-7 (default: all).",
)
@click.option(
    "--command-partitions",
    default="",
    envvar="TABLETOP_COMMAND_PARTITIONS",
    help="Partitions whose commands this service takes, e.g. 0-7 (default: all).",
)
@click.option("--gateway/--no-gateway", default=True, help="Serve the players' gateway.")
@click.option(
    "--scheduler/--no-scheduler",
    default=True,
    help="Run the turn clocks' scheduler (sends TimeExpired when a seat's time runs out).",
)
@click.option(
    "--scheduler-partitions",
    default="",
    envvar="TABLETOP_SCHEDULER_PARTITIONS",
    help="Partitions whose clocks this scheduler keeps, e.g. 0-7 (default: all).",
)
@click.option(
    "--archiver/--no-archiver",
    default=True,
    help="Archive finished matches past the retention and trim what is read (one is enough).",
)
@port_option("The gateway's port")
@click.option(
    "--gateway-processes",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    envvar="TABLETOP_GATEWAY_PROCESSES",
    help="Gateway processes sharing the port (Linux SO_REUSEPORT).",
)
@click.pass_context
def serve(
    ctx: click.Context,
    commands: bool,
    projector: bool,
    projector_partitions: str,
    command_partitions: str,
    gateway: bool,
    scheduler: bool,
    scheduler_partitions: str,
    archiver: bool,
    port: int,
    gateway_processes: int,
) -> None:
    """Run the command service, the projector and the gateway until interrupted.

    Several processes may share the work. Command services on the same partitions split
    their commands through the consumer group (any one may take any command, at the
    cost of version conflicts); given partitions of their own (--command-partitions),
    each match stays with one service. Projectors split the partitions. The gateway runs
    as --gateway-processes processes on one port; any of them serves any player. One
    archiver is enough for the whole deployment (two would do the same work twice,
    harmlessly). Schedulers split the partitions like projectors (two on one partition
    send each expiry twice, which the rules refuse the second time).
    TABLETOP_METRICS_PORT opens /metrics, /healthz and /readyz on a port of
    their own. TABLETOP_WEBHOOK_URL (with TABLETOP_WEBHOOK_SECRET) starts the webhook
    sender, which POSTs every notice to a player, signed (docs/tables.md). A process
    with neither the command service nor the gateway gives way to them on shared cores:
    it lowers its CPU priority by TABLETOP_BACKGROUND_NICE (default 10; 0: not).
    """
    if not commands and not projector and not gateway and not archiver and not scheduler:
        raise click.UsageError(
            "--no-commands, --no-projector, --no-gateway, --no-scheduler and --no-archiver "
            "leave nothing to serve"
        )
    total = Settings.from_env("unix://").partitions
    owned = (
        _partition_list(command_partitions, total, "'--command-partitions'")
        if command_partitions
        else None
    )
    followed = _partition_list(projector_partitions, total, "'--projector-partitions'")
    clocked = _partition_list(scheduler_partitions, total, "'--scheduler-partitions'")
    from services.webhooks.service import WebhookConfig

    hooks = WebhookConfig.from_env()  # a wrong setting is said before anything starts
    if gateway:
        from services.gateway.app import GatewayConfig

        web_config = GatewayConfig.from_env()  # so is the gateway's; one secret for all

    async def run(settings: Settings) -> None:
        settings.command_partitions = owned
        redis = compose.redis_client(settings)
        # With the shipped ACLs the projector reads the logs as another user than the
        # one that writes the read models (deploy/users.md).
        log_url = os.environ.get("TABLETOP_LOG_URL")
        events = compose.redis_client(settings, url=log_url) if log_url else redis
        service = None
        follower = None
        web = None
        keeper = None
        timer = None
        probe = None
        rematches = None
        rematch_client = None
        sender = None

        async def ready() -> bool:
            await redis.ping()
            return (
                (not commands or service is not None)
                and (not projector or follower is not None)
                and (not archiver or keeper is not None)
                and (not scheduler or timer is not None)
            )

        try:
            if not commands and not gateway:
                log.info("process_gives_way", nice=compose.give_way(settings))
            if settings.metrics_port is not None:
                from services.infra.metrics import MetricsServer

                probe = MetricsServer(settings.metrics_host, settings.metrics_port, ready)
                await probe.start()
                console.print(f"metrics on {probe.url}/metrics")
            await check_partitions(redis, settings.partitions)
            if commands:
                service = compose.command_service(settings)
                await service.start()
                log.info("service_started", service="commands", partitions=settings.owned)
                # Beside the commands, on their partitions: the agreed rematches opened.
                rematch_client = compose.client(settings)
                await rematch_client.__aenter__()
                rematches = compose.rematcher(settings, redis, rematch_client)
                rematches.start()
            if projector:
                follower = compose.projector(settings, redis, partitions=followed, events=events)
                follower.start()
                log.info("service_started", service="projector", partitions=followed)
            if gateway:
                web = _gateway_server(settings, web_config, port, processes=gateway_processes)
                # A port in use raises GatewayCannotListen: what runs is stopped below.
                await web.start()
                log.info(
                    "service_started", service="gateway", url=web.url, processes=gateway_processes
                )
            if scheduler:
                timer = compose.scheduler(settings, redis, partitions=clocked)
                timer.start()
                log.info("service_started", service="scheduler", partitions=clocked)
            if archiver:
                keeper = compose.archiver(settings)
                keeper.start()
                log.info("service_started", service="archiver", where=settings.archive)
            if hooks is not None:
                sender = compose.webhooks(settings, hooks)
                await sender.start()
                log.info("service_started", service="webhooks", url=hooks.url)
            collector.settle()  # once everything has started
            console.print(
                f"[green]serving[/] on {settings.redis_url} (commands: {commands}, projector: "
                f"{projector}, gateway: {web.url if web else False}, scheduler: {scheduler}, "
                f"archiver: {archiver});"
                " Ctrl-C stops"
            )
            stop = asyncio.Event()
            for sig in (signal.SIGINT, signal.SIGTERM):
                asyncio.get_running_loop().add_signal_handler(sig, stop.set)
            await stop.wait()  # a clean stop, so the embedded Redis is shut down too
        finally:
            # Every part is stopped, and its tasks ended, while the event loop still
            # runs; one that fails to stop must not leave the others running into the
            # loop's end (their coroutines would then be torn down without a loop).
            # Callbacks run last pushed first: probe, archiver, gateway, projector,
            # commands, then the clients.
            async with contextlib.AsyncExitStack() as stopping:
                if events is not redis:
                    stopping.push_async_callback(events.aclose)
                stopping.push_async_callback(redis.aclose)
                if service is not None:
                    stopping.push_async_callback(_stopped, "commands", service.stop)
                if rematch_client is not None:
                    stopping.push_async_callback(rematch_client.redis.aclose)
                    stopping.push_async_callback(rematch_client.close)
                if rematches is not None:
                    stopping.push_async_callback(_stopped, "rematch", rematches.stop)
                if follower is not None:
                    stopping.push_async_callback(_stopped, "projector", follower.stop)
                if timer is not None:
                    stopping.push_async_callback(_stopped, "scheduler", timer.stop)
                if web is not None:
                    stopping.push_async_callback(web.stop)
                if keeper is not None:
                    stopping.push_async_callback(_stopped, "archiver", keeper.stop)
                if sender is not None:
                    stopping.push_async_callback(_stopped, "webhooks", sender.stop)
                if probe is not None:
                    stopping.push_async_callback(probe.stop)

    with _settings(ctx) as settings, contextlib.suppress(KeyboardInterrupt):
        loop.run(run(settings))


async def _stopped(name: str, stop: Callable[[], Awaitable[None]]) -> None:
    await stop()
    log.info("service_stopped", service=name)


def _gateway_server(
    settings: Settings, config: GatewayConfig, port: int, processes: int = 1
) -> Any:
    from services.gateway.processes import GatewayProcesses
    from services.gateway.server import GatewayServer

    # In a container the gateway must listen beyond loopback (deploy/compose.yaml).
    host = os.environ.get("TABLETOP_GATEWAY_HOST", "127.0.0.1")
    if processes > 1:
        level = level_from_env("INFO")
        return GatewayProcesses(settings, config, processes, host, port, level)
    return GatewayServer(compose.gateway(settings, config), host, port)


DEFAULT_DEMO = {"game": "chicken", "players": 3}


def _demo_options(game: str, seats: int, options_json: str) -> dict[str, Any]:
    """The options as the domain would take them, or a usage error saying why not."""
    try:
        options = json.loads(options_json)
    except ValueError as err:
        raise click.BadParameter(f"not JSON ({err})", param_hint="'--options'") from None
    if not isinstance(options, dict):
        raise click.BadParameter(
            "give a JSON object, e.g. '{\"eggspansion\": true}'", param_hint="'--options'"
        )
    try:
        m.create(None, m.CreateMatch(game=game, seats=seats, options=options))
    except Rejected as err:
        hint = "'--players'" if err.code == "bad_seat_count" else "'--options'"
        raise click.BadParameter(err.message, param_hint=hint) from None
    return options


@main.command()
@click.option("--game", default=DEFAULT_DEMO["game"], show_default=True)
@click.option(
    "--players", type=click.IntRange(min=1), default=None, help="Seats (default: a sensible count)."
)
@click.option("--seed", type=int, default=None, help="Match seed (default: drawn by the referee).")
@click.option("--options", "options_json", default="{}", help="Game options as JSON.")
@click.option("--quiet", is_flag=True, help="Only the result.")
@click.option("--web", is_flag=True, help="Serve the web table instead: play against bots.")
@port_option("With --web, the web port")
@click.pass_context
def demo(
    ctx: click.Context,
    game: str,
    players: int | None,
    seed: int | None,
    options_json: str,
    quiet: bool,
    web: bool,
    port: int,
) -> None:
    """Play a whole match with random bots through the real streams, move by move."""
    if web:
        _demo_web(ctx, game, port)
        return
    chosen = get_game(_known_game(game, "'--game'"))
    seats = players if players is not None else max(chosen.min_players, min(3, chosen.max_players))
    options = _demo_options(game, seats, options_json)
    with _settings(ctx) as settings:
        code = asyncio.run(_demo(settings, game, seats, seed, options, quiet))
    sys.exit(code)


def _demo_web(ctx: click.Context, game: str, port: int) -> None:
    """The whole house in this process, dev sign-in on: a person signs in by name and
    quick-plays; bots fill the other seats after a few seconds."""
    from services.infra.logging import configure

    configure(level=os.environ.get("TABLETOP_LOG", "WARNING"))
    os.environ.setdefault("TABLETOP_QUICKPLAY_WAIT", "3")
    # One process, its tokens its own: a secret of this run's, without the warning that
    # tells `serve`'s operator that several gateways would not share it.
    os.environ.setdefault("TABLETOP_GATEWAY_SECRET", secrets.token_urlsafe(32))
    from services.gateway.app import GatewayConfig

    config = GatewayConfig.from_env()  # a wrong setting is said before anything starts
    config.dev_signin = True

    async def run(settings: Settings) -> None:
        from services.gateway.stack import Stack

        await _checked(settings)
        stack = await Stack(settings, config, port=port).start()
        console.print(
            f"[bold]Open {stack.url}/[/] — sign in with any name, pick {game} and press "
            "Quick play; bots take the empty seats. Ctrl-C stops."
        )
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            asyncio.get_running_loop().add_signal_handler(sig, stop.set)
        try:
            await stop.wait()
        finally:
            await stack.stop()

    with _settings(ctx) as settings, contextlib.suppress(KeyboardInterrupt):
        loop.run(run(settings))


async def _demo(
    settings: Settings,
    game: str,
    seats: int,
    seed: int | None,
    options: dict[str, Any],
    quiet: bool,
) -> int:
    from services.client.bots import NAMES, play_match
    from services.client.client import CommandRejected
    from services.readside.audit import audit

    await _checked(settings)
    # The demo runs its own referee, so it may choose the deal when asked to.
    settings.trust_seeds = settings.trust_seeds or seed is not None
    service = compose.command_service(settings)
    await service.start()
    projector = compose.projector(settings, service.redis)
    projector.start()
    log.info("service_started", service="demo", game=game, seed=seed)
    names = list(NAMES[:seats])
    title = get_game(game).title
    chosen = f" — seed {seed}" if seed is not None else ""
    console.print(f"[bold]{title}[/] — {', '.join(names)}{chosen} — redis {settings.redis_url}")

    def show(state: m.MatchState, new: Sequence[Envelope]) -> None:
        if quiet:
            return
        codec = m.codec(state.game)
        for env in new:
            event = m.redact(state.game, codec.decode(bytes(env.payload)), None)
            if event is None:
                continue
            text = m.describe(state.game, event, None, names)
            console.print(f"[dim]{env.version:>4}[/]  {text}")

    try:
        async with compose.client(settings) as client:
            match_id, live = await play_match(
                client,
                service.store,
                game,
                players=names,
                seed=seed,
                options=options,
                on_events=show,
            )
        result = await audit(service.store, match_id)
        await projector.stop()
        await projector.catch_up()
        history = await compose.read_models(settings, service.redis).history(match_id, None)
    except CommandRejected as err:
        raise click.ClickException(f"the match could not be played: {err.reply.message}") from None
    finally:
        await projector.stop()
        await service.stop()
        log.info("service_stopped", service="demo")
    outcome = live.state.outcome
    assert outcome is not None
    table = Table("rank", "player", "score", title=f"{title}: final ranking")
    for seat in sorted(range(seats), key=lambda s: (outcome.ranks[s], s)):
        table.add_row(str(outcome.ranks[seat]), names[seat], str(outcome.scores[seat]))
    console.print(table)
    console.print(
        f"match {match_id}: {live.state.version} events; "
        f"won by {', '.join(names[s] for s in outcome.winners)}; "
        f"history: {len(history)} lines"
    )
    console.print(result.line())
    return 0 if result.status == "ok" else 1


def _dump(value: Any) -> str:
    # Through msgspec's own encoder: read models carry raw JSON (msgspec.Raw) inside.
    return json.dumps(json.loads(msgspec.json.encode(value)), indent=2)


# --- reading: lobby, show, history, leaderboard ------------------------------------------


def _run(ctx: click.Context, work: Any) -> Any:
    """Run `work(redis, settings)` against the configured (or embedded) Redis."""

    async def go(settings: Settings) -> Any:
        redis = compose.redis_client(settings)
        try:
            await check_partitions(redis, settings.partitions)
            return await work(redis, settings)
        finally:
            await redis.aclose()

    with _settings(ctx) as settings:
        return asyncio.run(go(settings))


async def _caught_up(redis: Any, settings: Settings) -> ReadModels:
    """Read models are kept by the projector (`tabletop serve`); a reader only reads them
    (the reader role may not read the log). An embedded server lives for this command
    alone, with no projector beside it: there the CLI applies what is pending first."""
    if not os.environ.get("TABLETOP_REDIS_URL"):
        await compose.projector(settings, redis).catch_up()
    return compose.read_models(settings, redis)


class SeatParam(click.ParamType[Any, Any]):
    """A seat as people number it (1, 2, ...) or `spectator`; given to code 0-based."""

    name = "seat"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value is None or isinstance(value, int):
            return value
        if str(value).lower() == "spectator":
            return None
        try:
            number = int(value)
        except ValueError:
            self.fail(f"{value!r} is not a seat: give a seat number (1, 2, ...) or spectator")
        if number < 1:
            self.fail(f"{value!r}: seats are numbered from 1")
        return number - 1


def _check_seat(seat: int | None, seats: int) -> None:
    """A seat the match has, or a usage error that says which it has."""
    if seat is not None and seat >= seats:
        raise click.BadParameter(
            f"seat {seat + 1}: this match has {seats} seats, give 1-{seats} or spectator",
            param_hint="'--as'",
        )


AS_HELP = "Read as this seat (1-based) or 'spectator' (default)."


def _winners(summary: Any) -> str:
    """The finished match's winners by name (rank 1), for a person."""
    if not summary.ranks:
        return "-"
    names = m.seat_names(summary.players)
    best = min(summary.ranks)
    return "won by " + ", ".join(n for n, r in zip(names, summary.ranks, strict=False) if r == best)


@main.command()
@click.argument("game", required=False)
@click.option(
    "--status", type=click.Choice(["lobby", "playing", "finished", "closed"]), default=None,
    help="Only matches with this status (default: the first three; closed: tables closed "
    "before their match began).",
)  # fmt: skip
@click.option(
    "--page", type=click.IntRange(min=1), default=1, show_default=True,
    help="Page of each status, newest first; the first page is 1.",
)  # fmt: skip
@click.option(
    "--size", type=click.IntRange(1, 1000), default=20, show_default=True,
    help="Matches per page.",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def lobby(
    ctx: click.Context, game: str | None, status: str | None, page: int, size: int, as_json: bool
) -> None:
    """Open matches, matches in play and finished ones, newest first."""
    if game is not None:
        _known_game(game, "'GAME'")

    async def work(redis: Any, settings: Settings) -> dict[str, Any]:
        models = await _caught_up(redis, settings)
        statuses = [status] if status else ["lobby", "playing", "finished"]
        return {s: await models.lobby(game, s, page - 1, size) for s in statuses}

    found = _run(ctx, work)
    if as_json:
        click.echo(_dump(found))
        return
    for status_name, rows in found.items():
        last = "winner" if status_name == "finished" else "to act"
        table = Table(title=f"{status_name} (page {page})")
        # The id is what people copy: never wrapped or cut, whatever the width.
        table.add_column("match", no_wrap=True, min_width=16)
        table.add_column("game", overflow="fold")
        table.add_column("players", overflow="fold")
        table.add_column("version", justify="right")
        table.add_column(last, overflow="fold")
        for r in rows:
            extra = _winners(r) if status_name == "finished" else ", ".join(r.to_act) or "-"
            players = ", ".join(p or "-" for p in r.players)
            if r.free_seats:
                players += f" ({r.free_seats} free)"
            table.add_row(r.match_id, r.game, players, str(r.version), extra)
        console.print(table)


@main.command()
@click.argument("match_id")
@click.option("--as", "as_seat", type=SeatParam(), default=None, help=AS_HELP)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def show(ctx: click.Context, match_id: str, as_seat: int | None, as_json: bool) -> None:
    """A match's summary and the table as a seat (or a spectator) sees it."""

    async def work(redis: Any, settings: Settings) -> Any:
        models = await _caught_up(redis, settings)
        summary = await models.summary(match_id)
        if summary is None:
            return None, None
        _check_seat(as_seat, summary.seats)
        return summary, await models.view(match_id, as_seat)

    summary, view = _run(ctx, work)
    if summary is None:
        raise click.ClickException(f"no match {match_id}")
    if as_json:
        click.echo(json.dumps({"summary": msgspec.to_builtins(summary), "view": view}, indent=2))
        return
    console.print(
        f"[bold]{summary.title}[/] {match_id} — {summary.status}, "
        f"version {summary.version}, players {', '.join(p or '-' for p in summary.players)}"
    )
    if summary.to_act:
        console.print(f"to act: {', '.join(summary.to_act)}")
    if summary.rematch_of:
        console.print(f"rematch of: {summary.rematch_of}")
    if summary.rematch:
        console.print(f"rematch: {summary.rematch}")
    if summary.ranks:
        names = m.seat_names(summary.players)
        console.print(
            _winners(summary)
            + "; "
            + ", ".join(f"{n} {s}" for n, s in zip(names, summary.scores, strict=False))
        )
    console.print_json(json.dumps(view))


@main.command()
@click.argument("match_id")
@click.option("--as", "as_seat", type=SeatParam(), default=None, help=AS_HELP)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def history(ctx: click.Context, match_id: str, as_seat: int | None, as_json: bool) -> None:
    """The moves of a match, numbered, as a seat (or a spectator) may see them."""

    async def work(redis: Any, settings: Settings) -> Any:
        # Told from the match's events (a history is not projected), so no catching up.
        found = await compose.read_models(settings, redis).recorded(match_id)
        if found is None:
            return None
        _check_seat(as_seat, found.state.seats)
        return told(found, as_seat)

    lines = _run(ctx, work)
    if lines is None:
        raise click.ClickException(f"no match {match_id}")
    if as_json:
        click.echo(_dump(lines))
        return
    for line in lines:
        console.print(f"[dim]{line.version:>4}[/]  {line.text}")


@main.command("signout")
@click.argument("player_id")
@click.pass_context
def signout(ctx: click.Context, player_id: str) -> None:
    """End every sign-in of a player's so far (a ban, a copied token): the gateways refuse
    their tokens, and close their sockets, within a second."""
    import re

    from services.gateway.signouts import Signouts
    from services.gateway.tokens import ID_PATTERN, TOKEN_TTL

    if not re.fullmatch(ID_PATTERN, player_id):
        raise click.BadParameter(
            f"{player_id!r} is no player id: 1-64 letters, digits or _.:@-",
            param_hint="'PLAYER_ID'",
        )

    async def work(redis: Any, settings: Settings) -> int:
        # Keeping what the gateways' tokens may still need: the append trims the rest.
        return await Signouts(redis, keep_seconds=TOKEN_TTL).end(player_id)

    at = _run(ctx, work)
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(at / 1000))
    click.echo(f"Ended the sign-ins of {player_id} as of {when}: they must sign in again.")


@main.command()
@click.argument("game")
@click.option(
    "--top", type=click.IntRange(min=1), default=20, show_default=True, help="Players shown."
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def leaderboard(ctx: click.Context, game: str, top: int, as_json: bool) -> None:
    """Players of a game by rating (openskill, Plackett-Luce; ordinal = mu - 3 sigma)."""
    _known_game(game, "'GAME'")

    async def work(redis: Any, settings: Settings) -> Any:
        return await (await _caught_up(redis, settings)).leaderboard(game, top)

    rows = _run(ctx, work)
    if as_json:
        click.echo(
            json.dumps(
                [
                    {
                        "player": n,
                        "rating": r.ordinal,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "played": r.played,
                        "won": r.won,
                    }
                    for n, r in rows
                ],
                indent=2,
            )
        )
        return
    table = Table("#", "player", "rating", "played", "won", title=f"{game} leaderboard")
    for i, (name, r) in enumerate(rows, 1):
        table.add_row(str(i), name, f"{r.ordinal:.2f}", str(r.played), str(r.won))
    console.print(table)


@main.group()
def projections() -> None:
    """Operate the read models."""


@projections.command("rebuild")
@click.argument("name", required=False, type=click.Choice(["matches", "ratings"]))
@click.option(
    "--workers",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Processes rebuilding the matches, this one among them, each taking the next "
    "partition (0: one per core, or one for a short log).",
)
@click.pass_context
def projections_rebuild(ctx: click.Context, name: str | None, workers: int) -> None:
    """Drop a read model (default: all) and rebuild it from the start of the logs."""
    from rich.progress import Progress

    from services.readside.rebuild import RebuildFailed, rebuild_apart, workers_for

    async def log_entries(settings: Settings) -> int:
        redis = compose.redis_client(settings)
        try:
            await check_partitions(redis, settings.partitions)
            return sum([int(await redis.xlen(Keys(p).log)) for p in range(settings.partitions)])
        finally:
            await redis.aclose()

    async def alone(settings: Settings, which: str, advance: Callable[[int], None]) -> int:
        redis = compose.redis_client(settings)
        try:
            return await compose.projector(settings, redis).rebuild(which, progress=advance)
        finally:
            await redis.aclose()

    done: dict[str, int] = {}
    with _settings(ctx) as settings, Progress(console=console) as progress:
        total = asyncio.run(log_entries(settings))
        for which in [name] if name else ["matches", "ratings"]:
            task = progress.add_task(f"rebuilding {which}", total=total)

            def advance(n: int, t: Any = task) -> None:
                progress.advance(t, n)

            # Ratings fold every partition in one order: one process, this one.
            hands = (workers or workers_for(total)) if which == "matches" else 1
            if hands > 1:
                try:
                    level = level_from_env("WARNING")
                    done[which] = rebuild_apart(settings, which, hands, advance, level)
                except RebuildFailed as err:
                    raise click.ClickException(f"rebuilding {which} failed: {err}") from None
            else:
                done[which] = asyncio.run(alone(settings, which, advance))
            progress.update(task, completed=total)
    for which, n in done.items():
        console.print(f"rebuilt {which}: {n} events applied")


@projections.command("status")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def projections_status(ctx: click.Context, as_json: bool) -> None:
    """Projection lag per partition: events and milliseconds behind the log."""

    async def work(redis: Any, settings: Settings) -> Any:
        return await compose.projector(settings, redis).lag()

    rows = _run(ctx, work)
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    table = Table("partition", "projection", "events behind", "ms behind")
    for r in rows:
        table.add_row(
            str(r["partition"]), r["projection"], str(r["events_behind"]), str(r["ms_behind"])
        )
    console.print(table)


@main.command("adopt-waiting-tables")
@click.pass_context
def adopt_waiting_tables(ctx: click.Context) -> None:
    """Hand the scheduler the tables waiting for players that it has never seen.

    The scheduler learns waiting tables from the log as they are opened, joined and
    left; a table opened before it closed idle tables (before an upgrade) would wait for
    ever. Run this once after upgrading: each such table closes once nothing has
    happened at it for TABLETOP_TABLE_IDLE_S, as any other does."""

    async def work(redis: Any, settings: Settings) -> tuple[int, int, int] | None:
        if not settings.table_idle_ms:
            return None
        models = await _caught_up(redis, settings)
        scheduler = compose.scheduler(settings, redis)
        adopted = waiting = 0
        for p in range(settings.partitions):
            keys = Keys(p)
            found: list[tuple[str, int, int]] = []
            for scope in ("*", UNLISTED):  # an unlisted table is in no game's lobby
                for member in await redis.zrange(keys.lobby("lobby", scope), 0, -1):
                    summary = await models.summary(member.decode())
                    if summary is not None and summary.status == "lobby":
                        found.append((summary.match_id, summary.version, summary.updated_at))
            adopted += await scheduler.adopt(p, found)
            waiting += len(found)
        return adopted, waiting, settings.table_idle_ms // 1000

    counted = _run(ctx, work)
    if counted is None:
        click.echo("TABLETOP_TABLE_IDLE_S is 0: tables wait for ever, so none is adopted.")
        return
    adopted, waiting, seconds = counted
    idle = f"{seconds / 3600:g} h" if seconds >= 3600 else f"{seconds} s"
    click.echo(
        f"{adopted} waiting table{'s' if adopted != 1 else ''} adopted, "
        f"{waiting - adopted} known already; each closes after {idle} with nothing happening."
    )


# --- replay, audit, export, import, fork ----------------------------------------------------


def _store(redis: Any, settings: Settings) -> Any:
    return compose.event_store(settings, redis)


def _check_version(version: int | None, last: int, param: str) -> None:
    if version is not None and not 1 <= version <= last:
        raise click.BadParameter(
            f"{version}: this match has versions 1 to {last}", param_hint=f"'{param}'"
        )


@main.command()
@click.argument("match_id")
@click.option(
    "--to", "to_version", type=int, default=None, help="Stop at this version (1 = the first event)."
)
@click.option("--as", "as_seat", type=SeatParam(), default=None, help=AS_HELP)
@click.option("--step", is_flag=True, help="Walk the match event by event (Enter: next, q: quit).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def replay(
    ctx: click.Context,
    match_id: str,
    to_version: int | None,
    as_seat: int | None,
    step: bool,
    as_json: bool,
) -> None:
    """The match (or a seat's view of it) at any version, folded from the log."""
    from services.readside.audit import replay as replay_match

    async def work(redis: Any, settings: Settings) -> Any:
        return await replay_match(_store(redis, settings), match_id)

    frames = _run(ctx, work)
    if not frames:
        raise click.ClickException(f"no match {match_id}")
    _check_version(to_version, len(frames), "--to")
    frames = frames[:to_version]
    _check_seat(as_seat, frames[-1][1].seats)
    if step:
        try:
            _step_through(frames, as_seat)
        except KeyboardInterrupt:
            click.echo("\nstopped", err=True)
            sys.exit(130)
        if not as_json:
            return
    click.echo(json.dumps(m.view(frames[-1][1], as_seat), indent=2))


def _step_through(frames: Sequence[tuple[Envelope, m.MatchState]], seat: int | None) -> None:
    """Each event the reader may see, the table after it, then a prompt: Enter goes on,
    q (or the end of the input) stops."""
    names = m.seat_names(frames[-1][1].players)
    shown = [(env, after) for env, after in frames if _visible(env, after, seat) is not None]
    for i, (env, after) in enumerate(shown):
        event = _visible(env, after, seat)
        console.print(f"[bold]{env.version:>4}[/]  {m.describe(after.game, event, seat, names)}")
        _print_view(m.view(after, seat))
        if i == len(shown) - 1:
            console.print(f"[dim]end of the match at version {env.version}[/]")
            return
        console.print(f"[dim]{i + 1}/{len(shown)} · Enter: next · q: quit[/] ", end="")
        answer = sys.stdin.readline()
        if not answer or answer.strip().lower() in ("q", "quit"):
            console.print("")
            return


def _visible(env: Envelope, after: m.MatchState, seat: int | None) -> Any:
    return m.redact(after.game, m.codec(after.game).decode(bytes(env.payload)), seat)


def _print_view(view: dict[str, Any]) -> None:
    """A view as rows of name and compact JSON, readable at any width."""
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="dim", no_wrap=True)
    table.add_column(overflow="fold")
    for key, value in _flat(view):
        table.add_row(key, json.dumps(value, separators=(", ", ": ")))
    console.print(table)


def _flat(view: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in view.items():
        if isinstance(value, dict) and value and len(prefix) < 40:
            yield from _flat(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


@main.command("audit")
@click.argument("match_id", required=False)
@click.option("--all", "audit_all", is_flag=True, help="Audit every match.")
@click.option(
    "--history",
    "history",
    type=click.File("rb"),
    default=None,
    help="Check an exported public history instead (export --as): the revealed seed "
    "against its commitment, then every draw re-derived.",
)
@click.pass_context
def audit_cmd(ctx: click.Context, match_id: str | None, audit_all: bool, history: Any) -> None:
    """Check the hash chain, re-run the recorded commands, compare the events byte for byte."""
    from services.readside.audit import audit, audit_history

    if history is not None:
        checked = audit_history([line.rstrip(b"\n") for line in history if line.strip()])
        click.echo(checked.line())
        sys.exit(0 if checked.status in ("ok", "skipped") else 1)
    if not match_id and not audit_all:
        raise click.UsageError("name a MATCH or give --all")

    async def work(redis: Any, settings: Settings) -> Any:
        store = _store(redis, settings)
        # Without --all a MATCH was given (checked above).
        ids = await store.match_ids() if audit_all else [cast(str, match_id)]
        return [await audit(store, mid) for mid in ids]

    results = _run(ctx, work)
    for r in results:
        click.echo(r.line())
    if any(r.status not in ("ok", "skipped") for r in results):
        sys.exit(1)


@main.command("export")
@click.argument("match_id")
@click.option(
    "--as",
    "reader",
    default=None,
    help="A player-facing history instead: as seat N (1-based) or `spectator`; no seed "
    "until the finish.",
)
@click.pass_context
def export_cmd(ctx: click.Context, match_id: str, reader: str | None) -> None:
    """Write a match as schema-versioned JSON lines to standard output."""
    from services.readside.audit import export_history, export_match

    seat: int | None = None
    if reader is not None and reader != "spectator":
        if not reader.isdigit() or int(reader) < 1:
            raise click.BadParameter("a seat number from 1, or `spectator`", param_hint="--as")
        seat = int(reader) - 1

    async def work(redis: Any, settings: Settings) -> Any:
        store = _store(redis, settings)
        if reader is None:
            return await export_match(store, match_id)
        return await export_history(store, match_id, seat)

    try:
        lines = _run(ctx, work)
    except LookupError as err:
        raise click.ClickException(str(err)) from None
    out = sys.stdout.buffer
    for line in lines:
        out.write(line + b"\n")
    out.flush()


@main.command("import")
@click.argument("path", type=click.File("rb"))
@click.pass_context
def import_cmd(ctx: click.Context, path: Any) -> None:
    """Append an exported match to this store (refuses a broken chain or an existing id)."""
    from services.readside.audit import import_match

    try:
        lines = [line.rstrip(b"\n") for line in path if line.strip()]
    except OSError as err:
        raise click.ClickException(f"cannot read {path.name}: {err.strerror or err}") from None
    if not lines:
        raise click.ClickException(f"{path.name} is empty: not a tabletop export")

    async def work(redis: Any, settings: Settings) -> Any:
        return await import_match(_store(redis, settings), lines)

    try:
        match_id = _run(ctx, work)
    except (ValueError, RuntimeError, msgspec.DecodeError) as err:
        raise click.ClickException(f"{path.name}: {_first_line(err)}") from None
    click.echo(f"imported match {match_id}: {len(lines) - 1} lines")


@main.command()
@click.argument("match_id")
@click.option(
    "--at", "at_version", type=int, required=True,
    help="The version to fork at; inside a move, the start of that move.",
)  # fmt: skip
@click.option("--id", "new_id", default=None, help="The new match's id (default: random).")
@click.option("--seed", type=int, default=None, help="The new match's seed (default: random).")
@click.pass_context
def fork(
    ctx: click.Context, match_id: str, at_version: int, new_id: str | None, seed: int | None
) -> None:
    """A new match from MATCH as it stood at a version: same seats, a fresh seed.

    Only a version between two moves is a state players acted in: a version inside a
    move (one command's several events) forks at the start of that move."""
    import uuid

    from services.readside.audit import fork_match

    target = new_id or uuid.uuid4().hex[:16]

    async def work(redis: Any, settings: Settings) -> Any:
        store = _store(redis, settings)
        last = await store.version(match_id)
        if not last:
            raise click.ClickException(f"no match {match_id}")
        _check_version(at_version, last, "--at")
        return await fork_match(store, match_id, at_version, target, seed)

    try:
        live = _run(ctx, work)
    except (LookupError, ValueError) as err:
        raise click.ClickException(str(err)) from None
    effective = live.state.version - 1  # the fork's own event follows the copied ones
    if effective != at_version:
        click.echo(f"version {at_version} is inside a move: forking at {effective}, where it began")
    click.echo(
        f"forked {match_id} at version {effective} into {target} (version {live.state.version})"
    )


def _register_bench() -> None:
    from bench import bench_command

    main.add_command(bench_command, name="bench")


_register_bench()
