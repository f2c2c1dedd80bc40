"""deploy/users.acl, loaded into a real redis-server (the embedded one, Redis 6.2).

Two proofs. The matrix: every role tries every key family with every command that
matters (reads, appends, overwrites, trims, deletes, group moves) and is allowed
exactly what `ALLOWED` lists, refused (NOPERM) everything else. The processes: each
runs as its own users, a match is played, projected, read through the CLI as the
reader, followed on the public stream by the integration and audited by the auditor.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import pytest_asyncio
from click.testing import CliRunner
from redis.asyncio import Redis
from redis.exceptions import NoPermissionError, RedisError, ResponseError

from domain import match as m
from events.archive import ArchivedStore, FileArchive
from events.keys import GATEWAY, Keys, partition_of
from events.redis_store import RedisEventStore
from services import compose
from services.cli.main import main
from services.client.bots import play_match
from services.client.client import TabletopClient
from services.commands.service import HEARTBEAT_LUA
from services.gateway.chat import SAY_LUA, UNSAY_LUA
from services.gateway.seating import BOT_KEYS, LEASE_LUA, QUEUE_KEYS, SEAT_LUA
from services.infra.config import Settings
from services.infra.embedded import EmbeddedRedis
from services.infra.redisconn import connect
from services.readside import notices as n
from services.readside.audit import audit, export_match
from services.readside.projector import Projector
from services.readside.readmodels import ReadModels
from services.readside.schema import Notice
from services.readside.writes import RUN_LUA, Writes
from services.webhooks.service import WebhookConfig, WebhookSender
from tests.integration.test_webhooks import Receiver

pytestmark = pytest.mark.redis
ROOT = Path(__file__).parents[2]
ACL = ROOT / "deploy" / "users.acl"
P = 4
PASSWORD = "change-me"

# --- the matrix ---------------------------------------------------------------------------

CMD = "tt:{0}:commands"
CMD_OTHER = "tt:{3}:commands"  # another partition: first-argument rules name every one
MATCH = "tt:{0}:match:m1"
LOG = "tt:{0}:log"
CMDS = "tt:{0}:cmds:m1"
SNAP = "tt:{0}:snap:m1"
DEAD = "tt:{0}:dead"
OWN_REPLIES = "tt:replies:tt-gateway:c1"
OTHER_REPLIES = "tt:replies:tt-someone:c2"
BEATS = "tt:heartbeats:tt-commands"
SUMMARY = "tt:{0}:rm:match:m1"
VIEW = "tt:{0}:rm:view:m1"
HIST = "tt:{0}:rm:hist:m1:0"
LOBBY = "tt:{0}:rm:lobby:playing:*"
CHECKPOINT = "tt:{0}:rm:checkpoint"
PUBLIC = "tt:{0}:public"
PUBLIC_CHECKPOINT = "tt:{0}:public:checkpoint"
RATING = "tt:{ratings}:rating:chicken"
BOARD = "tt:{ratings}:board:chicken"
RATINGS_CHECKPOINT = "tt:{ratings}:checkpoint:0"
TOMBSTONES = "tt:{0}:archived"
CURSOR = "tt:{0}:archived:cursor"
CLOCK_DUE = "tt:{0}:clock:due"
CLOCK_SEATS = "tt:{0}:clock:seats"
CLOCK_CHECKPOINT = "tt:{0}:clock:checkpoint"
SCHEDULER_REPLIES = "tt:replies:scheduler"
NOTICES = "tt:{0}:notices"
NOTICES_DEAD = "tt:{0}:notices:dead"
NOTICES_MARK = "tt:{0}:notices:mark"
TURNS = "tt:{0}:rm:turns:ann"
MINE = "tt:{0}:rm:mine:ann"
INBOX = "tt:{0}:rm:inbox:ann"
QP_OPEN = "tt:{gateway}:qp:open"
BOT_LEASES = "tt:{gateway}:bots:lease"
SIGNOUTS = "tt:{gateway}:signouts"
CHAT = "tt:{0}:chat"
CHAT_RECENT = "tt:{0}:chat:recent"
GROUP = "tt-commands"
SCRIPT_NOPERM = "The user executing the script can't"
NOTICE = Notice(
    id="m1:1:your_turn:ann",
    kind="your_turn",
    player="ann",
    match_id="m1",
    game="chicken",
    version=1,
    at=1,
)


def run_writes(r: Redis, fill: Callable[[Writes], None]) -> Awaitable[Any]:
    """The projector's batch of writes, as its one script call (readside/writes.py)."""
    writes = Writes()
    fill(writes)
    return r.eval(RUN_LUA, len(writes.keys), *writes.keys, writes.packed())


