"""7. Redis memory per match: live, finished, and finished once archived.

On a fresh embedded Redis of its own, through the real processes (command service,
projector, archiver, built by the composition root, in this process), random bots play
`count` matches of the bench's game part way (live: `live_moves` moves, as a match in
play holds them) and, on a second clean server state, `count` matches to the end. Each
figure is the growth of Redis's `used_memory` divided by the matches, after the
projector has caught up and the command streams are trimmed as the service trims
them: match streams, replies kept for idempotency, snapshots, the partition log, the
public stream and every read model, a match's whole share. The bench client's own
reply stream is left out (it belongs to the client, capped at `reply_maxlen`, and the
archiver drops it once the client is gone); its size is reported beside.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bench.common import BenchConfig

# Key families whose size does not grow with archived matches once trimmed.
PER_PARTITION = {
    "{p}:commands",
    "{p}:log",
    "{p}:notices",  # capped (notices.STREAM_MAXLEN a partition), kept after archiving
    "{p}:public",
    "{p}:rm:checkpoint",
    "{ratings}:checkpoint",
    "heartbeats",
    "partitions",
}
LIVE_MOVES = 30  # moves played into each live match (a chicken match has ~60)


async def part_way(
    client: Any, store: Any, game_name: str, seats: int, seed: int, moves: int
) -> int:
    """A match started and played `moves` random legal moves in (or to its end)."""
    import random

    from domain.kernel import get_game
    from events.matches import load_match

    game = get_game(game_name)
    names = [f"p{i}" for i in range(seats)]
    match_id = await client.create(game_name, seats, {})
    for name in names:
        await client.join(match_id, name)
    await client.start(match_id, names[0], seed=seed)
    bot = random.Random(seed)
    for _ in range(moves):
        live = await load_match(store, match_id)
        if live is None or live.state.status != "playing":
            break
        seat = bot.choice(sorted(game.to_act(live.state.game_state)))
        await client.play(
            match_id, names[seat], bot.choice(list(game.legal(live.state.game_state, seat)))
        )
    return int(await store.version(match_id))


async def _used(redis: Any) -> int:
    return int((await redis.info("memory"))["used_memory"])


def family(key: str) -> str:
    """A key's family, without its `tt` prefix, match id and other names (`{p}:rm:hist`)."""
    parts = key.split(":")
    if parts[0] != "tt" or len(parts) < 2:
        return key
    if parts[1] in ("{ratings}", "{gateway}") and len(parts) > 2:
        return ":".join(parts[1:3])
    if not parts[1].startswith("{") or len(parts) < 3:
        return parts[1]
    if parts[2] == "rm" and len(parts) > 3:
        return f"{{p}}:rm:{parts[3]}"
    return f"{{p}}:{parts[2]}"


async def by_family(redis: Any) -> dict[str, int]:
    """Bytes held per key family (MEMORY USAGE, every element counted)."""
    out: dict[str, int] = {}
    async for key in redis.scan_iter(count=1000):
        name = family(key.decode())
        out[name] = out.get(name, 0) + int(await redis.memory_usage(key, samples=0) or 0)
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


