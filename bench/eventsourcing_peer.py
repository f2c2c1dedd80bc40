"""3. The `eventsourcing` package (SQLite recorder, aggregate cache) doing the same
per-command work in-process: load the match, decide with our rules, append one event.
Imported only when it runs: the package comes with the bench extra."""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from bench.prepare import PreparedMatch

_ES: dict[str, Any] = {}


def _es_classes() -> tuple[Any, Any]:
    """The aggregate and application, built once (their topics are registered once)."""
    if _ES:
        return _ES["aggregate"], _ES["app"]
    from uuid import NAMESPACE_URL, uuid5

    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    from domain import match as m

    class MatchAggregate(Aggregate):
        """A tabletop match as an eventsourcing aggregate: same rules, one stored event
        per command holding the events our `decide` made."""

        @staticmethod
        def create_id(match_id: str, game: str, events: list[str]) -> uuid.UUID:
            return uuid5(NAMESPACE_URL, match_id)

        @event("Created")
        def __init__(self, match_id: str, game: str, events: list[str]) -> None:
            codec = m.codec(game)
            self.match_id = match_id
            self.state = m.fold([codec.decode(e.encode()) for e in events])

        def handle(self, command: Any) -> None:
            codec = m.codec(self.state.game)
            decided = m.decide(self.state, command)
            self.decided(events=[codec.encode(e).decode() for e in decided])

        @event("Decided")
        def decided(self, events: list[str]) -> None:
            codec = m.codec(self.state.game)
            self.state = m.fold([codec.decode(e.encode()) for e in events], self.state)

    class Matches(Application[uuid.UUID]):
        pass

    _ES["aggregate"], _ES["app"] = MatchAggregate, Matches
    return MatchAggregate, Matches


# The variants: (the library's cache defaults, SQLite `synchronous`). The cache defaults
# are fast-forward (a query for newer events on every cache hit) and a deep copy out of
# the cache; off is safe with a single writer, as our service is per partition. None
# keeps the library's `synchronous`, SQLite's default FULL: in WAL mode an fsync of the
# WAL at every commit. NORMAL syncs only at checkpoints, like our AOF's fsync everysec.
ES_VARIANTS: dict[str, tuple[bool, str | None]] = {
    "defaults": (True, None),
    "durable": (False, None),
    "tuned": (False, "NORMAL"),
}


_SYNCHRONOUS = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


def es_application(db: Path, variant: str, matches: int) -> tuple[Any, Any, set[tuple[str, str]]]:
    """The application of `variant` on the SQLite file `db`, its aggregate class, and the
    (synchronous, journal mode) of every connection its pool opens (filled as it opens
    them). The pool's `_create_connection` stays patched for the life of the process."""
    from eventsourcing.sqlite import SQLiteConnectionPool

    cache_defaults, synchronous = ES_VARIANTS[variant]
    aggregate_cls, app_cls = _es_classes()
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(db),
        "AGGREGATE_CACHE_MAXSIZE": str(max(1000, matches)),
    }
    if not cache_defaults:
        env["AGGREGATE_CACHE_FASTFORWARD"] = "n"
        env["DEEPCOPY_FROM_AGGREGATE_CACHE"] = "n"
    pool_cls: Any = SQLiteConnectionPool
    original = _ES.setdefault("create_connection", pool_cls._create_connection)
    seen: set[tuple[str, str]] = set()

    def create(pool: Any) -> Any:
        conn = original(pool)
        sqlite = conn._sqlite_conn
        if synchronous:
            sqlite.execute(f"PRAGMA synchronous={synchronous}")
        level = sqlite.execute("PRAGMA synchronous").fetchone()[0]
        journal = str(sqlite.execute("PRAGMA journal_mode").fetchone()[0]).lower()
        seen.add((_SYNCHRONOUS.get(level, str(level)), journal))
        return conn

    pool_cls._create_connection = create
    return app_cls(env=env), aggregate_cls, seen


def restore_pool() -> None:
    """The pool's own `_create_connection` again."""
    from eventsourcing.sqlite import SQLiteConnectionPool

    if "create_connection" in _ES:
        pool_cls: Any = SQLiteConnectionPool
        pool_cls._create_connection = _ES["create_connection"]


def durability(seen: set[tuple[str, str]]) -> dict[str, Any]:
    """What SQLite used: WAL with NORMAL syncs at checkpoints only; FULL and EXTRA sync
    every commit (and so does NORMAL without WAL)."""
    return {
        "sqlite_synchronous": "/".join(sorted({level for level, _ in seen})) or "?",
        "sqlite_journal_mode": "/".join(sorted({journal for _, journal in seen})) or "?",
        "fsync_per_commit": bool(seen)
        and all(
            level in ("FULL", "EXTRA") or (level == "NORMAL" and journal != "wal")
            for level, journal in seen
        ),
    }


def run_eventsourcing(
    matches: Sequence[PreparedMatch], tmp: Path, variant: str = "defaults"
) -> dict[str, Any]:
    """The same commands, interleaved across matches as they arrive in the service."""
    from uuid import NAMESPACE_URL, uuid5

    from domain import match as m

    cache_defaults, _ = ES_VARIANTS[variant]
    db = tmp / f"es-{variant}-{uuid.uuid4().hex[:6]}.sqlite"
    app, aggregate_cls, seen = es_application(db, variant, len(matches))
    try:
        decoder = msgspec.json.Decoder(m.MatchCommand)
        queues = [
            (pm.match_id, [decoder.decode(d.command) for d in pm.decisions]) for pm in matches
        ]
        ids = {mid: uuid5(NAMESPACE_URL, mid) for mid, _ in queues}
        done = 0
        t0 = time.perf_counter()
        depth = max(len(cmds) for _, cmds in queues)
        for i in range(depth):
            for mid, cmds in queues:
                if i >= len(cmds):
                    continue
                command: Any = cmds[i]
                if i == 0:
                    codec = m.codec(command.game)
                    created = [codec.encode(e).decode() for e in m.decide(None, command)]
                    agg = aggregate_cls(match_id=mid, game=command.game, events=created)
                else:
                    agg = app.repository.get(ids[mid])
                    agg.handle(command)
                app.save(agg)
                done += 1
        seconds = time.perf_counter() - t0
        app.close()
    finally:
        restore_pool()
    size = db.stat().st_size if db.exists() else 0
    for extra in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        with contextlib.suppress(OSError):
            extra.unlink()
    return {
        "variant": variant,
        "cache_fastforward_deepcopy": cache_defaults,
        **durability(seen),
        "matches": len(matches),
        "commands": done,
        "seconds": round(seconds, 3),
        "cmds_per_s": round(done / seconds, 1),
        "db_mb": round(size / 2**20, 1),
    }