def write_notice(writes: Writes) -> None:
    n.write(writes, 0, [(NOTICE, True)])


def write_read_models(writes: Writes) -> None:
    writes.add("RPUSH", HIST, b"{}")
    writes.add("SET", SUMMARY, b"{}")
    writes.add("HSET", VIEW, "spectator", b"{}")
    writes.add("ZADD", LOBBY, 1, "m1")
    writes.add("ZREM", TURNS, "m1")
    writes.add("ZADD", MINE, 1, "m1")
    writes.add("ZREMRANGEBYRANK", MINE, 0, -101)


Op = Callable[[Redis], Awaitable[object]]


def _ops() -> dict[str, Op]:
    entry = {"c": b"{}"}
    return {
        # command streams
        "commands.xadd": lambda r: r.xadd(CMD, entry),
        "commands.xadd(other partition)": lambda r: r.xadd(CMD_OTHER, entry),
        "commands.xrange": lambda r: r.xrange(CMD),
        "commands.xread": lambda r: r.xread({CMD: "0"}),
        "commands.xreadgroup(service group)": lambda r: r.xreadgroup(GROUP, "thief", {CMD: ">"}),
        "commands.xpending": lambda r: r.xpending(CMD, GROUP),
        "commands.xclaim": lambda r: r.xclaim(CMD, GROUP, "thief", 0, ["1-1"]),
        "commands.xack": lambda r: r.xack(CMD, GROUP, "1-1"),
        "commands.xinfo consumers": lambda r: r.xinfo_consumers(CMD, GROUP),
        "commands.xgroup create": lambda r: r.xgroup_create(CMD, "other", id="0"),
        "commands.xgroup destroy": lambda r: r.xgroup_destroy(CMD, GROUP),
        "commands.xgroup setid": lambda r: r.xgroup_setid(CMD, GROUP, "$"),
        "commands.xtrim": lambda r: r.xtrim(CMD, maxlen=1000),
        "commands.xdel": lambda r: r.xdel(CMD, "1-1"),
        "commands.del": lambda r: r.delete(CMD),
        # events: match streams and partition logs
        "match.xrange": lambda r: r.xrange(MATCH),
        "match.xadd": lambda r: r.xadd(MATCH, {"t": "x"}, id="0-9"),
        "match.xtrim": lambda r: r.xtrim(MATCH, maxlen=0),
        "match.xdel": lambda r: r.xdel(MATCH, "0-1"),
        "match.set(overwrite)": lambda r: r.set(MATCH, "gone"),
        "match.del": lambda r: r.delete(MATCH),
        "log.xrange": lambda r: r.xrange(LOG),
        "log.xadd": lambda r: r.xadd(LOG, {"t": "x"}),
        "log.xtrim": lambda r: r.xtrim(LOG, maxlen=0),
        "log.set(overwrite)": lambda r: r.set(LOG, "gone"),
        "log.del": lambda r: r.delete(LOG),
        "events.eval xadd(script)": lambda r: r.eval(
            "return redis.call('XADD', KEYS[1], '0-9', 't', 'x')", 1, MATCH
        ),
        # command replies (idempotency), snapshots, dead letters, heartbeats
        "cmds.hget": lambda r: r.hget(CMDS, "c1"),
        "cmds.hset": lambda r: r.hset(CMDS, "c9", "x"),
        "cmds.hdel": lambda r: r.hdel(CMDS, "c1"),
        "snap.hgetall": lambda r: r.hgetall(SNAP),
        "snap.hset": lambda r: r.hset(SNAP, "v", 1),
        "dead.xadd": lambda r: r.xadd(DEAD, entry),
        "heartbeats.beat": lambda r: r.eval(HEARTBEAT_LUA, 1, BEATS, "w1"),
        "snap.eval hset(script)": lambda r: r.eval(
            "return redis.call('HSET', KEYS[1], 'v', 2)", 1, SNAP
        ),
        # the gateways' shared quick-play queues and bot leases (their own scripts)
        "quickplay.seat(script)": lambda r: r.eval(
            SEAT_LUA, 3, *QUEUE_KEYS, "chicken|2|{}", "dev-ann", 2, "m9", 1000
        ),
        "bots.lease(script)": lambda r: r.eval(LEASE_LUA, 3, *BOT_KEYS, "gw-1", 5000, 10),
        "quickplay.hset": lambda r: r.hset(QP_OPEN, "q", "m9"),
        "quickplay.del": lambda r: r.delete(QP_OPEN),
        "bots.zadd(other key)": lambda r: r.zadd(BOT_LEASES + "x", {"bot-1": 1}),
        # table chat: said by the gateway's script, followed, and gone with the match
        "chat.say(script)": lambda r: r.eval(
            SAY_LUA, 2, CHAT, CHAT_RECENT, "m1", b'{"text":"gg"}', 50, 1000
        ),
        "chat.xread": lambda r: r.xread({CHAT: "0"}),
        "chat.xadd": lambda r: r.xadd(CHAT, {"m": "m1", "c": b"{}"}),
        "chat.del": lambda r: r.delete(CHAT),
        "chat recent.hget": lambda r: r.hget(CHAT_RECENT, "m1"),
        "chat recent.hdel": lambda r: r.hdel(CHAT_RECENT, "m1"),
        "chat recent.hset(other key)": lambda r: r.hset(CHAT_RECENT + "x", "m1", "[]"),
        "chat.take back(script)": lambda r: r.eval(
            UNSAY_LUA, 2, CHAT, CHAT_RECENT, "m1", "1-0", 1000
        ),
        # ended sign-ins, followed by every gateway process each second
        "signouts.xadd": lambda r: r.xadd(SIGNOUTS, {"p": "dev-ann"}),
        "signouts.xrange": lambda r: r.xrange(SIGNOUTS),
        "signouts.del": lambda r: r.delete(SIGNOUTS),
        # reply streams
        "own replies.xread": lambda r: r.xread({OWN_REPLIES: "0"}),
        "own replies.xadd(forge)": lambda r: r.xadd(OWN_REPLIES, {"r": b"{}"}),
        "own replies.del": lambda r: r.delete(OWN_REPLIES),
        "other replies.xread": lambda r: r.xread({OTHER_REPLIES: "0"}),
        "other replies.xadd": lambda r: r.xadd(OTHER_REPLIES, {"r": b"{}"}),
        # read models and their checkpoints
        "summary.get": lambda r: r.get(SUMMARY),
        "summary.set": lambda r: r.set(SUMMARY, "{}"),
        "summary.del": lambda r: r.delete(SUMMARY),
        "view.hget": lambda r: r.hget(VIEW, "spectator"),
        "view.hset": lambda r: r.hset(VIEW, "0", "{}"),
        "history.lrange": lambda r: r.lrange(HIST, 0, -1),
        "history.rpush": lambda r: r.rpush(HIST, "{}"),
        "history.xadd(type clash)": lambda r: r.xadd("tt:{0}:rm:hist:m2:0", entry),
        "lobby.zrevrange": lambda r: r.zrevrange(LOBBY, 0, -1),
        "lobby.zadd": lambda r: r.zadd(LOBBY, {"m9": 1}),
        "checkpoint.get": lambda r: r.get(CHECKPOINT),
        "checkpoint.set": lambda r: r.set(CHECKPOINT, "0-0"),
        "checkpoint.del": lambda r: r.delete(CHECKPOINT),
        "ratings.hget": lambda r: r.hget(RATING, "ann"),
        "ratings.zrevrange": lambda r: r.zrevrange(BOARD, 0, -1),
        "ratings.zcount": lambda r: r.zcount(BOARD, "-inf", "+inf"),
        "ratings.hset": lambda r: r.hset(RATING, "ann", "{}"),
        "ratings checkpoint.set": lambda r: r.set(RATINGS_CHECKPOINT, "0-0"),
        # archived matches' tombstones, and the archiver's cursor
        "tombstones.hget": lambda r: r.hget(TOMBSTONES, "m0"),
        "tombstones.hset": lambda r: r.hset(TOMBSTONES, "m9", "{}"),
        "archive cursor.set": lambda r: r.set(CURSOR, "1"),
        # the scheduler's deadlines and checkpoint, and its replies
        "clock due.zrangebyscore": lambda r: r.zrangebyscore(CLOCK_DUE, "-inf", "+inf"),
        "clock due.zadd": lambda r: r.zadd(CLOCK_DUE, {"m9": 1}),
        "clock due.zrem": lambda r: r.zrem(CLOCK_DUE, "m1"),
        "clock seats.hmget": lambda r: r.hmget(CLOCK_SEATS, ["m1"]),
        "clock seats.hset": lambda r: r.hset(CLOCK_SEATS, "m9", "{}"),
        "clock seats.del": lambda r: r.delete(CLOCK_SEATS),
        "clock checkpoint.get": lambda r: r.get(CLOCK_CHECKPOINT),
        "clock checkpoint.set": lambda r: r.set(CLOCK_CHECKPOINT, "0-0"),
        "scheduler replies.xrange": lambda r: r.xrange(SCHEDULER_REPLIES),
        # the public stream
        "public.xrange": lambda r: r.xrange(PUBLIC),
        "public.xgroup create": lambda r: r.xgroup_create(PUBLIC, "billing", id="0"),
        "public.xreadgroup(own group)": lambda r: r.xreadgroup("search", "s1", {PUBLIC: ">"}),
        "public.xack": lambda r: r.xack(PUBLIC, "search", "1-1"),
        "public.xadd": lambda r: r.xadd(PUBLIC, {"e": b"{}"}),
        "public.xtrim": lambda r: r.xtrim(PUBLIC, maxlen=0),
        "public.del": lambda r: r.delete(PUBLIC),
        "public checkpoint.set": lambda r: r.set(PUBLIC_CHECKPOINT, "0-0"),
        # notices: the partition's stream, its mark, dead letters, turns and inboxes
        "notices.xrange": lambda r: r.xrange(NOTICES),
        "notices.xread": lambda r: r.xread({NOTICES: "0"}),
        "notices.xadd": lambda r: r.xadd(NOTICES, {"n": b"{}"}),
        "notices.write(script)": lambda r: run_writes(r, write_notice),
        "read models.write(script)": lambda r: run_writes(r, write_read_models),
        "notices.post(script)": lambda r: r.eval(
            n.POST_LUA, 3, NOTICES, "tt:{0}:notices:posted", INBOX, "x", b"{}", 1, 100, 50, 9
        ),
        "notices.xgroup create": lambda r: r.xgroup_create(NOTICES, "platform", id="0"),
        "notices.xreadgroup(webhooks)": lambda r: r.xreadgroup("tt-webhooks", "w", {NOTICES: ">"}),
        "notices.xautoclaim": lambda r: r.xautoclaim(NOTICES, "tt-webhooks", "w", 0),
        "notices.xack": lambda r: r.xack(NOTICES, "tt-webhooks", "1-1"),
        "notices.xtrim": lambda r: r.xtrim(NOTICES, maxlen=0),
        "notices.del": lambda r: r.delete(NOTICES),
        "notices dead.xadd": lambda r: r.xadd(NOTICES_DEAD, {"n": b"{}"}),
        "notices mark.set": lambda r: r.set(NOTICES_MARK, "1-1"),
        "turns.zrange": lambda r: r.zrange(TURNS, 0, -1),
        "turns.zadd": lambda r: r.zadd(TURNS, {"m9": 1}),
        "tables.zrevrange": lambda r: r.zrevrange(MINE, 0, -1),
        "tables.zadd": lambda r: r.zadd(MINE, {"m9": 1}),
        "inbox.zrevrange": lambda r: r.zrevrange(INBOX, 0, -1),
        "inbox.zremrangebyrank": lambda r: r.zremrangebyrank(INBOX, 0, 0),
        "inbox.zremrangebyscore": lambda r: r.zremrangebyscore(INBOX, "-inf", "(0"),
        "inbox.del": lambda r: r.delete(INBOX),
        # the server
        "server.scan": lambda r: r.scan(0),
        "server.keys": lambda r: r.keys("*"),
        "server.flushall": lambda r: r.flushall(),
        "server.config get": lambda r: r.config_get("dir"),
        "server.acl list": lambda r: r.acl_list(),
    }


