"""The projector's cost, alone and in-process, and a digest of what it wrote.

    python scripts/projector_cost.py seed [--matches 300] [--dir /tmp/projector-cost]
    python scripts/projector_cost.py catchup [--matches 300] [--dir ...]
    python scripts/projector_cost.py kept-up [--matches 300]

`seed` plays the bench's prepared chicken matches into a private redis-server, the k-th
command of every match before the (k+1)-th of any (as the load interleaves them), and
keeps its data folder. `catchup` projects a copy of that data from the start (matches,
public, ratings), then rebuilds `matches`: CPU per command of this process and of
redis-server, the rebuild's events/s, and digests of every read model, the public
stream and the notice stream, comparable across versions of the code (same log, same
Redis clock in it). `kept-up` appends and projects round by round instead, as a
projector that keeps up with the load sees its batches.

Compare two versions by running each with PYTHONPATH=<its tree>, alternately: on a
shared machine only CPU per command compares. Not part of any test run; its figures
go in docs/performance-log.md.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path and not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(ROOT))

from bench.common import BenchConfig, cpu_seconds, quiet_logs  # noqa: E402
from bench.prepare import PreparedMatch, prepare_matches  # noqa: E402
from domain.kernel import games  # noqa: E402
from events.keys import Keys  # noqa: E402
from events.redis_store import APPEND_LUA  # noqa: E402
from services import compose  # noqa: E402
from services.infra import collector  # noqa: E402
from services.infra.config import Settings  # noqa: E402

PARTITIONS = 16


async def append_round(redis: Any, sha: str, matches: list[PreparedMatch], k: int) -> None:
    """The k-th command of every match that has one, in one pipeline."""
    pipe = redis.pipeline(transaction=False)
    for pm in matches:
        if k < len(pm.decisions):
            d = pm.decisions[k]
            pipe.evalsha(sha, len(d.keys), *d.keys, *d.args)
    await pipe.execute()


def digest(value: Any) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def normal(dump: dict[str, Any]) -> list[Any]:
    """A read-model dump in a fixed order (a hash's fields come in Redis's order)."""
    return sorted((k, sorted(v.items()) if isinstance(v, dict) else v) for k, v in dump.items())


async def run(mode: str, matches: list[PreparedMatch], seed: Path) -> dict[str, Any]:
    data = seed if mode == "seed" else Path(tempfile.mkdtemp(prefix="projector-cost-")) / "d"
    if mode == "seed":
        shutil.rmtree(seed, ignore_errors=True)
    elif mode == "catchup":
        shutil.copytree(seed, data, ignore=shutil.ignore_patterns("server.*"))
    server = compose.embedded_server(data)
    assert server.process is not None  # started by embedded_server
    pid = server.process.pid
    commands = sum(len(pm.decisions) for pm in matches)
    rounds = max(len(pm.decisions) for pm in matches)
    out: dict[str, Any] = {"mode": mode, "matches": len(matches), "commands": commands}
    try:
        settings = Settings(redis_url=server.url, partitions=PARTITIONS)
        redis = compose.redis_client(settings)
        sha = await redis.script_load(APPEND_LUA)
        if mode == "seed":
            for k in range(rounds):
                await append_round(redis, sha, matches, k)
            await redis.aclose()
            return out
        projector = compose.projector(settings, redis)
        own = served = 0.0
        for k in range(rounds if mode == "kept-up" else 1):
            if mode == "kept-up":
                await append_round(redis, sha, matches, k)
            t0, r0 = time.process_time(), cpu_seconds(pid)
            await projector.catch_up()
            own += time.process_time() - t0
            served += cpu_seconds(pid) - r0
        out["projector_us_per_cmd"] = round(own / commands * 1e6, 1)
        out["redis_us_per_cmd"] = round(served / commands * 1e6, 1)
        models = compose.read_models(settings, redis)
        live = normal(await models.dump())
        public, notices = [], []
        for p in range(PARTITIONS):
            public += [f for _, f in await redis.xrange(Keys(p).public) or []]
            notices += [f for _, f in await redis.xrange(Keys(p).notices) or []]
        out["read_models"] = digest(live)
        out["public"] = digest(public)
        out["notices"] = digest(notices)
        rebuilder = compose.projector(settings, redis, projections=("matches",))
        t0, r0, w0 = time.process_time(), cpu_seconds(pid), time.perf_counter()
        applied = await rebuilder.rebuild("matches")
        out["rebuild_events_per_s"] = round(applied / (time.perf_counter() - w0))
        out["rebuild_projector_us_per_event"] = round((time.process_time() - t0) / applied * 1e6, 1)
        out["rebuild_redis_us_per_event"] = round((cpu_seconds(pid) - r0) / applied * 1e6, 1)
        out["rebuild_equals_live"] = normal(await models.dump()) == live
        out["load_average"] = os.getloadavg()
        await redis.aclose()
        return out
    finally:
        server.stop()
        if mode != "seed":
            shutil.rmtree(data.parent, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=("seed", "catchup", "kept-up"))
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "projector-cost")
    args = parser.parse_args()
    quiet_logs()
    args.dir.mkdir(parents=True, exist_ok=True)
    prepared = args.dir / f"prepared-{args.matches}.msgpack"
    if not prepared.exists():
        made = prepare_matches(BenchConfig(matches=args.matches), "m")
        prepared.write_bytes(msgspec.msgpack.encode(made))
    matches = msgspec.msgpack.decode(prepared.read_bytes(), type=list[PreparedMatch])
    games()  # every game imported before anything is timed
    collector.settle()  # the collector as a served process has it
    seed = args.dir / f"seed-{args.matches}"
    if args.mode == "catchup" and not seed.exists():
        parser.error(f"no seeded data in {seed}: run the `seed` mode first")
    print(json.dumps(asyncio.run(run(args.mode, matches, seed))))


if __name__ == "__main__":
    main()
