"""The `tabletop` command line."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypedDict, cast

import click
import msgspec
from rich.console import Console
from rich.table import Table

from domain import match as m
from domain.kernel import RulesStatus, games, get_game, options_schema
from events.envelope import Envelope
from events.keys import Keys
from services import compose
from services.infra.config import Settings
from services.readside.readmodels import ReadModels

console = Console(highlight=False)


@click.group()
@click.option(
    "--home",
    type=click.Path(path_type=Path),
    default=None,
    help="Data folder of the embedded Redis (default $TABLETOP_HOME or ./.tabletop).",
)
@click.pass_context
def main(ctx: click.Context, home: Path | None) -> None:
    """tabletop: turn-based board games on an event-sourced Redis log."""
    ctx.ensure_object(dict)
    ctx.obj["home"] = home


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
                "options": options_schema(game),
                "rules": game.rules_status,
                "rules_version": game.rules_version,
                "assumptions": list(game.assumptions),
            }
        )
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    table = Table("name", "title", "players", "options", "rules")
    for r in rows:
        opts = ", ".join(f"{o['name']}={o['default']}" for o in r["options"]) or "-"
        status = r["rules"] + (f" ({len(r['assumptions'])})" if r["assumptions"] else "")
        table.add_row(r["name"], r["title"], f"{r['min_players']}-{r['max_players']}", opts, status)
    console.print(table)


def _partition_list(spec: str, total: int) -> list[int]:
    """'0-7' or '0,2,4' -> partitions; '' -> all."""
    if not spec:
        return list(range(total))
    out: list[int] = []
    try:
        for part in spec.split(","):
            lo, _, hi = part.partition("-")
            out += list(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise click.BadParameter(f"{spec!r}: write partitions as 0-7 or 0,2,4") from None
    wrong = [p for p in out if not 0 <= p < total]
    if wrong or not out:
        raise click.BadParameter(f"{spec!r}: partitions run from 0 to {total - 1}")
    return sorted(set(out))


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
@click.option("--port", type=int, default=8000, show_default=True, help="The gateway's port.")
@click.pass_context
def serve(
    ctx: click.Context,
    commands: bool,
    projector: bool,
    projector_partitions: str,
    command_partitions: str,
    gateway: bool,
    port: int,
) -> None:
    """Run the command service and the projector until interrupted.

    Several processes may share the work. Command services on the same partitions split
    their commands through the consumer group (any one may take any command, at the
    cost of version conflicts); given partitions of their own (--command-partitions),
    each match stays with one service. Projectors split the partitions.
    """
    from services.infra.logging import configure

    configure()

    async def run(settings: Settings) -> None:
        if command_partitions:
            settings.command_partitions = _partition_list(command_partitions, settings.partitions)
        service = compose.command_service(settings) if commands else None
        if service is not None:
            await service.start()
        redis = compose.redis_client(settings)
        follower = None
        if projector:
            parts = _partition_list(projector_partitions, settings.partitions)
            follower = compose.projector(settings, redis, partitions=parts)
            follower.start()
        web = _gateway_server(settings, port) if gateway else None
        if web is not None:
            await web.start()
        console.print(
            f"[green]serving[/] on {settings.redis_url} (commands: {commands}, projector: "
            f"{projector}, gateway: {web.url if web else False}); Ctrl-C stops"
        )
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            asyncio.get_running_loop().add_signal_handler(sig, stop.set)
        try:
            await stop.wait()  # a clean stop, so the embedded Redis is shut down too
        finally:
            if web is not None:
                await web.stop()
            if follower is not None:
                await follower.stop()
            if service is not None:
                await service.stop()
            await redis.aclose()

    with compose.settings(ctx.obj["home"]) as settings, contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(settings))


def _gateway_server(settings: Settings, port: int, dev_signin: bool = False) -> Any:
    from services.gateway.app import GatewayConfig
    from services.gateway.server import GatewayServer

    config = GatewayConfig.from_env()
    config.dev_signin = config.dev_signin or dev_signin
    return GatewayServer(compose.gateway(settings, config), "127.0.0.1", port)


DEFAULT_DEMO = {"game": "chicken", "players": 3}


@main.command()
@click.option("--game", default=DEFAULT_DEMO["game"], show_default=True)
@click.option("--players", type=int, default=None, help="Seats (default: a sensible count).")
@click.option("--seed", type=int, default=None, help="Match seed (default: random).")
@click.option("--options", "options_json", default="{}", help="Game options as JSON.")
@click.option("--quiet", is_flag=True, help="Only the result.")
@click.option("--web", is_flag=True, help="Serve the web table instead: play against bots.")
@click.option("--port", type=int, default=8000, show_default=True, help="The web port (--web).")
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
    from services.infra.logging import configure

    configure(level=os.environ.get("TABLETOP_LOG", "WARNING"))
    try:
        chosen = get_game(game)
    except Exception:
        raise click.BadParameter(f"no game {game!r}; see `tabletop games`") from None
    seats = players or max(chosen.min_players, min(3, chosen.max_players))
    if not chosen.min_players <= seats <= chosen.max_players:
        raise click.BadParameter(
            f"{chosen.title} takes {chosen.min_players}-{chosen.max_players} players"
        )
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    options = json.loads(options_json)
    with compose.settings(ctx.obj["home"]) as settings:
        code = asyncio.run(_demo(settings, game, seats, seed, options, quiet))
    sys.exit(code)


def _demo_web(ctx: click.Context, game: str, port: int) -> None:
    """The whole house in this process, dev sign-in on: a person signs in by name and
    quick-plays; bots fill the other seats after a few seconds."""
    from services.infra.logging import configure

    configure(level=os.environ.get("TABLETOP_LOG", "WARNING"))
    os.environ.setdefault("TABLETOP_QUICKPLAY_WAIT", "3")

    async def run(settings: Settings) -> None:
        from services.gateway.app import GatewayConfig
        from services.gateway.stack import Stack

        config = GatewayConfig.from_env()
        config.dev_signin = True
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

    with compose.settings(ctx.obj["home"]) as settings, contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(settings))


async def _demo(
    settings: Settings, game: str, seats: int, seed: int, options: dict[str, Any], quiet: bool
) -> int:
    from services.client.bots import NAMES, play_match
    from services.readside.audit import audit

    service = compose.command_service(settings)
    await service.start()
    projector = compose.projector(settings, service.redis)
    projector.start()
    names = list(NAMES[:seats])
    title = get_game(game).title
    console.print(
        f"[bold]{title}[/] — {', '.join(names)} — seed {seed} — redis {settings.redis_url}"
    )

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
    finally:
        await projector.stop()
        await service.stop()
    outcome = live.state.outcome
    assert outcome is not None
    table = Table("rank", "player", "score", title=f"{title}: final ranking")
    for seat in sorted(range(seats), key=lambda s: (outcome.ranks[s], s)):
        table.add_row(str(outcome.ranks[seat]), names[seat], str(outcome.scores[seat]))
    console.print(table)
    console.print(
        f"match {match_id}: {live.state.version} events; "
        f"won by {', '.join(names[s] for s in outcome.winners)}; "
        f"history projected: {len(history)} lines"
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
            return await work(redis, settings)
        finally:
            await redis.aclose()

    with compose.settings(ctx.obj["home"]) as settings:
        return asyncio.run(go(settings))


async def _caught_up(redis: Any, settings: Settings) -> ReadModels:
    """Read models are eventually consistent; the CLI first applies what is pending."""
    await compose.projector(settings, redis).catch_up()
    return compose.read_models(settings, redis)


def _seat_option(value: str | None) -> int | None:
    if value is None or value == "spectator":
        return None
    return int(value) - 1


AS_HELP = "Read as this seat (1-based) or 'spectator' (default)."


@main.command()
@click.argument("game", required=False)
@click.option("--status", type=click.Choice(["lobby", "playing", "finished"]), default=None)
@click.option("--page", type=int, default=0)
@click.option("--size", type=int, default=20)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def lobby(
    ctx: click.Context, game: str | None, status: str | None, page: int, size: int, as_json: bool
) -> None:
    """Open matches, matches in play and finished ones, newest first."""

    async def work(redis: Any, settings: Settings) -> dict[str, Any]:
        models = await _caught_up(redis, settings)
        statuses = [status] if status else ["lobby", "playing", "finished"]
        return {s: await models.lobby(game, s, page, size) for s in statuses}

    found = _run(ctx, work)
    if as_json:
        click.echo(_dump(found))
        return
    for status_name, rows in found.items():
        table = Table(
            "match", "game", "players", "free", "version", "to act / ranks", title=status_name
        )
        for r in rows:
            extra = ", ".join(r.to_act) if status_name != "finished" else str(r.ranks)
            table.add_row(
                r.match_id,
                r.game,
                ", ".join(p or "-" for p in r.players),
                str(r.free_seats),
                str(r.version),
                extra,
            )
        console.print(table)


@main.command()
@click.argument("match_id")
@click.option("--as", "as_seat", default=None, help=AS_HELP)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def show(ctx: click.Context, match_id: str, as_seat: str | None, as_json: bool) -> None:
    """A match's summary and the table as a seat (or a spectator) sees it."""
    seat = _seat_option(as_seat)

    async def work(redis: Any, settings: Settings) -> Any:
        models = await _caught_up(redis, settings)
        return await models.summary(match_id), await models.view(match_id, seat)

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
    if summary.ranks:
        console.print(f"scores {summary.scores}, ranks {summary.ranks}")
    console.print_json(json.dumps(view))


