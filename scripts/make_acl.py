"""Write deploy/users.acl: one Redis user per role, each with only its keys and commands.

    python scripts/make_acl.py [--partitions 16] > deploy/users.acl

Redis 6.2 (the embedded server) has no per-key command rules, so a user's commands
reach every key it may name. Two things keep that tight: a command whose first argument
is its key can be allowed for exact keys only (`+xadd|tt:{0}:commands`: XADD to the
command streams and nowhere else), which is why the partition count is written into
the file; and a process that must read events but write other keys logs in as two
users (the projector). deploy/users.md gives each role's reasons;
tests/integration/test_deploy_acl.py proves every line against a real server.
"""

from __future__ import annotations

import argparse

# Key families, as ACL patterns (`{` and `}` are literal: the hash tag of a partition).
COMMANDS = "~tt:{*}:commands"
EVENTS = "~tt:{*}:match:* ~tt:{*}:log"
REPLIES_ALL = "~tt:replies:*"
READ_MODELS = (
    "~tt:{*}:rm:match:* ~tt:{*}:rm:view:* ~tt:{*}:rm:lobby:* "
    "~tt:{*}:rm:turns:* ~tt:{*}:rm:mine:* ~tt:{*}:rm:inbox:* "
    "~tt:{ratings}:rating:* ~tt:{ratings}:board:* ~tt:{ratings}:games"
)
READ_MODEL_READS = (
    "+get +hget +hmget +hgetall +lrange +llen +zrange +zrevrange +zcount +zcard +zscore +smembers"
)
# Archived matches' tombstones (and the archiver's cursor beside them).
TOMBSTONES = "~tt:{*}:archived"
# The gateway's shared quick-play and bot keys (events/keys.py, GATEWAY).
QP_OPEN, QP_TABLES, QP_DUE = "tt:{gateway}:qp:open", "tt:{gateway}:qp:tables", "tt:{gateway}:qp:due"
BOTS, BOT_OWNERS, BOT_LEASES = (
    "tt:{gateway}:bots",
    "tt:{gateway}:bots:owner",
    "tt:{gateway}:bots:lease",
)
# Players whose sign-ins were ended (services/gateway/signouts.py).
SIGNOUTS = "tt:{gateway}:signouts"
BASE = "resetchannels -@all +ping"
# Each partition's notice stream (services/readside/notices.py).
NOTICES = "~tt:{*}:notices"


def notice_posting(partitions: int) -> str:
    """What a role needs to call `post_notice` (a clock's "time running low"): its script
    writes the notice stream, the posted ids and the player's inbox (the scheduler's
    line has it)."""
    streams = [f"tt:{{{p}}}:notices" for p in range(partitions)]
    return " ".join(
        [
            NOTICES,
            "~tt:{*}:notices:posted ~tt:{*}:rm:inbox:*",
            "+eval +evalsha +zscore +zadd +zremrangebyscore +zremrangebyrank",
            first_arg("xadd", streams),
        ]
    )


# The partition count the data was made with: the command service records it once
# (SET only on that exact key), every process may read it and check its own.
PARTITION_COUNT = "~tt:partitions +get"


def first_arg(command: str, keys: list[str]) -> str:
    """`command` allowed only with one of these exact keys as its first argument."""
    return " ".join(f"+{command}|{key}" for key in keys)