OPS = _ops()

ALLOWED: dict[str, set[str]] = {
    "tt-admin": set(OPS),
    "tt-commands": {
        "commands.xadd",
        "commands.xadd(other partition)",
        "commands.xrange",
        "commands.xreadgroup(service group)",
        "commands.xpending",
        "commands.xclaim",
        "commands.xack",
        "commands.xinfo consumers",
        "commands.xgroup create",
        "commands.xtrim",
        "match.xrange",
        "match.xadd",
        "log.xrange",
        "log.xadd",
        "events.eval xadd(script)",
        "cmds.hget",
        "cmds.hset",
        "snap.hgetall",
        "snap.hset",
        "snap.eval hset(script)",
        "dead.xadd",
        "heartbeats.beat",
        "own replies.xadd(forge)",
        "other replies.xadd",
        # append.lua reads tombstones; HSET reaches them too (deploy/users.md).
        "tombstones.hget",
        "tombstones.hset",
        # The rematch process reads its replies with XREAD, which Redis 6.2 cannot keep
        # to one stream: it reaches every stream of its keys (all of which it writes).
        "commands.xread",
        "own replies.xread",
        "other replies.xread",
        "scheduler replies.xrange",  # it writes every reply stream, and 6.2 has no per-key reads
    },
    "tt-projector": {
        "summary.get",
        "summary.set",
        "view.hget",
        "view.hset",
        "history.rpush",
        "lobby.zadd",
        "checkpoint.get",
        "checkpoint.set",
        "ratings.hget",
        "ratings.hset",
        "ratings checkpoint.set",
        "public.xadd",
        "public checkpoint.set",
        "notices.xadd",
        "notices.write(script)",
        "read models.write(script)",
        "notices mark.set",
        "turns.zadd",
        "tables.zadd",
        "inbox.zremrangebyrank",
    },
    "tt-projector-log": {"match.xrange", "log.xrange", "tombstones.hget"},
    "tt-gateway": {
        "commands.xadd",
        "commands.xadd(other partition)",
        "commands.xread",  # Redis 6.2 cannot keep XREAD to the replies: deploy/users.md
        "commands.xrange",  # the same: it reads the event keys, and 6.2 has no per-key reads
        "own replies.xread",
        "quickplay.seat(script)",
        "bots.lease(script)",
        "quickplay.hset",
        "signouts.xadd",
        "signouts.xrange",
        # It folds matches to redact them for each caller, and follows the logs.
        "match.xrange",
        "log.xrange",
        "snap.hgetall",
        "summary.get",
        "view.hget",
        "lobby.zrevrange",
        "ratings.hget",
        "ratings.zrevrange",
        "ratings.zcount",
        "tombstones.hget",
        # A player's turns and notices, and the notice streams it pushes from.
        "turns.zrange",
        "tables.zrevrange",
        "inbox.zrevrange",
        "notices.xrange",
        "notices.xread",
        # Table chat: its script on the partition's two chat keys, and the pushes.
        "chat.say(script)",
        "chat.take back(script)",
        "chat.xread",
        "chat.xadd",
        "chat recent.hget",
        "chat recent.hdel",  # a line the platform takes back
    },
    "tt-reader": {
        "summary.get",
        "view.hget",
        "lobby.zrevrange",
        "ratings.hget",
        "ratings.zrevrange",
        "ratings.zcount",
        "tombstones.hget",
        "turns.zrange",
        "tables.zrevrange",
        "inbox.zrevrange",
    },
    "tt-integration": {
        "public.xrange",
        "public.xgroup create",
        "public.xreadgroup(own group)",
        "public.xack",
        # Notices too, as the public stream (docs/tables.md); 6.2 cannot keep a reader
        # out of another's group (deploy/users.md).
        "notices.xrange",
        "notices.xread",
        "notices.xgroup create",
        "notices.xreadgroup(webhooks)",
        "notices.xautoclaim",
        "notices.xack",
    },
    # Its consumer group on the notice streams, and the dead letters beside them.
    "tt-webhooks": {
        "notices.xgroup create",
        "notices.xreadgroup(webhooks)",
        "notices.xautoclaim",
        "notices.xack",
        "notices dead.xadd",
    },
    "tt-auditor": {"match.xrange", "log.xrange", "cmds.hget", "server.scan", "tombstones.hget"},
    # It reads a finished match whole, writes its tombstone and deletes its keys; it trims
    # the logs and public streams and drops reply streams of clients that are gone.
    "tt-archiver": {
        "match.xrange",
        "match.del",
        "log.xrange",
        "log.xtrim",
        "log.del",
        "cmds.hget",
        "snap.hgetall",
        "summary.get",
        "summary.del",
        "view.hget",
        "checkpoint.get",
        "checkpoint.del",
        "own replies.del",
        "public.xrange",
        "public.xtrim",
        "public.del",
        "tombstones.hget",
        "tombstones.hset",
        "archive cursor.set",
        # An archived match's players lose their notices older than the retention.
        "inbox.zremrangebyscore",
        "inbox.del",
        # A match's table chat leaves with it.
        "chat recent.hget",
        "chat recent.hdel",
        "clock checkpoint.get",
        "scheduler replies.xrange",  # it drops reply streams of clients that are gone
        "server.scan",
    },
    # It follows the logs, keeps the deadlines and sends TimeExpired.
    "tt-scheduler": {
        "commands.xadd",
        "commands.xadd(other partition)",
        "commands.xrange",  # it reads the logs, and 6.2 has no per-key reads
        "match.xrange",
        "log.xrange",
        "clock due.zrangebyscore",
        "clock due.zadd",
        "clock due.zrem",
        "clock seats.hmget",
        "clock seats.hset",
        "clock checkpoint.get",
        "clock checkpoint.set",
        "scheduler replies.xrange",
        # It posts "time running low" (services/readside/notices.py `post_notice`); the
        # notice stream's key is then its own, and xrange is one of its reads.
        "notices.xrange",
        "notices.xadd",
        "notices.write(script)",
        "notices.post(script)",
        "inbox.zremrangebyrank",
        "inbox.zremrangebyscore",
    },
}


