"""The projector: follows every partition log from a stored checkpoint and keeps the
read models, the public stream and the ratings.

It is a catch-up subscription: the checkpoint is the position, so order is kept and no
consumer group is needed. Each projection writes a batch's effects and its checkpoint in
one MULTI, guarded by WATCH on the checkpoint, so a batch read twice (a crash before
EXEC, two projectors on one partition) changes nothing the second time. Several
projector processes split the partitions between them (`partitions=`).

The logs and match streams are read through the store's connection, the read models
written through the projector's own: with the shipped ACLs they are two Redis users,
and the one that writes read models cannot change an event (deploy/users.md).

Projections and their keys:
- `matches` (keys `tt:{p}:rm:*`, one slot per partition): match summaries, every seat's
  and the spectator's current view, the lobby sets, each player's
  matches where it is their turn (`rm:turns:<player>`), their tables (`rm:mine:<player>`)
  and latest notices (`rm:inbox:<player>`); and, in the same MULTI, the notices on `tt:{p}:notices`
  (services/readside/notices.py), written once per event even across a rebuild.
- `public` (`tt:{p}:public`): every event as a spectator may see it, for integrations.
- `ratings` (`tt:{ratings}:*`): per game and player played / won / openskill rating, and
  the leaderboards. Its checkpoints (one per partition) live in the same slot.
"""

from __future__ import annotations

import asyncio
import gc
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import msgspec
import structlog
from openskill.models import PlackettLuce
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.exceptions import WatchError
from redis.typing import EncodableT

from domain import match as m
from domain.kernel import get_game
from events.envelope import Envelope
from events.keys import RATINGS, UNLISTED, Keys
from events.matches import LiveMatch, decode_events, game_of
from events.store import START, EventStore, LogEntry, position
from events.upcast import upcast
from services.infra import metrics
from services.infra.collector import YOUNG
from services.infra.passes import PassLoop
from services.readside import notices as n
from services.readside.schema import Notice, PlayerRating, PublicEvent, Summary
from services.readside.writes import Writes

log = structlog.get_logger("tabletop.projector")
ENC = msgspec.json.Encoder()
Entry = LogEntry
# (match id, version) -> (game, the event as a spectator sees it or None, its sentence)
Shared = dict[tuple[str, int], tuple[str, bytes | None, str]]


class Projection(Protocol):
    name: str

    def checkpoint_key(self, p: int) -> str: ...

    async def prepare(
        self, p: int, batch: Sequence[Entry], shared: Shared | None = None
    ) -> Callable[[Pipeline], None]:
        """Compute the batch's effects; return what writes them into the transaction.

        `shared` is passed to every projection stepped over the same batch, in order:
        what one computed that another needs too."""
        ...

    def committed(self) -> None:
        """The transaction went through: keep what `prepare` computed."""
        ...

    def keys_pattern(self, p: int) -> list[str]:
        """Key patterns this projection owns in partition p (what a rebuild drops)."""
        ...


# --- matches: summaries, views, lobby ---------------------------------------


