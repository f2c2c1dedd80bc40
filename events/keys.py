"""Every Redis key name, and the partition function that places a match.

A match id hashes to one of P partitions, and every key of a partition carries the
hash tag `{p}`: Redis Cluster puts the whole partition in one slot, so one Lua script
(the append) or one MULTI (a projection's batch and its checkpoint) may touch any of its
keys. The two kinds of key outside a partition say below why they are global.
"""

from __future__ import annotations

import zlib

DEFAULT_PARTITIONS = 16


def partition_of(match_id: str, partitions: int = DEFAULT_PARTITIONS) -> int:
    return zlib.crc32(match_id.encode()) % partitions


_MADE: dict[int, Keys] = {}


class Keys:
    """The keys of partition p, each tagged `{p}`."""

    __slots__ = (
        "archive_cursor",
        "archived",
        "chat",
        "chat_recent",
        "clock_checkpoint",
        "clock_due",
        "clock_seats",
        "clock_warn",
        "clock_warn_due",
        "idle_due",
        "idle_version",
        "commands",
        "dead",
        "log",
        "notices",
        "notices_dead",
        "notices_mark",
        "notices_posted",
        "p",
        "public",
        "public_checkpoint",
        "rematch_checkpoint",
        "rm",
        "rm_checkpoint",
        "tag",
    )

    def __new__(cls, p: int) -> Keys:
        # One instance per partition, made once: hot paths ask for a partition's keys
        # per command, and making them is two dozen formatted strings. Nothing sets an
        # attribute after it is made.
        made = _MADE.get(p)
        if made is None:
            made = _MADE[p] = super().__new__(cls)
            made._name(p)
        return made

    def __reduce__(self) -> tuple[type[Keys], tuple[int]]:
        return Keys, (self.p,)  # pickled and copied as its partition: the same instance

    def _name(self, p: int) -> None:
        self.p = p
        self.tag = f"tt:{{{p}}}"
        # Streams: commands in, the partition's events in commit order, what a
        # spectator may see, and commands nobody could be answered about.
        self.commands = f"{self.tag}:commands"
        self.log = f"{self.tag}:log"
        self.public = f"{self.tag}:public"
        self.public_checkpoint = f"{self.public}:checkpoint"
        self.dead = f"{self.tag}:dead"
        # The read models of the `matches` projection, and its checkpoint among them.
        self.rm = f"{self.tag}:rm"
        self.rm_checkpoint = f"{self.rm}:checkpoint"
        # Hash: each archived match's tombstone (events/archive.py); and how far, by
        # finish time, the archiver has gone through the finished lobby.
        self.archived = f"{self.tag}:archived"
        self.archive_cursor = f"{self.archived}:cursor"
        # How far the rematch process has followed the log (services/rematch).
        self.rematch_checkpoint = f"{self.tag}:rematch:checkpoint"
        # The scheduler's (services/scheduler/), derived from the log: sorted set of
        # clocked matches by their earliest deadline (unix ms), hash of each one's
        # running seats and deadlines (JSON), and how far through the log it has read.
        self.clock_due = f"{self.tag}:clock:due"
        self.clock_seats = f"{self.tag}:clock:seats"
        self.clock_checkpoint = f"{self.tag}:clock:checkpoint"
        # The "time running low" notices still to post: hash of each match's seats with
        # when to warn, their deadline and the version that set it (JSON), and sorted
        # set of the matches by their earliest warning.
        self.clock_warn = f"{self.tag}:clock:warn"
        self.clock_warn_due = f"{self.tag}:clock:warn:due"
        # Tables waiting for players: sorted set of them by when they will have been
        # idle too long (unix ms), and hash of the version each was at then.
        self.idle_due = f"{self.tag}:clock:idle"
        self.idle_version = f"{self.tag}:clock:idle:version"
        # Notices to players (services/readside/notices.py). Stream: every notice of the
        # partition's matches, capped, read by the gateway, the webhook sender (consumer
        # group `tt-webhooks`) and integrations. String: the log id up to which notices
        # were written, kept apart from the read models so a rebuild never sends one
        # twice. Sorted set: ids of notices posted by code outside the projector (one
        # day, for idempotency). Stream: notices the webhook sender gave up on.
        self.notices = f"{self.tag}:notices"
        self.notices_mark = f"{self.notices}:mark"
        self.notices_posted = f"{self.notices}:posted"
        self.notices_dead = f"{self.notices}:dead"
        # Table chat (services/gateway/chat.py), the one thing the gateway writes in a
        # partition: a stream of every line said at the partition's tables (capped),
        # followed by every gateway process for its sockets; and a hash of each
        # match's latest lines (JSON), which leaves with the match when it is archived.
        # Two exact keys a partition, so the ACL can allow the writes on them alone.
        self.chat = f"{self.tag}:chat"
        self.chat_recent = f"{self.chat}:recent"

    # --- the record of a match (the event store) ----------------------------------

    def match(self, match_id: str) -> str:
        """The match's events, entry ids `0-<version>`."""
        return f"{self.tag}:match:{match_id}"

    def replies(self, match_id: str) -> str:
        """Hash: each command id of the match and the reply it got (idempotency)."""
        return f"{self.tag}:cmds:{match_id}"

    def snapshot(self, match_id: str) -> str:
        return f"{self.tag}:snap:{match_id}"

    @property
    def match_pattern(self) -> str:
        """A SCAN pattern for every match stream of the partition."""
        return self.match("*")

    # --- read models -------------------------------------------------------------------

    def summary(self, match_id: str) -> str:
        return f"{self.rm}:match:{match_id}"

    def views(self, match_id: str) -> str:
        """Hash: the current view of each seat and of the spectator."""
        return f"{self.rm}:view:{match_id}"

    def history(self, match_id: str, reader: str) -> str:
        """List: the moves as one reader ("spectator" or a seat number) may see them, as
        the projector once stored them (histories are now worked out when read); the
        archiver still removes a match's old lists with it."""
        return f"{self.rm}:hist:{match_id}:{reader}"

    def lobby(self, status: str, scope: str) -> str:
        """Sorted set: the matches of a status, of one game or of every game (`*`), or
        the unlisted tables of every game (`UNLISTED`: in no lobby, but the archiver
        finds the finished ones there)."""
        return f"{self.rm}:lobby:{status}:{scope}"

    def turns(self, player: str) -> str:
        """Sorted set: the player's matches of this partition where it is their turn,
        scored by when the turn came (ms)."""
        return f"{self.rm}:turns:{player}"

    def mine(self, player: str) -> str:
        """Sorted set: the player's matches of this partition, scored by when they last
        sat down at, started or finished each (ms); the latest kept (capped). A match
        they left stays a member: a reader checks the seats (so a rebuild, which trims
        once where the live projector trimmed batch by batch, keeps the same members)."""
        return f"{self.rm}:mine:{player}"

    def inbox(self, player: str) -> str:
        """Sorted set: the player's latest notices of this partition (their JSON),
        scored by time; capped. A read model: a rebuild writes the same members again."""
        return f"{self.rm}:inbox:{player}"

    @property
    def rm_pattern(self) -> str:
        """A SCAN pattern for every read-model key of the partition (a rebuild drops them)."""
        return f"{self.rm}:*"