async def seed(admin: Redis) -> None:
    """One key of every family, as the services would leave them."""
    await admin.flushall()
    for stream in (CMD, CMD_OTHER):
        await admin.xadd(stream, {"c": b"{}"}, id="1-1")
        await admin.xgroup_create(stream, GROUP, id="0")
    await admin.xadd(MATCH, {"t": "match.created"}, id="0-1")
    await admin.xadd(LOG, {"m": "m1", "t": "match.created"})
    await admin.hset(CMDS, "c1", "{}")
    await admin.hset(SNAP, "v", 1)
    await admin.xadd(DEAD, {"c": b"{}"})
    await admin.hset(BEATS, "w0", 1)
    for stream in (OWN_REPLIES, OTHER_REPLIES):
        await admin.xadd(stream, {"r": b"{}"})
    await admin.set(SUMMARY, "{}")
    await admin.hset(VIEW, "spectator", "{}")
    await admin.rpush(HIST, "{}")
    await admin.zadd(LOBBY, {"m1": 1})
    await admin.set(CHECKPOINT, "0-0")
    await admin.xadd(PUBLIC, {"e": b"{}"})
    await admin.xgroup_create(PUBLIC, "search", id="0")
    await admin.set(PUBLIC_CHECKPOINT, "0-0")
    await admin.hset(RATING, "ann", "{}")
    await admin.zadd(BOARD, {"ann": 1})
    await admin.set(RATINGS_CHECKPOINT, "0-0")
    await admin.hset(TOMBSTONES, "m0", "{}")
    await admin.zadd(CLOCK_DUE, {"m1": 1})
    await admin.hset(CLOCK_SEATS, "m1", "{}")
    await admin.set(CLOCK_CHECKPOINT, "0-0")
    await admin.xadd(SCHEDULER_REPLIES, {"r": b"{}"})
    await admin.xadd(NOTICES, {"n": b"{}"})
    await admin.xadd(CHAT, {"m": "m1", "c": b"{}"})
    await admin.hset(CHAT_RECENT, "m1", '[["1-0", "{}"]]')  # a line to take back
    await admin.xgroup_create(NOTICES, "tt-webhooks", id="0")
    await admin.zadd(TURNS, {"m1": 1})
    await admin.zadd(INBOX, {"{}": 1})