class MatchesProjection:
    name = "matches"

    def __init__(self, redis: Redis, store: EventStore, cache_size: int = 5000) -> None:
        self.redis = redis
        self.store = store
        self.cache: OrderedDict[str, tuple[LiveMatch, int]] = OrderedDict()
        self.cache_size = cache_size
        self._pending: dict[str, tuple[LiveMatch, int]] = {}
        # Per partition: the log position up to which notices were written (a rebuild
        # writes none up to there), as last read or written by this process.
        self._marks: dict[int, tuple[int, int]] = {}
        self._pending_marks: dict[int, tuple[int, int]] = {}

    async def _mark(self, p: int) -> tuple[int, int]:
        found = self._marks.get(p)
        if found is None:
            raw: Any = await self.redis.get(Keys(p).notices_mark)
            found = position(raw) if raw else (0, 0)
            self._marks[p] = found
        return found

    def checkpoint_key(self, p: int) -> str:
        return Keys(p).rm_checkpoint

    def keys_pattern(self, p: int) -> list[str]:
        return [Keys(p).rm_pattern]

    async def _state_before(self, env: Envelope) -> tuple[LiveMatch | None, int]:
        """The match as it was just before `env`, from the cache or the store."""
        found = self._pending.get(env.match_id) or self.cache.get(env.match_id)
        if found is not None and found[0].state.version == env.version - 1:
            return found
        if env.version == 1:
            return None, env.recorded_at
        earlier = await self.store.load(env.match_id)
        earlier = earlier[: env.version - 1]
        state = m.fold(decode(earlier))
        return LiveMatch(state=state, last_hash=earlier[-1].hash), earlier[0].recorded_at

    async def prepare(
        self, p: int, batch: Sequence[Entry], shared: Shared | None = None
    ) -> Callable[[Pipeline], None]:
        self._pending = {}
        self._pending_marks = {}
        keys = Keys(p)
        mark = await self._mark(p)
        # A match's entries in the batch, in order. Matches fold apart from each other, so
        # each is folded in one run: its game, codec and keys are looked up once, not
        # once per event.
        by_match: dict[str, list[Entry]] = {}
        for entry in batch:
            found = by_match.get(entry[1].match_id)
            if found is None:
                by_match[entry[1].match_id] = [entry]
            else:
                found.append(entry)
        lobby: dict[str, tuple[str, str, int]] = {}  # match -> game (or UNLISTED), status, when
        # Each notice with its log position, and whether the stream gets it.
        notices: list[tuple[tuple[int, int], Notice, bool]] = []
        turn_moves: Moves = {}
        mine: dict[str, list[EncodableT]] = {}  # key -> (score, match) pairs
        for match_id, entries in by_match.items():
            before, created_at = await self._state_before(entries[0][1])
            self._fold(
                keys,
                match_id,
                entries,
                before.state if before else None,
                created_at,
                mark,
                shared,
                lobby,
                notices,
                turn_moves,
                mine,
            )
        new_mark = position(batch[-1][0]) if batch else mark
        if new_mark > mark:
            self._pending_marks[p] = new_mark

        # Each read model written once for the batch, however many of its events the
        # batch holds, and every write sent as one script call (writes.py).
        writes = Writes()
        for key, (added, removed) in turn_moves.items():
            if added:
                writes.add_many("ZADD", key, added, step=2)
            if removed:
                writes.add_many("ZREM", key, removed)
        if notices:
            # In log order, as the stream would have had them event by event (a stable
            # sort: one log entry's notices keep theirs).
            notices.sort(key=lambda x: x[0])
            n.write(writes, p, [(notice, fresh) for _, notice, fresh in notices])
        if new_mark > mark:
            writes.add("SET", keys.notices_mark, batch[-1][0])
        for key, added in mine.items():
            writes.add_many("ZADD", key, added, step=2)
            writes.add("ZREMRANGEBYRANK", key, 0, -(MINE_SIZE + 1))
        for key, (added, removed) in _lobby_moves(keys, lobby).items():
            if removed:
                writes.add_many("ZREM", key, removed)
            if added:
                writes.add_many("ZADD", key, added, step=2)
        for match_id, (live, created_at) in self._pending.items():
            at = by_match[match_id][-1][1].recorded_at
            writes.add(
                "SET",
                keys.summary(match_id),
                ENC.encode(summary(match_id, live.state, created_at, at)),
            )
            # Every field is written each time (the seats of a match never change), so
            # no DEL first: the projector's user has none (deploy/users.md).
            writes.add_shared("HSET", keys.views(match_id), *_fields(views(live.state)))

        def write(tx: Pipeline) -> None:
            writes.send(tx)

        return write

    def _fold(
        self,
        keys: Keys,
        match_id: str,
        entries: Sequence[Entry],
        state: m.MatchState | None,
        created_at: int,
        mark: tuple[int, int],
        shared: Shared | None,
        lobby: dict[str, tuple[str, str, int]],
        notices: list[tuple[tuple[int, int], Notice, bool]],
        turn_moves: Moves,
        mine: dict[str, list[EncodableT]],
    ) -> None:
        """One match's events of a batch, from `state` (None: the match opens in it):
        its notices, turns and lobby status, added to the batch's. Histories are not
        stored: a reader's is worked out from the match stream when asked for."""
        name = state.game if state is not None else game_of([entries[0][1]])
        game = get_game(name)
        codec = m.codec(name)
        first = acting = n.acting(state)
        came: dict[str, int] = {}  # player -> when their turn came, last, in the batch
        # Who must act, by the seats that must: while the seated players and those who
        # conceded stay the same lists (a game event leaves them be), the same people.
        people: dict[frozenset[int], frozenset[str]] = {}
        players: list[str | None] | None = None
        conceded: list[int] | None = None
        # Each player's last change of this table while they sat at it (sat down, left,
        # started, finished): a function of the events alone, so batches change nothing.
        seated: dict[str, int] = {}
        for eid, env in entries:
            event = codec.decode(bytes(upcast(env).payload))
            prior = state
            state = m.evolve_with(game, prior, event)
            if state.status != "playing":
                now = n.acting(state)
            else:
                if state.players is not players or state.conceded is not conceded:
                    people, players, conceded = {}, state.players, state.conceded
                seats = game.to_act(state.game_state)
                found = people.get(seats)
                now = people[seats] = n.acting(state) if found is None else found
            if now != acting or n.gives_notices(env.type):
                said, _ = n.derive(
                    match_id,
                    env.version,
                    env.recorded_at,
                    env.type,
                    prior,
                    state,
                    event,
                    acting,
                    now,
                )
                if said:
                    at = position(eid)
                    notices += [(at, notice, at > mark) for notice in said]
                for player in now - acting:
                    came[player] = env.recorded_at
                acting = now
            if shared is not None:
                # The public stream carries the spectator's event and sentence.
                life = m.is_lifecycle(event)
                shown = game.redact(event, None) if not life else m.redact(name, event, None)
                if shown is None:
                    shared[(match_id, env.version)] = (name, None, "")
                else:
                    names = m.seat_names(state.players)
                    text = m.describe(name, shown, None, names)
                    shared[(match_id, env.version)] = (name, codec.encode(shown), text)
            if prior is None or prior.status != state.status:
                # Only the status a match ends the batch in counts (its last change).
                scope = UNLISTED if state.unlisted else name
                lobby[match_id] = (scope, state.status, env.recorded_at)
            if (
                prior is None
                or prior.status != state.status
                or (prior.players is not state.players and prior.players != state.players)
            ):
                for player in (*(prior.players if prior else ()), *state.players):
                    if player:
                        seated[player] = env.recorded_at
        assert state is not None
        for player, when in seated.items():
            mine.setdefault(keys.mine(player), []).extend((when, match_id))
        self._pending[match_id] = (
            LiveMatch(state=state, last_hash=entries[-1][1].hash),
            created_at,
        )
        # Whose turn it is now, each since the last time it came (also when it came again
        # after leaving within the batch: as if projected event by event); and whose it
        # no longer is.
        for player in acting:
            if player in came:
                turn_moves.setdefault(keys.turns(player), ([], []))[0].extend(
                    (came[player], match_id)
                )
        for player in first - acting:
            turn_moves.setdefault(keys.turns(player), ([], []))[1].append(match_id)

    def committed(self) -> None:
        for match_id, found in self._pending.items():
            self.cache[match_id] = found
            self.cache.move_to_end(match_id)
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)
        self._pending = {}
        self._marks.update(self._pending_marks)
        self._pending_marks = {}

    def forget(self) -> None:
        self.cache.clear()
        self._pending = {}
        self._marks = {}
        self._pending_marks = {}