def users(partitions: int) -> list[str]:
    command_streams = [f"tt:{{{p}}}:commands" for p in range(partitions)]
    public_streams = [f"tt:{{{p}}}:public" for p in range(partitions)]
    logs = [f"tt:{{{p}}}:log" for p in range(partitions)]
    tombstones = [f"tt:{{{p}}}:archived" for p in range(partitions)]
    cursors = [f"tt:{{{p}}}:archived:cursor" for p in range(partitions)]
    chat_streams = [f"tt:{{{p}}}:chat" for p in range(partitions)]
    chat_recent = [f"tt:{{{p}}}:chat:recent" for p in range(partitions)]
    rematch_checkpoints = [f"tt:{{{p}}}:rematch:checkpoint" for p in range(partitions)]
    clock_due = [f"tt:{{{p}}}:clock:due" for p in range(partitions)]
    clock_seats = [f"tt:{{{p}}}:clock:seats" for p in range(partitions)]
    clock_checkpoints = [f"tt:{{{p}}}:clock:checkpoint" for p in range(partitions)]
    clock_warn = [f"tt:{{{p}}}:clock:warn" for p in range(partitions)]
    clock_warn_due = [f"tt:{{{p}}}:clock:warn:due" for p in range(partitions)]
    idle_due = [f"tt:{{{p}}}:clock:idle" for p in range(partitions)]
    idle_version = [f"tt:{{{p}}}:clock:idle:version" for p in range(partitions)]
    notice_streams = [f"tt:{{{p}}}:notices" for p in range(partitions)]
    dead_notices = [f"tt:{{{p}}}:notices:dead" for p in range(partitions)]
    return [
        "user default off",
        "user tt-admin on >change-me ~* &* +@all",
        " ".join(
            [
                "user tt-commands on >change-me",
                BASE,
                PARTITION_COUNT,
                first_arg("set", ["tt:partitions"]),
                COMMANDS,
                EVENTS,
                "~tt:{*}:cmds:* ~tt:{*}:snap:* ~tt:{*}:dead",
                # append.lua reads an archived match's tombstone (never writes it).
                TOMBSTONES,
                REPLIES_ALL,
                "~tt:heartbeats:*",
                "+xreadgroup +xack +xpending +xclaim +xautoclaim",
                "+xgroup|create +xgroup|delconsumer +xinfo|consumers +xinfo|groups +xinfo|stream",
                "+xrange +xrevrange +xlen +xadd",
                first_arg("xtrim", command_streams),
                "+evalsha +eval +script|load +time +hget +hmget +hset +hgetall +client|setname",
                # The rematch process, beside the commands (services/rematch): it follows
                # the logs from its checkpoints and sends the rematch's commands, reading
                # the replies with the client library (XREAD on its own reply stream).
                "~tt:{*}:rematch:checkpoint +get +mget +xread",
                first_arg("set", rematch_checkpoints),
            ]
        ),
        " ".join(
            [
                "user tt-projector on >change-me",
                BASE,
                "~tt:{*}:rm:* ~tt:{*}:public ~tt:{*}:public:checkpoint ~tt:{ratings}:*",
                "+watch +unwatch +multi +exec +discard +get +mget +set +mset",
                "+hget +hset +rpush +zadd +zrem +sadd +eval +client|setname",
                first_arg("xadd", public_streams),
                # Notices: the stream and its mark, the inboxes capped by rank (one
                # script, services/readside/notices.py).
                NOTICES,
                "~tt:{*}:notices:mark +zremrangebyrank",
                first_arg("xadd", notice_streams),
            ]
        ),
        " ".join(
            [
                "user tt-projector-log on >change-me",
                BASE,
                EVENTS,
                # An archived match's tombstone, to read its record from the archive;
                # TIME: the ratings fold only what no later append can precede.
                TOMBSTONES,
                "+xrange +xrevrange +xlen +hget +time",
            ]
        ),
        " ".join(
            [
                "user tt-gateway on >change-me",
                BASE,
                PARTITION_COUNT,
                COMMANDS,
                "~tt:replies:tt-gateway:*",
                READ_MODELS,
                first_arg("xadd", command_streams),
                "+xread",
                READ_MODEL_READS,
                # It folds each match to give every caller their own seat's view and
                # events (nothing unredacted leaves it) and follows the logs for its
                # pushes: it reads the event keys and snapshots, and writes only the
                # display names.
                EVENTS,
                "~tt:{*}:snap:* ~tt:{gateway}:names",
                TOMBSTONES,
                # Each player's notices, pushed to their socket.
                NOTICES,
                "+xrange +xrevrange +xlen",
                first_arg("hset", ["tt:{gateway}:names"]),
                # Quick play and bots, shared by every gateway process: Lua scripts on
                # exact keys (services/gateway/seating.py); each write is allowed on its
                # own key only, so a script can write nothing else.
                "~tt:{gateway}:qp:* ~tt:{gateway}:bots*",
                "+evalsha +eval +script|load +time +zrange +zrangebyscore",
                first_arg("hset", [QP_OPEN, QP_TABLES, BOTS, BOT_OWNERS]),
                first_arg("hdel", [QP_OPEN, QP_TABLES, BOTS, BOT_OWNERS]),
                first_arg("zadd", [QP_DUE, BOT_LEASES]),
                first_arg("zrem", [QP_DUE, BOT_LEASES]),
                # Ended sign-ins: a stream appended to when a player's are ended (the
                # append trims what is past the tokens' lifetime), followed by every
                # process each second with XRANGE; a sign-in is timed by TIME, on
                # the same clock as the ends.
                f"~{SIGNOUTS}",
                first_arg("xadd", [SIGNOUTS]),
                # Table chat (services/gateway/chat.py), the one thing it writes in a
                # partition: its scripts append to the partition's chat stream and keep
                # the match's latest lines (a line said, or taken back), on those two
                # exact keys; the stream is followed with XREAD, the lines read with HGET.
                "~tt:{*}:chat ~tt:{*}:chat:recent",
                first_arg("xadd", chat_streams),
                first_arg("hset", chat_recent),
                first_arg("hdel", chat_recent),
            ]
        ),
        " ".join(
            [
                "user tt-reader on >change-me",
                BASE,
                PARTITION_COUNT,
                READ_MODELS,
                TOMBSTONES,
                READ_MODEL_READS,
            ]
        ),
        " ".join(
            [
                "user tt-integration on >change-me",
                BASE,
                "~tt:{*}:public",
                NOTICES,
                "+xreadgroup +xack +xpending +xclaim +xautoclaim +xgroup|create",
                "+xinfo|groups +xinfo|consumers +xinfo|stream +xread +xrange +xrevrange +xlen",
            ]
        ),
        " ".join(
            [
                "user tt-webhooks on >change-me",
                BASE,
                # Its consumer group on the notice streams; dead letters beside them.
                NOTICES,
                "~tt:{*}:notices:dead",
                "+xreadgroup +xack +xautoclaim +xgroup|create",
                first_arg("xadd", dead_notices),
            ]
        ),
        " ".join(
            [
                "user tt-auditor on >change-me",
                BASE,
                EVENTS,
                "~tt:{*}:cmds:*",
                TOMBSTONES,
                "+scan +xrange +xrevrange +xlen +hget +hgetall +hkeys",
            ]
        ),
        " ".join(
            [
                "user tt-archiver on >change-me",
                BASE,
                # It reads a finished match whole, writes its tombstone, then deletes
                # its keys: the one role that may delete an event, and only it.
                EVENTS,
                "~tt:{*}:cmds:* ~tt:{*}:snap:*",
                "~tt:{*}:rm:match:* ~tt:{*}:rm:view:* ~tt:{*}:rm:hist:* ~tt:{*}:rm:lobby:*",
                # Its players' inboxes, which lose their notices older than the retention;
                # its table chat, which leaves with it.
                "~tt:{*}:rm:inbox:* ~tt:{*}:chat:recent",
                "~tt:{*}:rm:checkpoint ~tt:{*}:public ~tt:{*}:public:checkpoint",
                "~tt:{ratings}:checkpoint:*",
                TOMBSTONES,
                "~tt:{*}:archived:cursor",
                # The scheduler's checkpoint: the log is trimmed behind it too.
                "~tt:{*}:clock:checkpoint",
                REPLIES_ALL,
                "+xrange +xrevrange +xlen +get +mget +hget +hmget +hgetall +zrangebyscore",
                "+zcount +zremrangebyscore +scan +del +evalsha +eval +script|load",
                "+client|setname",
                first_arg("hset", tombstones),
                first_arg("set", cursors),
                first_arg("xtrim", logs + public_streams),
                first_arg("hdel", chat_recent),
            ]
        ),
        " ".join(
            [
                "user tt-scheduler on >change-me",
                BASE,
                # It follows the logs and reads a match whose seat it warns (reads
                # only), keeps each partition's deadlines, warnings and checkpoint
                # and idle tables (writes on those exact keys), sends TimeExpired and
                # CloseTable on the command streams, reads its own replies and posts
                # "time running low".
                EVENTS,
                "~tt:{*}:clock:*",
                COMMANDS,
                "~tt:replies:scheduler",
                "+xrange +xrevrange +xlen +get +hmget +zrangebyscore +multi +exec +client|setname",
                first_arg("set", clock_checkpoints),
                first_arg("hset", clock_seats + clock_warn + idle_version),
                first_arg("hdel", clock_seats + clock_warn + idle_version),
                first_arg("zadd", clock_due + clock_warn_due + idle_due),
                first_arg("zrem", clock_due + clock_warn_due + idle_due),
                first_arg("xadd", command_streams),
                notice_posting(partitions),
            ]
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--partitions", type=int, default=16)
    args = parser.parse_args()
    print("\n".join(users(args.partitions)))


if __name__ == "__main__":
    main()
