"""Notices to players: what each event of a match tells whom, and how a notice is posted.

Two sources. The log: the matches projection calls `derive` for every event it folds
("your turn" when a player enters the set of those who must act, "match finished" to
every seat), and writes the notices in the same MULTI as its checkpoint, so a batch read
twice writes them once; a rebuild writes none of the events it has written before (the
partition's mark, `tt:{p}:notices:mark`). Other events get their notices from a rule
registered here by event type (`rule`): `match.finished`, `match.rematch_offered`,
`match.closed`.
Everything else (a clock's "time running low", which no event records) posts through
`post_notice`, idempotent by the notice's id.

Every notice goes to its partition's stream `tt:{p}:notices` (capped, `MAXLEN ~`), which
the gateway pushes, the webhook sender reads through its consumer group and an
integration may read as the public stream, and to the player's inbox
`tt:{p}:rm:inbox:<player>` (the latest, capped), which the gateway reads on connect.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.typing import EncodableT

from domain import match as m
from domain.kernel import get_game
from events.keys import Keys, partition_of
from services.readside.schema import Notice, NoticeKind
from services.readside.writes import Writes

# Bots (services/gateway/seating.py names them `bot-<hex>`, one per table) hear nothing:
# nobody reads their notices, and an inbox or a list of turns each would pile up keys.
BOT_PREFIX = "bot-"
BOTS = f"{BOT_PREFIX}random"  # the one rating every random bot of a game plays under
STREAM_MAXLEN = 10_000  # per partition, approximately (XADD MAXLEN ~)
INBOX_SIZE = 50  # the latest notices per player and partition
POSTED_FOR_MS = 24 * 3600 * 1000  # how long a posted notice's id is remembered
ENC = msgspec.json.Encoder()
DEC = msgspec.json.Decoder(Notice)

# A rule: the match before and after one event of its type, and the event; the notices
# it gives (their ids, times and versions are filled in by `derive`).
Rule = Callable[[m.MatchState | None, m.MatchState, Any], Iterable["Draft"]]
RULES: dict[str, Rule] = {}


class Draft(msgspec.Struct, frozen=True):
    """A notice before the event's position is known."""

    player: str
    kind: NoticeKind
    text: str
    rank: int | None = None
    rematch_id: str | None = None
    seconds_left: int | None = None
    by: str | None = None


def rule(event_type: str) -> Callable[[Rule], Rule]:
    """Register the notices an event type gives (e.g. `match.rematch_offered`)."""

    def register(fn: Rule) -> Rule:
        RULES[event_type] = fn
        return fn

    return register


def notice_id(match_id: str, version: int, kind: str, player: str) -> str:
    return f"{match_id}:{version}:{kind}:{player}"


def hears(player: str | None) -> bool:
    """Whether a seat's player gets turns and notices (a person, not a bot)."""
    return player is not None and not player.startswith(BOT_PREFIX)


def acting(state: m.MatchState | None) -> frozenset[str]:
    """The people who must act now (none unless the match is being played)."""
    if state is None or state.status != "playing":
        return frozenset()
    seats = get_game(state.game).to_act(state.game_state)
    return frozenset(
        p for s in seats if s not in state.conceded and hears(p := state.players[s]) and p
    )


def gives_notices(event_type: str) -> bool:
    """Whether an event of this type gives notices of its own (besides turns coming)."""
    return event_type in RULES


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@rule("match.finished")
def finished(before: m.MatchState | None, after: m.MatchState, event: Any) -> Iterable[Draft]:
    """Every seated player hears the match is over, and where they came."""
    title = get_game(after.game).title
    ranks = after.outcome.ranks if after.outcome else ()
    seen: set[str] = set()
    for seat, player in enumerate(after.players):
        if player is None or not hears(player) or player in seen:
            continue
        seen.add(player)
        rank = ranks[seat] if seat < len(ranks) else None
        place = f": you came {ordinal(rank)}" if rank else ""
        yield Draft(player, "match_finished", f"{title} is over{place}.", rank=rank)


@rule("match.rematch_offered")
def rematch_offered(
    before: m.MatchState | None, after: m.MatchState, event: Any
) -> Iterable[Draft]:
    """Every other seated player hears a rematch is on offer, to accept or decline (the
    offerer has accepted by offering). The new match's id is filled in by `derive`."""
    title = get_game(after.game).title
    offerer = event.player
    seen = {offerer}
    for player in after.players:
        if player is None or not hears(player) or player in seen:
            continue
        seen.add(player)
        said = f"{offerer} offers a rematch of {title}: accept or decline it."
        yield Draft(player, "rematch_offered", said, by=offerer)