@main.command()
@click.argument("match_id")
@click.option("--as", "as_seat", default=None, help=AS_HELP)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def history(ctx: click.Context, match_id: str, as_seat: str | None, as_json: bool) -> None:
    """The moves of a match, numbered, as a seat (or a spectator) may see them."""
    seat = _seat_option(as_seat)

    async def work(redis: Any, settings: Settings) -> Any:
        return await (await _caught_up(redis, settings)).history(match_id, seat)

    lines = _run(ctx, work)
    if not lines:
        raise click.ClickException(f"no history for match {match_id}")
    if as_json:
        click.echo(_dump(lines))
        return
    for line in lines:
        console.print(f"[dim]{line.version:>4}[/]  {line.text}")


@main.command()
@click.argument("game")
@click.option("--top", type=int, default=20)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def leaderboard(ctx: click.Context, game: str, top: int, as_json: bool) -> None:
    """Players of a game by rating (openskill, Plackett-Luce; ordinal = mu - 3 sigma)."""

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
@click.pass_context
def projections_rebuild(ctx: click.Context, name: str | None) -> None:
    """Drop a read model (default: all) and rebuild it from the start of the logs."""
    from rich.progress import Progress

    async def work(redis: Any, settings: Settings) -> dict[str, int]:
        total = sum([int(await redis.xlen(Keys(p).log)) for p in range(settings.partitions)])
        done: dict[str, int] = {}
        with Progress(console=console) as progress:
            for which in [name] if name else ["matches", "ratings"]:
                task = progress.add_task(f"rebuilding {which}", total=total)
                projector = compose.projector(settings, redis)
                # cast: mypy cannot type a lambda with a defaulted argument that the
                # expected Callable[[int], None] lacks.
                done[which] = await projector.rebuild(
                    which,
                    progress=cast(
                        "Callable[[int], None]", lambda n, t=task: progress.advance(t, n)
                    ),
                )
                progress.update(task, completed=total)
        return done

    for which, n in _run(ctx, work).items():
        console.print(f"rebuilt {which}: {n} events applied")