def summary(match_id: str, state: m.MatchState, created_at: int, at: int) -> Summary:
    game = get_game(state.game)
    acting = game.to_act(state.game_state) if state.status == "playing" else frozenset()
    return Summary(
        match_id=match_id,
        game=state.game,
        title=game.title,
        seats=state.seats,
        options=state.options,
        players=state.players,
        status=state.status,
        version=state.version,
        created_at=created_at,
        updated_at=at,
        to_act=[state.players[s] or "" for s in sorted(acting)],
        scores=list(state.outcome.scores) if state.outcome else [],
        ranks=list(state.outcome.ranks) if state.outcome else [],
        free_seats=sum(p is None for p in state.players),
        rematch=state.rematch.match_id if state.rematch else "",
        rematch_of=state.rematch_of,
        unlisted=state.unlisted,
    )


STATUSES = ("lobby", "playing", "finished", "closed")
MINE_SIZE = 100  # the tables kept per player and partition, the latest
Moves = dict[str, tuple[list[EncodableT], list[EncodableT]]]  # key -> added, removed


def _lobby_moves(keys: Keys, lobby: Mapping[str, tuple[str, str, int]]) -> Moves:
    """Each lobby set's members to add (score, member) and to remove, from each match's
    last status in the batch (its game or UNLISTED, status, since when), in the lists
    of every game and of its own; an unlisted table in the unlisted tables' only."""
    out: Moves = {}
    for match_id, (game, status, at) in lobby.items():
        for scope in (UNLISTED,) if game == UNLISTED else ("*", game):
            for other in STATUSES:
                added, removed = out.setdefault(keys.lobby(other, scope), ([], []))
                if other == status:
                    added += [at, match_id]
                else:
                    removed.append(match_id)
    return out