@rule("match.closed")
def table_closed(before: m.MatchState | None, after: m.MatchState, event: Any) -> Iterable[Draft]:
    """Whoever still sat at a table closed for waiting too long hears why it is gone (a
    table its last player left has nobody to tell)."""
    title = get_game(after.game).title
    for player in dict.fromkeys(p for p in after.players if p is not None and hears(p)):
        said = f"Your table of {title} was closed: nobody came to start it."
        yield Draft(player, "table_closed", said)


def derive(
    match_id: str,
    version: int,
    at: int,
    event_type: str,
    before: m.MatchState | None,
    after: m.MatchState,
    event: Any,
    was_acting: frozenset[str] | None = None,
    now_acting: frozenset[str] | None = None,
) -> tuple[list[Notice], frozenset[str]]:
    """The notices one event gives, and who must act after it (pass that back as
    `was_acting` for the match's next event: it saves working it out again; and
    `now_acting`, who must act after it, if the caller knows)."""
    if now_acting is None:
        now_acting = acting(after)
    before_acting = acting(before) if was_acting is None else was_acting
    drafts: list[Draft] = []
    fresh = now_acting - before_acting
    if fresh:
        title = get_game(after.game).title
        said = f"Your turn at {title}" + ("" if title[-1:] in "!?." else ".")
        drafts += [Draft(p, "your_turn", said) for p in sorted(fresh)]
    found = RULES.get(event_type)
    if found is not None:
        drafts += found(before, after, event)
    notices = [
        Notice(
            id=notice_id(match_id, version, d.kind, d.player),
            kind=d.kind,
            player=d.player,
            match_id=match_id,
            game=after.game,
            version=version,
            at=at,
            text=d.text,
            rank=d.rank,
            # A rematch's id is derived from the match it rematches (`m.rematch_id`).
            rematch_id=d.rematch_id
            if d.rematch_id is not None or d.kind != "rematch_offered"
            else m.rematch_id(match_id),
            seconds_left=d.seconds_left,
            by=d.by,
        )
        for d in drafts
    ]
    return notices, now_acting


# KEYS: the notice stream, the posted ids, the player's inbox. ARGV: the id, the JSON,
# its time, the stream's cap, the inbox's cap, how long an id is remembered (ms).
POST_LUA = """
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', tonumber(ARGV[3]) - tonumber(ARGV[6]))
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '*', 'n', ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -(tonumber(ARGV[5]) + 1))
return 1
"""


def write(writes: Writes, p: int, notices: Sequence[tuple[Notice, bool]]) -> None:
    """Add these notices to a batch's writes (each with whether the stream gets it: a
    rebuild's do not, the stream has seen them): each to the partition's stream, every
    one to its player's inbox, and each inbox cut to its latest once."""
    keys = Keys(p)
    inboxes: dict[str, list[EncodableT]] = {}
    for notice, to_stream in notices:
        body = ENC.encode(notice)
        if to_stream:
            writes.add("XADD", keys.notices, "MAXLEN", "~", STREAM_MAXLEN, "*", "n", body)
        inboxes.setdefault(keys.inbox(notice.player), []).extend((notice.at, body))
    for inbox, pairs in inboxes.items():
        writes.add_many("ZADD", inbox, pairs, step=2)
        writes.add("ZREMRANGEBYRANK", inbox, 0, -(INBOX_SIZE + 1))


async def post_notice(redis: Redis, partitions: int, notice: Notice) -> bool:
    """Post a notice no event records (a clock's "time running low"); False if one with
    its id was posted already (within a day). Its match's partition holds it."""
    keys = Keys(partition_of(notice.match_id, partitions))
    done: Any = await redis.eval(
        POST_LUA,
        3,
        keys.notices,
        keys.notices_posted,
        keys.inbox(notice.player),
        notice.id,
        ENC.encode(notice),
        notice.at,
        STREAM_MAXLEN,
        INBOX_SIZE,
        POSTED_FOR_MS,
    )
    return bool(done)


def decode_entry(fields: dict[bytes, bytes]) -> Notice | None:
    """A stream entry's notice; None if it holds none this reader understands."""
    raw = fields.get(b"n")
    if raw is None:
        return None
    try:
        return DEC.decode(raw)
    except msgspec.DecodeError:
        return None
