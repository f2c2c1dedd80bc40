"""Reading the projected models: lobby, match summaries, views, ratings; and histories.

A history is not projected: it is worked out from the match's events when asked for,
each event redacted for its reader and told as a sentence, so hidden information stays
hidden there as in a view. Stored, every event was kept a second time per match (and
again per seat for a seat's secrets), the largest read model by far. An archived match
(events/archive.py) keeps its summary in its tombstone; its views and history come
from its archived record, with the same redaction."""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any, cast

import msgspec
from redis.asyncio import Redis

from domain import match as m
from events.archive import TOMBSTONE, ArchivedStore
from events.keys import RATINGS, UNLISTED, Keys, partition_of
from events.matches import Recorded, read_back, recorded
from events.redis_store import RedisEventStore
from services.readside.schema import HistoryLine, Notice, PlayerRating, Summary


def told(found: Recorded, seat: int | None) -> list[HistoryLine]:
    """Each event the seat (None: a spectator) may see, as it may see it, with its
    sentence; players named as the match names them now."""
    names = m.seat_names(found.state.players)
    codec = m.codec(found.game)
    out = []
    for env, event in zip(found.envelopes, found.events, strict=True):
        shown = m.redact(found.game, event, seat)
        if shown is not None:
            text = m.describe(found.game, shown, seat, names)
            out.append(HistoryLine(env.version, msgspec.Raw(codec.encode(shown)), text))
    return out


