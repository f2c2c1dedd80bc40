"""Every game package under this folder registers itself on import.

`TABLETOP_GAMES=chicken,loveletter` limits the registry to those games (a deployment
that offers a few games, or a developer working on one).
"""

import importlib
import os
import pkgutil

_only = {g for g in os.environ.get("TABLETOP_GAMES", "").split(",") if g}

for _module in pkgutil.iter_modules(__path__):
    if _module.ispkg and not _module.name.startswith("_") and (not _only or _module.name in _only):
        importlib.import_module(f"{__name__}.{_module.name}")