@pytest.fixture(scope="module")
def acl_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    data = tmp_path_factory.mktemp("acl")
    acl = data / "users.acl"
    shutil.copy(ACL, acl)
    server = EmbeddedRedis(data / "data", extra=["--aclfile", str(acl)]).start()
    try:
        yield server
    finally:
        server.stop()


def as_user(server: EmbeddedRedis, user: str) -> str:
    return f"unix://{user}:{quote(PASSWORD)}@{server.socket}"


@pytest_asyncio.fixture
async def admin(acl_server: EmbeddedRedis) -> AsyncIterator[Redis]:
    client = connect(as_user(acl_server, "tt-admin"))
    try:
        yield client
    finally:
        await client.aclose()


def test_the_matrix_names_every_operation_and_every_user_of_the_file() -> None:
    users = {line.split()[1] for line in ACL.read_text().splitlines() if line.startswith("user")}
    assert users == {"default", *ALLOWED}
    for role, allowed in ALLOWED.items():
        assert allowed <= set(OPS), role


def test_the_generator_names_the_gateways_keys_as_events_keys_does() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import make_acl
    finally:
        sys.path.pop(0)
    spelled = [make_acl.QP_OPEN, make_acl.QP_TABLES, make_acl.QP_DUE]
    assert spelled + [make_acl.BOTS, make_acl.BOT_OWNERS, make_acl.BOT_LEASES] == [
        *QUEUE_KEYS,
        *BOT_KEYS,
    ]
    assert GATEWAY.signouts == make_acl.SIGNOUTS
    assert (Keys(0).chat, Keys(0).chat_recent) == (CHAT, CHAT_RECENT)