@projections.command("status")
@click.option("--json", "as_json", is_flag=True)
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


# --- replay, audit, export, import, fork ----------------------------------------------------


def _store(redis: Any, settings: Settings) -> Any:
    return compose.event_store(settings, redis)


@main.command()
@click.argument("match_id")
@click.option("--to", "to_version", type=int, default=None, help="Stop at this version.")
@click.option("--as", "as_seat", default=None, help=AS_HELP)
@click.option("--step", is_flag=True, help="Walk the match move by move (Enter = next).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def replay(
    ctx: click.Context,
    match_id: str,
    to_version: int | None,
    as_seat: str | None,
    step: bool,
    as_json: bool,
) -> None:
    """The match (or a seat's view of it) at any version, folded from the log."""
    from services.readside.audit import replay as replay_match

    seat = _seat_option(as_seat)

    async def work(redis: Any, settings: Settings) -> Any:
        return await replay_match(_store(redis, settings), match_id, to_version)

    frames = _run(ctx, work)
    if not frames:
        raise click.ClickException(f"no match {match_id}")
    state = frames[-1][1]
    names = m.seat_names(state.players)
    if step:
        for env, after in frames:
            event = m.codec(after.game).decode(bytes(env.payload))
            shown = m.redact(after.game, event, seat)
            if shown is not None:
                console.print(
                    f"[dim]{env.version:>4}[/]  {m.describe(after.game, shown, seat, names)}"
                )
                if sys.stdin.isatty():
                    click.pause(info="")
    if as_json or not step:
        click.echo(json.dumps(m.view(state, seat), indent=2))


@main.command("audit")
@click.argument("match_id", required=False)
@click.option("--all", "audit_all", is_flag=True, help="Every match in the store.")
@click.pass_context
def audit_cmd(ctx: click.Context, match_id: str | None, audit_all: bool) -> None:
    """Check the hash chain, re-run the recorded commands, compare the events byte for byte."""
    from services.readside.audit import audit

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
@click.pass_context
def export_cmd(ctx: click.Context, match_id: str) -> None:
    """Write a match as schema-versioned JSON lines to standard output."""
    from services.readside.audit import export_match

    async def work(redis: Any, settings: Settings) -> Any:
        return await export_match(_store(redis, settings), match_id)

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

    lines = [line.rstrip(b"\n") for line in path if line.strip()]

    async def work(redis: Any, settings: Settings) -> Any:
        return await import_match(_store(redis, settings), lines)

    try:
        match_id = _run(ctx, work)
    except (ValueError, RuntimeError, msgspec.DecodeError) as err:
        raise click.ClickException(str(err)) from None
    click.echo(f"imported match {match_id}: {len(lines) - 1} lines")


@main.command()
@click.argument("match_id")
@click.option("--at", "at_version", type=int, required=True)
@click.option("--id", "new_id", default=None, help="The new match's id (default: random).")
@click.option("--seed", type=int, default=None)
@click.pass_context
def fork(
    ctx: click.Context, match_id: str, at_version: int, new_id: str | None, seed: int | None
) -> None:
    """A new match from MATCH as it stood at a version: same seats, a fresh seed."""
    import uuid

    from services.readside.audit import fork_match

    target = new_id or uuid.uuid4().hex[:16]

    async def work(redis: Any, settings: Settings) -> Any:
        return await fork_match(_store(redis, settings), match_id, at_version, target, seed)

    try:
        live = _run(ctx, work)
    except (LookupError, ValueError) as err:
        raise click.ClickException(str(err)) from None
    click.echo(
        f"forked {match_id} at version {at_version} into {target} (version {live.state.version})"
    )


def _register_bench() -> None:
    from bench import bench_command

    main.add_command(bench_command, name="bench")


_register_bench()
