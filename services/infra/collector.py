"""The cyclic garbage collector, settled for a long-running service process.

Every command, batch, request and push makes thousands of short-lived objects, which
the reference counts free; but each 700 new ones (Python's default) a collection of
the young ran, every tenth of those one of the middle generation, and then full ones
walking every cached match, read model and socket of the process. Profiled under the
gateway bench, the gateway spent a sixth of its time there, and the command service
and projector's process (its caches are bigger) a good half of its CPU.
"""

from __future__ import annotations

import gc

YOUNG = 100_000  # objects the youngest generation gathers before it is collected


def settle() -> None:
    """Leave what startup built (modules, games, applications) out of every later
    collection, and collect the young every `YOUNG` new objects."""
    gc.collect()
    gc.freeze()
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(YOUNG, young), middle, old)