def _fields(mapping: Mapping[str, bytes]) -> list[EncodableT]:
    return [x for pair in mapping.items() for x in pair]


def views(state: m.MatchState) -> dict[str, bytes]:
    """Every reader's view, encoded; once where readers share one (m.views)."""
    out: dict[str, bytes] = {}
    encoded: dict[int, bytes] = {}
    for seat, shown in m.views(state):
        body = encoded.get(id(shown))
        if body is None:
            body = encoded[id(shown)] = ENC.encode(shown)
        out["spectator" if seat is None else str(seat)] = body
    return out


def decode(envelopes: Sequence[Envelope]) -> list[Any]:
    """A stream's events from its first one (which names the game)."""
    return decode_events(game_of(envelopes), envelopes) if envelopes else []


# --- public: the redacted integration stream -----------------------------------------


PUBLISH = "for i = 1, #ARGV do redis.call('XADD', KEYS[1], '*', 'e', ARGV[i]) end return #ARGV"

PUBLIC_KINDS = {
    "match.created": "match_created",
    "match.player_joined": "player_joined",
    "match.player_left": "player_left",
    "match.started": "match_started",
    "match.seat_conceded": "seat_conceded",
    "match.finished": "match_finished",
    "match.forked": "match_forked",
    "match.undone": "move_undone",
    "match.rematch_offered": "rematch_offered",
    "match.rematch_accepted": "rematch_accepted",
    "match.rematch_declined": "rematch_declined",
    "match.rematch_agreed": "rematch_agreed",
    "match.closed": "table_closed",
}


class PublicProjection:
    """Needs no fold: redaction for a spectator depends on the event only, and the
    names for the sentence come from the lifecycle events it has seen."""

    name = "public"

    def __init__(self, redis: Redis, store: EventStore) -> None:
        self.redis = redis
        self.store = store
        self.tables: OrderedDict[str, tuple[str, list[str]]] = OrderedDict()

    def checkpoint_key(self, p: int) -> str:
        return Keys(p).public_checkpoint

    def keys_pattern(self, p: int) -> list[str]:
        return []  # never rebuilt: consumers have read it already

    async def _table(self, env: Envelope) -> tuple[str, list[str]]:
        found = self.tables.get(env.match_id)
        if found is None or env.version == 1:
            first = await self.store.load(env.match_id)
            state = m.fold(decode(first[: max(env.version - 1, 1)]))
            found = (state.game, m.seat_names(state.players))
            self.tables[env.match_id] = found
            while len(self.tables) > 20_000:
                self.tables.popitem(last=False)
        return found

    async def prepare(
        self, p: int, batch: Sequence[Entry], shared: Shared | None = None
    ) -> Callable[[Pipeline], None]:
        out: list[bytes] = []
        for _, env in batch:
            seen = shared.get((env.match_id, env.version)) if shared else None
            if seen is not None:
                # The matches projection, folding this batch, worked out the spectator's
                # event and sentence. The names kept here are now stale: read them afresh.
                self.tables.pop(env.match_id, None)
                game, body, text = seen
            else:
                game, names = await self._table(env)
                event = m.codec(game).decode(upcast(env).payload)
                if isinstance(event, m.PlayerJoined):
                    names[event.seat] = event.player
                shown = m.redact(game, event, None)
                body = None if shown is None else m.codec(game).encode(shown)
                text = "" if shown is None else m.describe(game, shown, None, names)
            if body is None:
                continue
            out.append(
                ENC.encode(
                    PublicEvent(
                        kind=PUBLIC_KINDS.get(env.type, "move_played"),
                        match_id=env.match_id,
                        version=env.version,
                        game=game,
                        at=env.recorded_at,
                        type=env.type,
                        event=msgspec.Raw(body),
                        text=text,
                    )
                )
            )

        def write(tx: Pipeline) -> None:
            if out:
                # One command for the batch, not one XADD each: inside MULTI every
                # command costs a QUEUED reply to parse.
                tx.eval(PUBLISH, 1, Keys(p).public, *out)

        return write

    def committed(self) -> None:
        pass


# --- ratings: played, won, openskill, leaderboards ----------------------------------------


