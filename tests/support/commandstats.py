"""Counting the commands Redis ran (INFO commandstats), for tests that assert how many
a piece of work sends. Each test worker has a server of its own, so between a reset and
a count only the test's own commands are counted."""

from __future__ import annotations

from collections import Counter
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from services.infra.redisconn import is_cluster


async def reset(redis: Redis) -> None:
    if is_cluster(redis):
        await redis.config_resetstat(target_nodes=RedisCluster.PRIMARIES)
    else:
        await redis.config_resetstat()


async def calls(redis: Redis) -> Counter[str]:
    """Commands run since the last reset, by lower-case name (a script's inner calls
    are counted under their own names too)."""
    if is_cluster(redis):
        found: Any = await redis.info("commandstats", target_nodes=RedisCluster.PRIMARIES)
        # redis-py answers a dict per node, but the bare reply when one node answers.
        nodes = [found] if any(k.startswith("cmdstat_") for k in found) else found.values()
    else:
        nodes = [await redis.info("commandstats")]
    out: Counter[str] = Counter()
    for stats in nodes:
        for name, row in stats.items():
            if name.startswith("cmdstat_"):
                out[name.removeprefix("cmdstat_")] += int(row["calls"])
    return out
