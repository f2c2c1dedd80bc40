"""`tabletop bench`: the command line of the benchmark (the CLI adds it lazily)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from bench.common import SECTIONS, BenchConfig, say
from bench.report import print_table, render_markdown
from bench.suite import run_all


def _sections(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str, ...]:
    if value is None:
        return ()
    chosen = tuple(x.strip() for x in value.split(",") if x.strip())
    unknown = [x for x in chosen if x not in SECTIONS]
    if unknown or not chosen:
        what = f"no section {', '.join(map(repr, unknown))}" if unknown else "name a section"
        raise click.BadParameter(f"{what}; the sections are {','.join(SECTIONS)}")
    return chosen


def _workers(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, ...]:
    if value is None:
        return ()
    try:
        counts = tuple(int(x) for x in value.split(",") if x.strip())
    except ValueError:
        counts = ()
    if not counts or min(counts) < 1:
        raise click.BadParameter(f"{value!r} is not a list of process counts, such as 1,2,4")
    return counts


def _repo_docs() -> Path | None:
    docs = Path(__file__).resolve().parent.parent / "docs"
    return docs if docs.is_dir() else None


@click.command("bench")
@click.option("--quick", is_flag=True, help="The same measurements, smaller (under a minute).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object, nothing else.")
@click.option("--game", default="chicken", show_default=True, help="Game of the end-to-end run.")
@click.option(
    "--matches",
    type=click.IntRange(min=1),
    default=None,
    help="Concurrent matches (default 1,000).",
)
@click.option(
    "--workers",
    default=None,
    callback=_workers,
    help="Command services for scale-out, e.g. 1,2,4.",
)
@click.option(
    "--only",
    default=None,
    callback=_sections,
    help=f"Sections: {','.join(SECTIONS)}.",
)
@click.option(
    "--raw-processes",
    type=click.IntRange(min=1),
    default=None,
    help="Drivers of the raw limit (default: four a core).",
)
@click.option("--profile", is_flag=True, help="py-spy the command service in the e2e run.")
@click.option(
    "--doc",
    "doc",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the results here (default: docs/benchmarks.md after a full run only).",
)
@click.option("--no-doc", is_flag=True, help="Do not write docs/benchmarks.md.")
def bench_command(
    quick: bool,
    as_json: bool,
    game: str,
    matches: int | None,
    workers: tuple[int, ...],
    only: tuple[str, ...],
    raw_processes: int | None,
    profile: bool,
    doc: Path | None,
    no_doc: bool,
) -> None:
    """Measure throughput, latency, limits and growth; print a table (or --json)."""
    from domain.kernel import games

    cfg = BenchConfig.quick_config() if quick else BenchConfig()
    if game not in games():
        raise click.BadParameter(f"no game {game!r}; see `tabletop games`")
    cfg.game = game
    chosen = games()[game]
    cfg.seats = max(chosen.min_players, min(cfg.seats, chosen.max_players))
    if matches:
        cfg.matches = matches
    if workers:
        cfg.workers = workers
    if only:
        cfg.sections = only
        # Scale-out's first row and the half-peak pace are the end-to-end run.
        needs_e2e = ("scale" in cfg.sections and 1 in cfg.workers) or "half" in cfg.sections
        if needs_e2e and "e2e" not in cfg.sections:
            cfg.sections = (*cfg.sections, "e2e")
    if raw_processes:
        cfg.raw_processes = raw_processes
    cfg.profile = profile
    result = run_all(cfg)
    # docs/benchmarks.md is the latest full run: a quick or partial one never replaces it.
    full = not quick and not only
    target = doc if doc is not None else (_repo_docs() if full and not no_doc else None)
    if target is not None and not no_doc:
        path = target / "benchmarks.md" if target.is_dir() else target
        path.write_text(render_markdown(result))
        say(f"wrote {path}")
    if as_json:
        click.echo(json.dumps(result, indent=2, default=str))
    else:
        print_table(result)