def test_the_shipped_file_is_what_the_generator_writes() -> None:
    made = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_acl.py"), "--partitions", "16"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert made.stdout == ACL.read_text()


@pytest.mark.parametrize("role", sorted(ALLOWED))
async def test_each_role_may_do_what_it_needs_and_is_refused_everything_else(
    role: str, acl_server: EmbeddedRedis, admin: Redis
) -> None:
    # The file is written for 16 partitions; the matrix's keys are in partitions 0 and 3.
    client = connect(as_user(acl_server, role))
    wrong: list[str] = []
    try:
        await seed(admin)
        for name, op in OPS.items():
            try:
                await op(client)
                refused = False
            except ResponseError as err:
                # NOPERM, or its form inside a script. Any other error (WRONGTYPE,
                # BUSYGROUP) is Redis answering about the data: the command was allowed.
                refused = isinstance(err, NoPermissionError) or SCRIPT_NOPERM in str(err)
            if refused == (name in ALLOWED[role]):
                wrong.append(f"{name}: {'refused' if refused else 'allowed'}")
            if not refused:
                await seed(admin)  # an allowed write must not change what the next one meets
    finally:
        await client.aclose()
    assert wrong == [], f"{role}: {wrong}"


async def test_the_default_user_is_off(acl_server: EmbeddedRedis) -> None:
    client = Redis(unix_socket_path=str(acl_server.socket))
    try:
        # Refused before any command: this client never logged in as anyone.
        with pytest.raises(RedisError, match="(?i)auth"):
            await client.get("anything")
    finally:
        await client.aclose()