class ReadModels:
    def __init__(self, redis: Redis, partitions: int, archive: ArchivedStore | None = None) -> None:
        self.redis = redis
        self.partitions = partitions
        self.archive = archive
        # Histories read the match streams: through the archive where there is one
        # (an archived match's events are there), else Redis alone.
        self.events = archive if archive is not None else RedisEventStore(redis, partitions)

    def _keys(self, match_id: str) -> Keys:
        return Keys(partition_of(match_id, self.partitions))

    async def lobby(
        self, game: str | None = None, status: str = "lobby", page: int = 0, size: int = 20
    ) -> list[Summary]:
        """Matches of one status, newest first, paged; merged over the partitions.
        Unlisted tables are in no lobby."""
        if game == UNLISTED:
            return []
        scope = game or "*"
        want = (page + 1) * size
        found: list[tuple[float, str]] = []
        for p in range(self.partitions):
            rows: Any = await self.redis.zrevrange(
                Keys(p).lobby(status, scope), 0, want - 1, withscores=True
            )
            found += [(score, mid.decode()) for mid, score in rows]
        newest = heapq.nlargest(want, found)[page * size : want]
        out = []
        for _, match_id in newest:
            s = await self.summary(match_id)
            if s is not None:
                out.append(s)
        return out

    async def summary(self, match_id: str) -> Summary | None:
        raw: Any = await self.redis.get(self._keys(match_id).summary(match_id))
        if raw:
            return msgspec.json.decode(raw, type=Summary)
        stone: Any = await self.redis.hget(self._keys(match_id).archived, match_id)
        if not stone:
            return None
        kept = TOMBSTONE.decode(stone).summary
        return None if bytes(kept) == b"null" else msgspec.json.decode(kept, type=Summary)

    async def _archived(self, match_id: str) -> Recorded | None:
        """An archived match's record, decoded (None: not archived)."""
        if self.archive is None:
            return None
        record = await self.archive.archived(match_id)
        return None if record is None else recorded(record.envelopes)

    async def view(self, match_id: str, seat: int | None) -> dict[str, Any] | None:
        who = "spectator" if seat is None else str(seat)
        raw: Any = await self.redis.hget(self._keys(match_id).views(match_id), who)
        if raw:
            projected: dict[str, Any] = msgspec.json.decode(raw)
            return projected
        found = await self._archived(match_id)
        if found is None:
            return None
        shown: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(m.view(found.state, seat)))
        return shown

    async def recorded(self, match_id: str) -> Recorded | None:
        """A match's events, read back whole (None: no such match)."""
        return await read_back(self.events, match_id)

    async def history(self, match_id: str, seat: int | None) -> list[HistoryLine]:
        """The moves as that seat (None: a spectator) may see them, a sentence each."""
        found = await self.recorded(match_id)
        return [] if found is None else told(found, seat)

    async def _merged(
        self, key: Callable[[Keys], str], limit: int, newest: bool
    ) -> list[tuple[float, bytes]]:
        """A player's sorted set kept in every partition, as one: the `limit` members
        with the highest scores (`newest`) or the lowest, as (score, member), in order."""
        found: list[tuple[float, bytes]] = []
        for p in range(self.partitions):
            read = self.redis.zrevrange if newest else self.redis.zrange
            rows: Any = await read(key(Keys(p)), 0, limit - 1, withscores=True)
            found += [(score, member) for member, score in rows]
        return (heapq.nlargest if newest else heapq.nsmallest)(limit, found)

    async def turns(self, player: str, limit: int = 100) -> list[tuple[Summary, int]]:
        """The player's matches where it is their turn, and since when (ms), longest
        waiting first; merged over the partitions."""
        out = []
        for since, match_id in await self._merged(lambda k: k.turns(player), limit, False):
            s = await self.summary(match_id.decode())
            if s is not None and s.status == "playing" and player in s.to_act:
                out.append((s, int(since)))
        return out

    async def mine(self, player: str, limit: int = 30) -> list[Summary]:
        """The tables the player sits at or sat at to the end, the latest change first;
        merged over the partitions. A table they left before its start is not theirs."""
        out = []
        for _, match_id in await self._merged(lambda k: k.mine(player), limit, True):
            s = await self.summary(match_id.decode())
            if s is not None and player in s.players:
                out.append(s)
        return out

    async def inbox(self, player: str, limit: int = 20) -> list[Notice]:
        """The player's latest notices, oldest first; merged over the partitions."""
        newest = await self._merged(lambda k: k.inbox(player), limit, True)
        return [msgspec.json.decode(raw, type=Notice) for _, raw in reversed(newest)]

    async def rated_games(self) -> list[str]:
        """The games whose boards hold anyone (a match of theirs has finished)."""
        found: Any = await self.redis.smembers(RATINGS.games)
        return sorted(g.decode() for g in found)

    async def leaderboard(self, game: str, top: int = 20) -> list[tuple[str, PlayerRating]]:
        names: Any = await self.redis.zrevrange(RATINGS.board(game), 0, top - 1)
        if not names:
            return []
        raw: Any = await self.redis.hmget(RATINGS.rating(game), names)
        return [
            (n.decode(), msgspec.json.decode(r, type=PlayerRating))
            for n, r in zip(names, raw, strict=True)
            if r is not None
        ]

    async def player(self, game: str, player: str) -> PlayerRating | None:
        raw: Any = await self.redis.hget(RATINGS.rating(game), player)
        return msgspec.json.decode(raw, type=PlayerRating) if raw else None

    async def rank(self, game: str, player: str) -> int | None:
        """The player's place on the game's board, from 1, shared with those rated the
        same (None: not on it)."""
        board = RATINGS.board(game)
        score: Any = await self.redis.zscore(board, player)
        if score is None:
            return None
        # repr: the shortest text that reads back as the same double in Redis.
        higher: Any = await self.redis.zcount(board, f"({float(score)!r}", "+inf")
        return int(higher) + 1

    async def dump(self) -> dict[str, Any]:
        """Every read-model key and its content (rebuild tests compare two dumps)."""
        out: dict[str, Any] = {}
        patterns = [Keys(p).rm_pattern for p in range(self.partitions)] + [RATINGS.pattern]
        for pattern in patterns:
            async for key in self.redis.scan_iter(match=pattern, count=1000):
                k = key.decode()
                if k.endswith("checkpoint") or ":checkpoint:" in k:
                    continue
                kind = cast(bytes, await self.redis.type(key)).decode()  # no decode_responses
                if kind == "string":
                    out[k] = await self.redis.get(key)
                elif kind == "hash":
                    out[k] = await self.redis.hgetall(key)
                elif kind == "list":
                    out[k] = await self.redis.lrange(key, 0, -1)
                elif kind == "zset":
                    out[k] = await self.redis.zrange(key, 0, -1, withscores=True)
                elif kind == "set":
                    out[k] = sorted(await self.redis.smembers(key))
        return out