UNLISTED = "~"  # the lobby scope of unlisted tables (no game is called that)


class RatingKeys:
    """Global, in a slot of their own (tag `{ratings}`): a player's rating folds finished
    matches of every partition in one order, so one projector writes them all, with one
    checkpoint per partition beside them in the same MULTI."""

    __slots__ = ("games", "pattern", "tag")

    def __init__(self) -> None:
        self.tag = "tt:{ratings}"
        self.games = f"{self.tag}:games"
        self.pattern = f"{self.tag}:*"

    def rating(self, game: str) -> str:
        """Hash: player -> played, won and openskill rating."""
        return f"{self.tag}:rating:{game}"

    def board(self, game: str) -> str:
        """Sorted set: players by ordinal (mu - 3 sigma)."""
        return f"{self.tag}:board:{game}"

    def checkpoint(self, p: int) -> str:
        return f"{self.tag}:checkpoint:{p}"


RATINGS = RatingKeys()

# Global too: a reply stream belongs to the client that reads it, which awaits replies
# for matches of every partition on one stream. The reply is a plain XADD after the
# append, never part of a partition's script, so it needs no partition's tag. Replies
# only ever go to streams under this prefix: a command naming any other key (an event
# stream, the partition log) must not make the service write there.
REPLY_PREFIX = "tt:replies:"


def reply_stream(client_id: str) -> str:
    return f"{REPLY_PREFIX}{client_id}"


class GatewayKeys:
    """The gateway's own keys, global (tag `{gateway}`): a player's display name is read
    for matches of every partition, and the gateway writes no partition's keys but its
    two chat keys (Keys.chat, Keys.chat_recent)."""

    __slots__ = (
        "bot_leases",
        "bot_owners",
        "bots",
        "names",
        "quickplay_due",
        "quickplay_open",
        "quickplay_tables",
        "signouts",
        "tag",
    )

    def __init__(self) -> None:
        self.tag = "tt:{gateway}"
        # Hash: player id -> display name (names are shown, ids are what the log keeps).
        self.names = f"{self.tag}:names"
        # Quick play, shared by every gateway process. Exact keys, one slot, so one Lua
        # script seats a player or claims a table's bot fill atomically, and the ACL can
        # name each key (services/gateway/seating.py).
        # Hash: queue (game|seats|options) -> the match id of its open table.
        self.quickplay_open = f"{self.tag}:qp:open"
        # Hash: match id -> JSON {"q": queue, "n": seats, "p": [player ids by seat]}.
        self.quickplay_tables = f"{self.tag}:qp:tables"
        # Sorted set: open table -> when its empty seats get bots (Redis's clock, ms).
        self.quickplay_due = f"{self.tag}:qp:due"
        # Bots, owned by one gateway process at a time through a lease.
        # Hash: bot id -> JSON {"match": id, "name": display name}.
        self.bots = f"{self.tag}:bots"
        # Hash: bot id -> the gateway process that plays it now.
        self.bot_owners = f"{self.tag}:bots:owner"
        # Sorted set: bot id -> when its owner's lease runs out (ms); renewed each second.
        self.bot_leases = f"{self.tag}:bots:lease"
        # Stream: one entry {p: player id} each time a player's sign-ins are ended (its
        # id the time): every token issued before then is refused; every gateway
        # process follows it (services/gateway/signouts.py).
        self.signouts = f"{self.tag}:signouts"


GATEWAY = GatewayKeys()


def heartbeats(group: str) -> str:
    """Hash: each worker of a consumer group and its last heartbeat (Redis's clock, ms).
    Global: a worker beats once for all the partitions it reads, and its rescuers look
    at every partition."""
    return f"tt:heartbeats:{group}"


# Global as well: written once by the first process to use the data, the partition count
# its keys were made with. Another count would hash match ids to other partitions and
# find none of them, so every process checks it at start (services/infra/config.py).
PARTITIONS = "tt:partitions"