async def _measure(cfg: BenchConfig, url: str, archive: Path, count: int) -> dict[str, Any]:
    from events.keys import Keys
    from services import compose
    from services.client.bots import play_match
    from services.client.client import TabletopClient
    from services.infra.config import Settings

    settings = Settings(
        redis_url=url,
        partitions=cfg.partitions,
        trust_seeds=True,
        polling_ms=10,
        archive=str(archive),
        archive_after_ms=24 * 3600 * 1000,
        snapshot_every=cfg.snapshot_every,
    )
    redis = compose.redis_client(settings)
    store = compose.event_store(settings, redis)
    service = compose.command_service(settings)
    await service.start()
    seats = cfg.seats
    out: dict[str, Any] = {"matches": count, "game": cfg.game, "seats": seats}
    try:

        async def settle(client: TabletopClient) -> int:
            """Project, trim, leave out the client's replies; Redis's used memory."""
            await compose.projector(settings, redis).catch_up()
            for p in range(settings.partitions):
                await service.trim(p)
            out["bench_reply_stream_bytes"] = int(
                await redis.memory_usage(client.reply_stream) or 0
            )
            await redis.delete(client.reply_stream)
            return await _used(redis)

        async def play(client: TabletopClient, moves: int | None) -> int:
            """`count` matches, to the end or `moves` moves in; their events in all."""
            lanes = asyncio.Semaphore(16)  # matches played at once (a connection each)

            async def one(s: int) -> int:
                async with lanes:
                    if moves is not None:
                        return await part_way(client, store, cfg.game, seats, s, moves)
                    _, live = await play_match(
                        client, store, cfg.game, seats=seats, seed=s, bot_seed=s
                    )
                    return live.state.version

            return sum(await asyncio.gather(*(one(s) for s in range(count))))

        async with TabletopClient.from_url(url, partitions=settings.partitions) as client:
            base = await settle(client)
            events = await play(client, LIVE_MOVES)
            live = await settle(client)
            out["live_bytes_per_match"] = round((live - base) / count)
            held = await by_family(redis)
            out["live_keys_bytes_per_match"] = {k: round(v / count) for k, v in held.items()}
            out["live_key_bytes_per_match"] = round(sum(held.values()) / count)
            out["live_events_per_match"] = round(events / count)

            await redis.flushdb()
            from services.commands.service import create_groups

            await create_groups(redis, settings)
            base = await settle(client)
            events = await play(client, None)
            finished = await settle(client)
            out["finished_bytes_per_match"] = round((finished - base) / count)
            held = await by_family(redis)
            out["finished_keys_bytes_per_match"] = {k: round(v / count) for k, v in held.items()}
            out["finished_key_bytes_per_match"] = round(sum(held.values()) / count)
            out["finished_events_per_match"] = round(events / count)

            keeper = compose.archiver(settings)
            keeper.clock = lambda: int(time.time() * 1000) + settings.archive_after_ms + 1
            t0 = time.perf_counter()
            try:
                done = await keeper.pass_once()
            finally:
                await keeper.stop()
            seconds = time.perf_counter() - t0
            archived = await settle(client)
            out["archived"] = done["archived"]
            out["archive_matches_per_s"] = round(done["archived"] / seconds) if seconds else 0
            out["archived_bytes_per_match"] = round((archived - base) / count)
            kept = await by_family(redis)
            out["archived_keys_bytes_per_match"] = {k: round(v / count) for k, v in kept.items()}
            # What is left of the streams the archiver trims (their last entry, which the
            # checkpoints point at, and an empty stream's node) and the checkpoints cost
            # the same with 60 matches or a million: per partition, not per match.
            fixed = {k: v for k, v in kept.items() if k in PER_PARTITION}
            out["archived_match_keys_bytes_per_match"] = round(
                (sum(kept.values()) - sum(fixed.values())) / count
            )
            out["per_partition_fixed_bytes"] = round(sum(fixed.values()) / settings.partitions)
            files = list(archive.rglob("*.jsonl.gz"))
            out["archive_file_bytes_median"] = (
                sorted(f.stat().st_size for f in files)[len(files) // 2] if files else 0
            )
            left = await redis.hlen(Keys(0).archived)
            out["tombstones_in_partition_0"] = int(left)
    finally:
        await service.stop()
        await redis.aclose()
    out["goal_live_bytes"] = 100 * 1024
    out["goal_archived_bytes"] = 1024
    return out


def run_memory(cfg: BenchConfig, tmp: Path, count: int) -> dict[str, Any]:
    from services import compose

    server = compose.embedded_server(tmp / "memory-redis")
    try:
        return asyncio.run(_measure(cfg, server.url, tmp / "memory-archive", count))
    finally:
        server.stop()
