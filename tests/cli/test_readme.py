"""The README's command table lists every command and every option click knows."""

from __future__ import annotations

import re
from pathlib import Path

import click

from services.cli.main import main

README = Path(__file__).parents[2] / "README.md"


def _documented() -> dict[str, set[str]]:
    """Each command row of the README's table: its command path and its option names."""
    text = README.read_text()
    section = text[text.index("## The command line") :]
    section = section[: section.index("\nConventions")]
    rows: dict[str, set[str]] = {}
    for line in section.splitlines():
        cell = line.split(" | ")[0]
        found = re.match(r"\| `tabletop ([^`]*)`", cell)
        if not found:
            continue
        words = found.group(1).split()
        path: list[str] = []
        group: click.Command = main
        while words and isinstance(group, click.Group) and words[0] in group.commands:
            group = group.commands[words[0]]
            path.append(words.pop(0))
        rows[" ".join(path)] = set(re.findall(r"--[a-z][a-z-]*", " ".join(words)))
    return rows


def _known() -> dict[str, set[str]]:
    """Every command click runs (and the group itself): its long option names."""
    out: dict[str, set[str]] = {}

    def walk(command: click.Command, path: list[str]) -> None:
        if isinstance(command, click.Group) and path:
            for name, sub in command.commands.items():
                walk(sub, [*path, name])
            return
        names = set()
        for param in command.params:
            if isinstance(param, click.Option):
                names |= {n for n in [*param.opts, *param.secondary_opts] if n.startswith("--")}
        out[" ".join(path)] = names - {"--help"}
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(sub, [name])

    walk(main, [])
    return out


def test_the_readme_lists_every_command_with_every_option() -> None:
    assert _documented() == _known()


def test_the_readme_table_is_read_as_commands_and_options() -> None:
    rows = _documented()
    assert rows["fork"] == {"--at", "--id", "--seed"}
    assert rows["projections rebuild"] == {"--workers"}
    assert "--home" in rows[""] and "bench" in rows
