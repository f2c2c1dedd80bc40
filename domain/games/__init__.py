"""Every game package under this folder registers itself on import.

`load_all()` imports them all (`kernel.games()` calls it); `load(name)` only the one a
process meets, so a process that folds one game's matches (a rebuild's, a replay's)
does not import the other games first. `TABLETOP_GAMES=chicken,loveletter` limits the
registry to those games (a deployment that offers a few games, or a developer working
on one).
"""

import importlib
import os
import pkgutil

_only = {g for g in os.environ.get("TABLETOP_GAMES", "").split(",") if g}


def _offered(name: str) -> bool:
    return not name.startswith("_") and (not _only or name in _only)


def names() -> list[str]:
    """The games on offer, by name, without importing them (a test's own games are not
    among them)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg and _offered(m.name))


def load_all() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg and _offered(module.name):
            importlib.import_module(f"{__name__}.{module.name}")


def load(name: str) -> None:
    """Import the game package of that name, if there is one on offer (a game registers
    under its package's name); nothing otherwise."""
    if not name.isidentifier() or not _offered(name):
        return
    try:
        importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{name}":  # the game is there, and broken: say so
            raise