FINISHED = ("match.finished",)  # the only events the ratings read


class RatingsProjection:
    name = "ratings"
    model = PlackettLuce()

    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    def checkpoint_key(self, p: int) -> str:
        return RATINGS.checkpoint(p)

    def keys_pattern(self, p: int) -> list[str]:
        return []  # rebuilt as a whole by Projector.rebuild("ratings")

    async def prepare(
        self, p: int, batch: Sequence[Entry], shared: Shared | None = None
    ) -> Callable[[Pipeline], None]:
        finished = [
            msgspec.json.decode(upcast(env).payload, type=m.MatchFinished)
            for _, env in batch
            if env.type == "match.finished"
        ]
        updates: dict[str, dict[str, PlayerRating]] = {}
        for done in finished:
            if not done.game or not done.players:
                continue
            table = updates.setdefault(done.game, {})
            for player in done.players:
                key = rating_key(player) if player else player
                if key and key not in table:
                    table[key] = await self._current(done.game, key)
            rate(table, done)

        def write(tx: Pipeline) -> None:
            for game, table in updates.items():
                tx.hset(RATINGS.rating(game), mapping={k: ENC.encode(v) for k, v in table.items()})
                # The boards rank people: the bots' shared rating is an opponent's
                # strength, not a standing.
                people = {k: v.ordinal for k, v in table.items() if not k.startswith(n.BOT_PREFIX)}
                if people:
                    tx.zadd(RATINGS.board(game), people)
                tx.sadd(RATINGS.games, game)

        return write

    async def _current(self, game: str, player: str) -> PlayerRating:
        raw: Any = await self.redis.hget(RATINGS.rating(game), player)
        if raw is None:
            fresh = self.model.rating()
            return PlayerRating(mu=fresh.mu, sigma=fresh.sigma)
        return msgspec.json.decode(raw, type=PlayerRating)

    def committed(self) -> None:
        pass

    def watch_keys(self, batch: Sequence[Entry]) -> list[str]:
        games = set()
        for _, env in batch:
            if env.type == "match.finished":
                games.add(msgspec.json.decode(env.payload, type=m.MatchFinished).game)
        return [RATINGS.rating(g) for g in sorted(games)]


BOTS = n.BOTS  # the one rating every random bot of a game plays under


def rating_key(player: str) -> str:
    """Whose rating a seat plays under. A bot's id is new at every table, but its strength
    is not: rated as a newcomer each time, every bot beaten would pay like an unknown
    opponent, and beating bots would climb the board. All bots of a game share one."""
    return BOTS if player.startswith(n.BOT_PREFIX) else player


def rate(table: dict[str, PlayerRating], done: m.MatchFinished) -> None:
    """One finished match: openskill over the ranks (ties shared), played and won counted.
    `table` is keyed by `rating_key`: the bots of a match all start from the bots' rating,
    which then takes the mean of where they ended."""
    model = RatingsProjection.model
    players = [p for p in done.players if p]
    if len(set(players)) != len(players) or len(players) < 2:
        return  # one person in several seats: not a rated match
    priors = [table[rating_key(p)] for p in players]
    teams = [
        [model.create_rating([r.mu, r.sigma], name=p)] for p, r in zip(players, priors, strict=True)
    ]
    rated = model.rate(teams, ranks=[float(r) for r in done.ranks])
    bots: list[tuple[float, float, int]] = []
    for player, rank, [new] in zip(players, done.ranks, rated, strict=True):
        if rating_key(player) == BOTS:
            bots.append((new.mu, new.sigma, rank))
            continue
        old = table[player]
        table[player] = PlayerRating(
            mu=new.mu, sigma=new.sigma, played=old.played + 1, won=old.won + (rank == 1)
        )
    if bots:
        old = table[BOTS]
        table[BOTS] = PlayerRating(
            mu=sum(b[0] for b in bots) / len(bots),
            sigma=sum(b[1] for b in bots) / len(bots),
            played=old.played + len(bots),
            won=old.won + sum(b[2] == 1 for b in bots),
        )


# --- the runner ----------------------------------------------------------------------

REBUILD_BATCH = 2000  # log entries per batch of a rebuild


