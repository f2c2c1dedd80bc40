"""The `tabletop` command line."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import msgspec
from rich.console import Console
from rich.table import Table

from domain import match as m
from domain.kernel import games, get_game, options_schema
from events.envelope import Envelope
from services.config import Settings
from services.embedded import redis_url

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


@main.command("games")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def games_cmd(as_json: bool) -> None:
    """The registered games, their player counts, options and rules status."""
    rows = []
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


@main.command()
@click.pass_context
def serve(ctx: click.Context) -> None:
    """Run the command service (and the projector) until interrupted."""
    from services.logging import configure

    configure()

    async def run(url: str) -> None:
        from services.commands import CommandService

        service = CommandService(Settings.from_env(url))
        await service.start()
        console.print(f"[green]serving[/] on {url}; Ctrl-C stops")
        try:
            await asyncio.Event().wait()
        finally:
            await service.stop()

    with redis_url(ctx.obj["home"]) as url, contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(url))


DEFAULT_DEMO = {"game": "chicken", "players": 3}


@main.command()
@click.option("--game", default=DEFAULT_DEMO["game"], show_default=True)
@click.option("--players", type=int, default=None, help="Seats (default: a sensible count).")
@click.option("--seed", type=int, default=None, help="Match seed (default: random).")
@click.option("--options", "options_json", default="{}", help="Game options as JSON.")
@click.option("--quiet", is_flag=True, help="Only the result.")
@click.pass_context
def demo(
    ctx: click.Context,
    game: str,
    players: int | None,
    seed: int | None,
    options_json: str,
    quiet: bool,
) -> None:
    """Play a whole match with random bots through the real streams, move by move."""
    from services.logging import configure

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
    with redis_url(ctx.obj["home"]) as url:
        code = asyncio.run(_demo(url, game, seats, seed, options, quiet))
    sys.exit(code)


async def _demo(
    url: str, game: str, seats: int, seed: int, options: dict[str, Any], quiet: bool
) -> int:
    from services.bots import NAMES, play_match
    from services.client import TabletopClient
    from services.commands import CommandService

    settings = Settings.from_env(url)
    service = CommandService(settings)
    await service.start()
    names = list(NAMES[:seats])
    title = get_game(game).title
    console.print(f"[bold]{title}[/] — {', '.join(names)} — seed {seed} — redis {url}")

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
        async with TabletopClient.from_url(url, partitions=settings.partitions) as client:
            match_id, live = await play_match(
                client,
                service.store,
                game,
                players=names,
                seed=seed,
                options=options,
                on_events=show,
            )
    finally:
        await service.stop()
    outcome = live.state.outcome
    assert outcome is not None
    table = Table("rank", "player", "score", title=f"{title}: final ranking")
    for seat in sorted(range(seats), key=lambda s: (outcome.ranks[s], s)):
        table.add_row(str(outcome.ranks[seat]), names[seat], str(outcome.scores[seat]))
    console.print(table)
    console.print(
        f"match {match_id}: {live.state.version} events; "
        f"won by {', '.join(names[s] for s in outcome.winners)}"
    )
    return 0


def _dump(value: Any) -> str:
    return json.dumps(msgspec.to_builtins(value), indent=2)