# --- the processes, each as its own users ----------------------------------------------------


async def test_every_process_does_its_work_as_its_own_user(
    acl_server: EmbeddedRedis, admin: Redis, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    await admin.flushall()
    url: Callable[[str], str] = lambda user: as_user(acl_server, user)  # noqa: E731
    service = compose.command_service(
        Settings(trust_seeds=True, redis_url=url("tt-commands"), partitions=P, polling_ms=20)
    )
    await service.start()
    try:
        async with TabletopClient.from_url(url("tt-gateway"), partitions=P, timeout=10) as client:
            # Its replies come on a stream only this user may read.
            assert client.reply_stream.startswith("tt:replies:tt-gateway:")
            match_id, live = await play_match(
                client, service.store, "countdown", seats=2, seed=3, options={"start": 12}
            )
            # A rematch, agreed through the gateway's user, is opened by the rematch
            # process as the command service's user.
            await client.offer_rematch(match_id, "Ann")
            await client.accept_rematch(match_id, "Bea")
        assert live.state.status == "finished"
        settings = Settings(redis_url=url("tt-commands"), partitions=P)
        async with TabletopClient.from_url(url("tt-commands"), partitions=P, timeout=10) as own:
            rematches = compose.rematcher(settings, service.redis, own)
            while await rematches.pass_once():
                pass
            assert rematches.opened == 1
        rematch = await service.store.load(m.rematch_id(match_id))
        assert "match.started" in [e.type for e in rematch]
    finally:
        await service.stop()

    # The webhook sender follows the notices the projector derives, as its own user.
    hooks = Receiver([])
    hooks.thread.start()
    sender = WebhookSender(
        connect(url("tt-webhooks")),
        P,
        WebhookConfig(url=hooks.url, secret="acl-test-secret-0123", block_ms=50),
        close_redis=True,
    )
    await sender.start()
    writer, events = connect(url("tt-projector")), connect(url("tt-projector-log"))
    try:
        assert await Projector(writer, RedisEventStore(events, P)).catch_up() > 0
        # Every partition's: the rematch opened above gives notices of its own.
        made = sum([await admin.xlen(Keys(p).notices) for p in range(P)])
        posted = await hooks.posts(made)  # turns, then the finish for both seats
        assert sum(b"match_finished" in body for _, body, _ in posted) == 2
    finally:
        await sender.stop()
        hooks.server.shutdown()
        hooks.server.server_close()
        await writer.aclose()
        await events.aclose()

    # The scheduler follows every log to its end and keeps its checkpoints as its own user.
    timing = connect(url("tt-scheduler"))
    try:
        scheduler = compose.scheduler(Settings(redis_url=url("tt-scheduler"), partitions=P), timing)
        assert await scheduler.pass_once() > 0
        assert await admin.get(RedisEventStore(admin, P).keys(match_id).clock_checkpoint)
    finally:
        await timing.aclose()

    # The CLI's read commands as the reader: they read what the projector wrote. A
    # history is told from the match's events, which the reader may not read: the
    # auditor's, as a replay is.
    monkeypatch.setenv("TABLETOP_PARTITIONS", str(P))
    cli = CliRunner()
    expected = {
        ("lobby", "--json"): ("tt-reader", match_id),
        ("show", match_id, "--json"): ("tt-reader", '"status": "finished"'),
        ("history", match_id, "--as", "1", "--json"): ("tt-auditor", "The match is over"),
        ("leaderboard", "countdown", "--json"): ("tt-reader", '"played": 1'),
    }
    for args, (user, shown) in expected.items():
        monkeypatch.setenv("TABLETOP_REDIS_URL", url(user))
        # In a thread: the CLI runs its own event loop.
        result = await asyncio.to_thread(cli.invoke, main, list(args))
        assert result.exit_code == 0, (args, result.output)
        assert shown in result.output, args
    refused = await asyncio.to_thread(
        cli.invoke,
        main,
        ["history", match_id, "--json"],
        env={"TABLETOP_REDIS_URL": url("tt-reader")},
    )
    assert refused.exit_code != 0 and "Redis refused" in refused.output

    reading = connect(url("tt-reader"))
    try:
        summary = await ReadModels(reading, P).summary(match_id)
        assert summary is not None and summary.status == "finished"
    finally:
        await reading.aclose()

    # An integration follows the public stream in a consumer group of its own.
    integration = connect(url("tt-integration"))
    try:
        public = RedisEventStore(integration, P).keys(match_id).public
        await integration.xgroup_create(public, "billing", id="0")
        read = await integration.xreadgroup("billing", "b1", {public: ">"})
        assert isinstance(read, list)  # RESP2's reply: a [stream, entries] pair a stream
        assert read and read[0][1]
    finally:
        await integration.aclose()

    # The auditor audits and exports it.
    auditing = connect(url("tt-auditor"))
    try:
        store = RedisEventStore(auditing, P)
        assert (await audit(store, match_id)).status == "ok"
        assert len(await export_match(store, match_id)) > live.state.version
    finally:
        await auditing.aclose()

    # The archiver moves it to cold storage as its own user, and every reader still
    # finds it: the reader through the CLI, the auditor through the archive.
    cold = tmp_path / "archive"
    seats = Keys(partition_of(match_id, P))
    inboxes = [seats.inbox(player) for player in live.state.players if player]
    assert await admin.exists(*inboxes) == 2
    keeper = compose.archiver(
        Settings(redis_url=url("tt-archiver"), partitions=P, archive=str(cold), archive_after_ms=0)
    )
    try:
        done = await keeper.pass_once()
    finally:
        await keeper.stop()
    assert done["archived"] == 1
    assert not await admin.exists(RedisEventStore(admin, P).keys(match_id).match(match_id))
    # Their notices are older than the retention (none here): the inboxes emptied and went.
    assert await admin.exists(*inboxes) == 0
    monkeypatch.setenv("TABLETOP_ARCHIVE", str(cold))
    for args, (user, shown) in expected.items():
        monkeypatch.setenv("TABLETOP_REDIS_URL", url(user))
        result = await asyncio.to_thread(cli.invoke, main, list(args))
        assert result.exit_code == 0, (args, result.output)
        assert shown in result.output, args
    auditing = connect(url("tt-auditor"))
    try:
        archived = ArchivedStore(RedisEventStore(auditing, P), FileArchive(cold))
        assert (await audit(archived, match_id)).status == "ok"
    finally:
        await auditing.aclose()


def test_a_server_that_refuses_its_acl_file_fails_to_start_with_its_reason(
    tmp_path: Path,
) -> None:
    acl = tmp_path / "users.acl"
    acl.write_text("# Redis takes no comments in an ACL file\nuser default on nopass ~* &* +@all\n")
    server = EmbeddedRedis(tmp_path / "data", extra=["--aclfile", str(acl)])
    try:
        server.start()
    except RuntimeError as err:
        assert "ACL" in str(err)
    else:
        # Redis 6.2 listens before it reads the ACL file: a loaded machine may see the
        # socket accept first. The server stops all the same, and says why.
        assert server.process is not None and server.process.wait(timeout=30) != 0
        assert "ACL" in (tmp_path / "data" / "redis.log").read_text()
    finally:
        server.stop()