class Projector(PassLoop):
    role = "projector"
    failed_event = "projection_failed"
    # Read models trail the log by up to this much more under a moderate load; players'
    # live views come from the logs themselves, not from here.
    linger = 0.25
    idle_max = 0.4

    def __init__(
        self,
        redis: Redis,
        store: EventStore,
        *,
        partitions: Sequence[int] | None = None,
        batch_size: int = 500,
        projections: Sequence[str] = ("matches", "public", "ratings"),
    ) -> None:
        self.redis = redis
        self.store = store
        self.partitions = list(partitions if partitions is not None else range(store.partitions))
        self.batch_size = batch_size
        every: dict[str, Projection] = {
            "matches": MatchesProjection(redis, store),
            "public": PublicProjection(redis, store),
        }
        self.projections = [every[n] for n in projections if n in every]
        # Ratings depend on the order of finished matches across partitions, so one
        # projector (the one holding partition 0) folds every partition, merged by log id.
        self.ratings = (
            RatingsProjection(redis) if "ratings" in projections and 0 in self.partitions else None
        )
        # (projection, partition) -> the log id applied last, as far as this process knows.
        self._seen: dict[tuple[str, int], bytes] = {}
        self._behind = False  # a batch of the last pass was full: more may wait
        # A rebuild's next batch, read while this one is folded: (partition, after, count)
        # and the read under way. Live, a batch is read when it is due.
        self._read_ahead = False
        self._ahead: tuple[tuple[int, str, int], asyncio.Task[list[LogEntry]]] | None = None

    def behind(self) -> bool:
        return self._behind

    async def _read(self, p: int, after: str, size: int) -> list[LogEntry]:
        """Partition p's next `size` log entries after `after`; in a rebuild, the batch
        after them is read meanwhile: Redis serves it while this one is folded and
        written, on a core that would wait otherwise."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None and ahead[0] == (p, after, size):
            batch = await ahead[1]
        else:
            if ahead is not None:  # a batch not taken (its write raced): read again
                ahead[1].cancel()
            batch = await self.store.read_log(p, after, size)
        if self._read_ahead and len(batch) >= size:
            nxt = batch[-1][0].decode()
            self._ahead = ((p, nxt, size), asyncio.create_task(self.store.read_log(p, nxt, size)))
        return batch

    async def step(
        self, projection: Projection | Sequence[Projection], p: int, count: int | None = None
    ) -> int:
        """One batch of one partition (`count` log entries, else `batch_size`), applied to
        each given projection in one MULTI; the number of events read. Projections at
        different checkpoints are stepped one by one; at the same one (the usual case)
        the log is read once for all."""
        group = [projection] if not isinstance(projection, Sequence) else list(projection)
        keys = [proj.checkpoint_key(p) for proj in group]
        async with self.redis.pipeline(transaction=True) as tx:
            await tx.watch(*keys)
            # MGET and MSET by name: a cluster pipeline refuses its mget() and mset(), which
            # cannot know the keys share a slot; these do (the partition's tag).
            raw: Any = await tx.execute_command("MGET", *keys)
            positions = {r.decode() if r else START for r in raw}
            if len(positions) > 1:
                await tx.unwatch()  # type: ignore[no-untyped-call]  # unannotated in redis-py
                done = 0
                for proj in group:
                    done = max(done, await self.step(proj, p, count))
                return done
            after = positions.pop()
            size = count or self.batch_size
            batch = await self._read(p, after, size)
            # Counted in events, which are at least as many as entries: at worst a
            # drained partition is taken for a full one, and the next pass comes at once.
            self._behind = self._behind or len(batch) >= size
            if not batch:
                for proj in group:
                    self._seen[(proj.name, p)] = after.encode()
                return 0
            # What one projection computes for another; alone, a projection needs none.
            shared: Shared | None = {} if len(group) > 1 else None
            writes = []
            for proj in group:
                extra = getattr(proj, "watch_keys", None)
                if extra is not None:
                    more = extra(batch)
                    if more:
                        await tx.watch(*more)
                writes.append(await proj.prepare(p, batch, shared))
            tx.multi()  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated
            for write in writes:
                write(tx)
            tx.execute_command("MSET", *[x for key in keys for x in (key, batch[-1][0])])
            try:
                await tx.execute()
            except WatchError:
                log.info("projection_raced", projections=[g.name for g in group], partition=p)
                for proj in group:
                    if isinstance(proj, MatchesProjection):
                        proj.forget()
                return 0
        for proj in group:
            proj.committed()
            self._seen[(proj.name, p)] = batch[-1][0]
            metrics.PROJECTED.labels(proj.name).inc(len(batch))
        return len(batch)

    async def step_ratings(self, count: int | None = None) -> int:
        """One merged batch of every partition for the ratings, in log-id order; the
        number of log events it moved past (only finished matches are decoded).

        Only entries older than every server's clock, read before the logs, are folded:
        on a cluster the logs are read from several servers at once, and an entry
        appended to one just after its read may sort before an entry read from another
        (a rebuild folds by id, so the live fold must too). Entries of this very
        millisecond wait for the next one."""
        for _ in range(100):
            moved, held = await self._step_ratings(count or self.batch_size)
            if moved or not held:
                return moved
            await asyncio.sleep(0.002)
        return 0

    async def _step_ratings(self, count: int) -> tuple[int, bool]:
        proj = self.ratings
        assert proj is not None
        every = range(self.store.partitions)
        keys = [proj.checkpoint_key(p) for p in every]
        async with self.redis.pipeline(transaction=True) as tx:
            await tx.watch(*keys)
            raw: Any = await tx.execute_command("MGET", *keys)  # one slot: `{ratings}`
            positions = [r.decode() if r else START for r in raw]
            clock = await self.store.log_clock()
            founds = await self.store.read_logs(
                dict(zip(every, positions, strict=True)), count, FINISHED
            )
            # A partition that filled its batch may have more: nothing past its last id
            # may be taken yet, from any partition.
            # (Counted in log entries: one entry's events share its position.)
            full = [
                position(f[-1][0]) for f in founds.values() if len({eid for eid, _ in f}) >= count
            ]
            cutoff = min(full) if full else None
            self._behind = self._behind or bool(full)
            merged: list[tuple[tuple[int, int], int, bytes, Envelope]] = []
            moved = 0
            held = False
            for p in every:
                for eid, env in founds[p]:
                    at = position(eid)
                    if cutoff is not None and at > cutoff:
                        break
                    if clock is not None and at[0] >= clock:
                        held = True
                        break
                    moved += 1
                    positions[p] = eid.decode()
                    if env is not None:
                        merged.append((at, p, eid, env))
            if not moved:
                for p, pos in zip(every, positions, strict=True):
                    self._seen[("ratings", p)] = pos.encode()
                return 0, held
            merged.sort(key=lambda x: (x[0], x[1]))
            batch = [(eid, env) for _, _, eid, env in merged]
            more = proj.watch_keys(batch)
            if more:
                await tx.watch(*more)
            write = await proj.prepare(0, batch)
            tx.multi()  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated
            write(tx)
            tx.execute_command("MSET", *[x for kv in zip(keys, positions, strict=True) for x in kv])
            try:
                await tx.execute()
            except WatchError:
                return 0, False
        for p, pos in zip(every, positions, strict=True):
            self._seen[("ratings", p)] = pos.encode()
        return moved, held

    async def catch_up(self) -> int:
        """Apply everything up to the current end of every log; the number of events."""
        total = 0
        while done := await self.pass_once():
            total += done
        return total

    async def pass_once(self) -> int:
        """One batch of every projection and partition that has news; events applied.

        Partitions whose newest log entry this projector has already applied are
        skipped without a transaction (idle, a pass costs one round trip)."""
        newest = await self.store.log_heads()
        done = 0
        self._behind = False
        for p in self.partitions:
            due = [proj for proj in self.projections if self._seen.get((proj.name, p)) != newest[p]]
            if due:
                done += await self.step(due, p)
            self._measure(p, newest[p])
        if self.ratings is not None and any(
            self._seen.get(("ratings", p)) != newest[p] for p in range(self.store.partitions)
        ):
            done += await self.step_ratings()
        return done

    def _measure(self, p: int, newest: bytes) -> None:
        """Each projection's lag on partition p, from what this process last applied
        (log ids are Redis's clock in ms: the difference is time behind)."""
        head = position(newest)[0]
        names = [proj.name for proj in self.projections]
        if self.ratings is not None:
            names.append("ratings")
        for name in names:
            seen = self._seen.get((name, p))
            if seen is None:
                continue
            behind = 0 if seen == newest else max(0, head - position(seen)[0])
            metrics.PROJECTION_LAG.labels(str(p), name).set(behind / 1000)

    async def lag(self) -> list[dict[str, Any]]:
        """Per partition and projection: events behind and milliseconds behind."""
        out = []
        heads = await self.store.log_heads()
        for p in self.partitions:
            last = heads[p].decode()
            named = [*self.projections, *([self.ratings] if self.ratings else [])]
            for projection in named:
                raw: Any = await self.redis.get(projection.checkpoint_key(p))
                at = raw.decode() if raw else START
                # Positions only (no event type asked for): nothing is decoded.
                behind = (await self.store.read_logs({p: at}, 10_000, ()))[p]
                out.append(
                    {
                        "partition": p,
                        "projection": projection.name,
                        "checkpoint": at,
                        "newest": last,
                        "events_behind": len(behind),
                        "ms_behind": position(heads[p])[0] - position(behind[0][0])[0]
                        if behind
                        else 0,
                    }
                )
        return out

    async def _keep_notice_marks(self, projection: MatchesProjection) -> None:
        """Before a rebuild drops the checkpoints: no notice mark below them (data made
        before notices existed has none), so the rebuild sends no notice of the past."""
        for p in self.partitions:
            keys = Keys(p)
            done: Any = await self.redis.get(projection.checkpoint_key(p))
            mark: Any = await self.redis.get(keys.notices_mark)
            if done and (not mark or position(done) > position(mark)):
                await self.redis.set(keys.notices_mark, done)
        projection.forget()

    async def _drop(self, pattern: str) -> None:
        """Delete every key matching `pattern`, a thousand per round trip."""
        found: list[Any] = []
        async for key in self.redis.scan_iter(match=pattern, count=1000):
            found.append(key)
            if len(found) >= 1000:
                await self._delete(found)
                found = []
        if found:
            await self._delete(found)

    async def _delete(self, keys: Sequence[Any]) -> None:
        # One DEL per key: on a cluster a DEL of several keys must keep to one slot.
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.delete(key)
            await pipe.execute()

    async def rebuild(self, name: str, progress: Callable[[int], None] | None = None) -> int:
        """Drop one projection's keys and checkpoints and apply every log from the start.

        A partition at a time, in batches of `REBUILD_BATCH` log entries. Every batch
        still moves its checkpoint in the MULTI that writes it, so a rebuild cut short
        leaves read models a projector continues from."""
        if name == "public":
            raise ValueError("the public stream is never rebuilt: its readers have seen it")
        # What the process held before the rebuild (modules, a caller's data) outlives
        # it: frozen, the collector stops walking all of it again on each full pass,
        # which a rebuild's millions of short-lived objects set off over and over. A
        # process that froze its heap already (a settled service) keeps it so: thawing
        # here would undo that for the rest of its life. And the young are collected as
        # seldom as in a settled service (infra/collector.py: each 700 new objects, a
        # twentieth of a rebuild's time went there).
        thaw = gc.get_freeze_count() == 0
        threshold = gc.get_threshold()
        if thaw:
            gc.freeze()
        gc.set_threshold(max(YOUNG, threshold[0]), *threshold[1:])
        self._read_ahead = True
        try:
            return await self._rebuild(name, progress)
        finally:
            self._read_ahead = False
            if self._ahead is not None:
                self._ahead[1].cancel()
                self._ahead = None
            gc.set_threshold(*threshold)
            if thaw:
                gc.unfreeze()

    async def _rebuild(self, name: str, progress: Callable[[int], None] | None) -> int:
        if name == "ratings":
            assert self.ratings is not None, "ratings are folded by the holder of partition 0"
            await self._drop(RATINGS.pattern)
            total = 0
            # Only match.finished entries are decoded: the batches can be as big as the
            # matches projection's.
            while n := await self.step_ratings(max(self.batch_size, REBUILD_BATCH)):
                total += n
                if progress:
                    progress(n)
            return total
        projection = next(p for p in self.projections if p.name == name)
        if isinstance(projection, MatchesProjection):
            await self._keep_notice_marks(projection)
        for p in self.partitions:
            for pattern in projection.keys_pattern(p):
                await self._drop(pattern)
            await self.redis.delete(projection.checkpoint_key(p))
        if isinstance(projection, MatchesProjection):
            projection.forget()
        # Bigger batches than live: fewer round trips and transactions, and each match's
        # summary and views written once for more of its events.
        count = max(self.batch_size, REBUILD_BATCH)
        total = 0
        while True:  # until a pass finds every log applied, appends meanwhile too
            done = 0
            for p in self.partitions:
                while n := await self.step(projection, p, count):
                    done += n
                    if progress:
                        progress(n)
            total += done
            if done == 0:
                return total
