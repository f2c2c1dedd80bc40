"""Poison on the command streams: every bad entry is refused alone, the good ones behind
it are all decided and answered. Real redis-server, real consumer groups."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

import msgspec
import pytest
import pytest_asyncio
from redis.asyncio import Redis

from domain import match as m
from events.keys import Keys, partition_of
from services import compose
from services.commands.service import CommandService
from services.contracts.messages import ENCODER, REPLY_DECODER, CommandMessage, Reply
from services.infra.config import Settings

pytestmark = pytest.mark.redis

PARTITIONS = 4
P = 1  # every entry of these tests goes to this partition's command stream
STREAM = Keys(P).commands
DEAD = Keys(P).dead
NEST = 2_000  # arrays in a nesting bomb: about 4 KB, past msgspec's recursion limit


@pytest_asyncio.fixture
async def service(redis: Redis, redis_server: str) -> AsyncIterator[CommandService]:
    svc = compose.command_service(
        Settings(redis_url=redis_server, partitions=PARTITIONS, polling_ms=20)
    )
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


def match_in_p(prefix: str = "m") -> str:
    """A fresh match id of partition P."""
    while True:
        match_id = f"{prefix}-{uuid.uuid4().hex[:12]}"
        if partition_of(match_id, PARTITIONS) == P:
            return match_id


def body(command: Any, *, command_id: str, match_id: str, reply_to: str) -> bytes:
    message = CommandMessage(
        command_id=command_id, match_id=match_id, reply_to=reply_to, command=command
    )
    return ENCODER.encode(message)


def raw(command: bytes, *, command_id: str, reply_to: str, match_id: str = "mx") -> bytes:
    """A command entry whose `command` is the given JSON, as is."""
    head = b'{"command_id":"%s","match_id":"%s","reply_to":"%s","command":' % (
        command_id.encode(),
        match_id.encode(),
        reply_to.encode(),
    )
    return head + command + b"}"


def good_commands(reply_to: str) -> tuple[list[dict[bytes, bytes]], list[str]]:
    """A match opened and two players seated: three commands that must be accepted."""
    match_id = match_in_p("good")
    commands = [
        m.CreateMatch(game="countdown", seats=2),
        m.JoinMatch(player="ann"),
        m.JoinMatch(player="bea"),
    ]
    ids = [f"good-{uuid.uuid4().hex[:8]}" for _ in commands]
    entries = [
        {b"c": body(c, command_id=i, match_id=match_id, reply_to=reply_to)}
        for c, i in zip(commands, ids, strict=True)
    ]
    return entries, ids


# Each poison: a name, the entry (given the reply stream), and what must come of it:
# ("reply", code) -- a rejection on the reply stream -- or ("dead", code).
Poison = tuple[str, Callable[[str], dict[bytes, bytes]], tuple[str, str]]
J = b'{"type":"match.join","player":"ann"}'
POISONS: list[Poison] = [
    ("not JSON", lambda r: {b"c": b"\xff\x00 not json"}, ("dead", "malformed_command")),
    (
        "truncated JSON",
        lambda r: {b"c": raw(J, command_id="p1", reply_to=r)[:-10]},
        ("dead", "malformed_command"),
    ),
    (
        "no field c",
        lambda r: {b"x": raw(J, command_id="p2", reply_to=r)},
        ("dead", "malformed_command"),
    ),
    ("empty field c", lambda r: {b"c": b""}, ("dead", "malformed_command")),
    ("JSON not an object", lambda r: {b"c": b"[1, 2, 3]"}, ("dead", "malformed_command")),
    (
        "wrong type in the command",
        lambda r: {
            b"c": raw(
                b'{"type":"match.create","game":"countdown","seats":"two"}',
                command_id="p3",
                reply_to=r,
            )
        },
        ("reply", "malformed_command"),
    ),
    (
        "wrong type of an id",
        lambda r: {
            b"c": b'{"command_id":7,"match_id":"mx","reply_to":"%s","command":%s}' % (r.encode(), J)
        },
        ("dead", "malformed_command"),
    ),
    (
        "unknown tag",
        lambda r: {b"c": raw(b'{"type":"match.nope"}', command_id="p4", reply_to=r)},
        ("reply", "malformed_command"),
    ),
    (
        "unknown field",
        lambda r: {
            b"c": raw(
                b'{"type":"match.join","player":"ann","admin":true}', command_id="p5", reply_to=r
            )
        },
        ("reply", "malformed_command"),
    ),
    (
        "bytes that are not UTF-8",
        lambda r: {
            b"c": raw(b'{"type":"match.join","player":"\xff\xfe"}', command_id="p6", reply_to=r)
        },
        ("reply", "malformed_command"),
    ),
    (
        "nesting bomb as the command",
        lambda r: {b"c": raw(b"[" * NEST + b"]" * NEST, command_id="p7", reply_to=r)},
        ("reply", "malformed_command"),
    ),
    (
        "nesting bomb as a move",
        lambda r: {
            b"c": raw(
                b'{"type":"match.play","player":"ann","move":' + b"[" * NEST + b"]" * NEST + b"}",
                command_id="p8",
                reply_to=r,
            )
        },
        ("reply", "malformed_command"),
    ),
    (
        "nesting bomb in match options",
        lambda r: {
            b"c": raw(
                b'{"type":"match.create","game":"countdown","seats":2,"options":{"start":'
                + b'{"a":' * NEST
                + b"1"
                + b"}" * NEST
                + b"}}",
                command_id="p9",
                reply_to=r,
            )
        },
        ("reply", "malformed_command"),
    ),
    (
        "5 MB player name",
        lambda r: {
            b"c": body(
                m.JoinMatch(player="n" * 5_000_000), command_id="p10", match_id="mx", reply_to=r
            )
        },
        ("reply", "too_large"),
    ),
    (
        "65-character player name",
        lambda r: {
            b"c": body(m.JoinMatch(player="n" * 65), command_id="p11", match_id="mx", reply_to=r)
        },
        ("reply", "bad_field"),
    ),
    (
        "control character in a name",
        lambda r: {
            b"c": body(m.JoinMatch(player="ann\n"), command_id="p12", match_id="mx", reply_to=r)
        },
        ("reply", "bad_field"),
    ),
    (
        "empty player name",
        lambda r: {
            b"c": body(m.StartMatch(player=""), command_id="p13", match_id="mx", reply_to=r)
        },
        ("reply", "bad_field"),
    ),
    (
        "options past their limit",
        lambda r: {
            b"c": body(
                m.CreateMatch(game="countdown", seats=2, options={"start": "9" * 5000}),
                command_id="p14",
                match_id="mx",
                reply_to=r,
            )
        },
        ("reply", "bad_field"),
    ),
    (
        "move past its limit",
        lambda r: {
            b"c": body(
                m.PlayMove(player="ann", move=msgspec.Raw(b'"' + b"x" * 20_000 + b'"')),
                command_id="p15",
                match_id="mx",
                reply_to=r,
            )
        },
        ("reply", "bad_field"),
    ),
    (
        "bad match id",
        lambda r: {
            b"c": body(m.JoinMatch(player="ann"), command_id="p16", match_id="a b", reply_to=r)
        },
        ("reply", "bad_id"),
    ),
    (
        "reply stream outside the reply prefix",
        lambda r: {
            b"c": body(
                m.JoinMatch(player="ann"), command_id="p17", match_id="mx", reply_to=Keys(P).log
            )
        },
        ("dead", "bad_reply_to"),
    ),
]


async def replies(redis: Redis, stream: str) -> dict[str, Reply]:
    found = cast("list[tuple[bytes, dict[bytes, bytes]]]", await redis.xrange(stream))
    return {r.command_id: r for r in (REPLY_DECODER.decode(f[b"r"]) for _, f in found)}


async def wait_for(check: Callable[[], Any], what: str, rounds: int = 400) -> None:
    """Poll until `check` holds; a bound on waiting, not a measure of speed."""
    for _ in range(rounds):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


@pytest.mark.parametrize(("poison", "make", "outcome"), POISONS, ids=[p[0] for p in POISONS])
async def test_a_poisoned_entry_is_refused_alone_and_the_good_commands_behind_it_are_answered(
    service: CommandService,
    redis: Redis,
    poison: str,
    make: Callable[[str], dict[bytes, bytes]],
    outcome: tuple[str, str],
) -> None:
    reply_to = f"tt:replies:poison-{uuid.uuid4().hex[:8]}"
    before, good_before = good_commands(reply_to)
    after, good_after = good_commands(reply_to)
    entry = make(reply_to)
    # One transaction: the subscriber reads the poison and the good commands in one batch.
    async with redis.pipeline(transaction=True) as pipe:
        for fields in [*before, entry, *after]:
            pipe.xadd(STREAM, cast(Any, fields))
        await pipe.execute()
    good = good_before + good_after

    async def all_answered() -> bool:
        got = await replies(redis, reply_to)
        if outcome[0] == "dead":
            return all(i in got for i in good) and await redis.xlen(DEAD) > 0
        return all(i in got for i in good) and len(got) > len(good)

    await wait_for(all_answered, f"every good command answered past {poison}")
    got = await replies(redis, reply_to)
    assert [got[i].status for i in good] == ["accepted"] * len(good)
    kind, code = outcome
    refused = [r for i, r in got.items() if i not in good]
    if kind == "reply":
        assert [(r.status, r.code) for r in refused] == [("rejected", code)]
        assert refused[0].message  # a sentence for whoever sent it
        assert await redis.xlen(DEAD) == 0
    else:
        assert refused == []
        dead = cast("list[tuple[bytes, dict[bytes, bytes]]]", await redis.xrange(DEAD))
        assert len(dead) == 1
        letter = msgspec.json.decode(dead[0][1][b"r"])
        assert letter["code"] == code and letter["error"]
    # Nothing is left pending: the batch was acknowledged, poison and all.
    pending = await redis.xpending(STREAM, service.settings.group)
    assert pending["pending"] == 0


async def test_a_dead_letter_keeps_only_the_head_of_an_oversized_entry(
    service: CommandService, redis: Redis
) -> None:
    await redis.xadd(STREAM, {"c": b"\xff" * 3_000_000})
    await wait_for(lambda: redis.xlen(DEAD), "the entry dead-lettered")
    [(_, fields)] = cast("list[tuple[bytes, dict[bytes, bytes]]]", await redis.xrange(DEAD))
    assert len(fields[b"r"]) < 4 * service.settings.max_command_bytes


async def test_a_reply_that_cannot_be_written_does_not_stop_the_others(
    service: CommandService, redis: Redis
) -> None:
    ok = f"tt:replies:ok-{uuid.uuid4().hex[:8]}"
    full = f"tt:replies:full-{uuid.uuid4().hex[:8]}"
    wrong = f"tt:replies:wrong-{uuid.uuid4().hex[:8]}"
    # A reply stream at the last possible id, and a reply "stream" that is a string.
    await redis.xadd(full, {"r": b"{}"}, id="18446744073709551615-18446744073709551615")
    await redis.set(wrong, "not a stream")
    before, good_before = good_commands(ok)
    after, good_after = good_commands(ok)
    doomed = [
        {
            b"c": body(
                m.CreateMatch(game="countdown", seats=2),
                command_id=f"d{i}",
                match_id=match_in_p(),
                reply_to=r,
            )
        }
        for i, r in enumerate((full, wrong))
    ]
    async with redis.pipeline(transaction=True) as pipe:
        for fields in [*before, *doomed, *after]:
            pipe.xadd(STREAM, cast(Any, fields))
        await pipe.execute()
    good = good_before + good_after

    async def answered() -> bool:
        return len(await replies(redis, ok)) == len(good)

    await wait_for(answered, "the good commands answered")
    assert [r.status for r in (await replies(redis, ok)).values()] == ["accepted"] * len(good)
    # The batch was acknowledged: the unanswerable ones were decided all the same.
    pending = await redis.xpending(STREAM, service.settings.group)
    assert pending["pending"] == 0
    assert await redis.xlen(full) == 1
    assert await redis.type(wrong) == b"string"


async def test_the_limits_are_set_from_the_environment(
    redis: Redis, redis_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLETOP_PARTITIONS", str(PARTITIONS))
    monkeypatch.setenv("TABLETOP_MAX_NAME_CHARS", "8")
    s = Settings.from_env(redis_server)
    s.polling_ms = 20
    assert s.limits.name_chars == 8
    svc = compose.command_service(s)
    await svc.start()
    try:
        reply_to = f"tt:replies:env-{uuid.uuid4().hex[:8]}"
        match_id = match_in_p()
        sent = [
            (m.CreateMatch(game="countdown", seats=2), "e1"),
            (m.JoinMatch(player="eightchr"), "e2"),
            (m.JoinMatch(player="ninechars"), "e3"),
        ]
        for command, cid in sent:
            fields = {b"c": body(command, command_id=cid, match_id=match_id, reply_to=reply_to)}
            await redis.xadd(STREAM, cast(Any, fields))

        async def answered() -> bool:
            return len(await replies(redis, reply_to)) == 3

        await wait_for(answered, "the three commands answered")
        got = await replies(redis, reply_to)
        assert [got[c].code or got[c].status for c in ("e1", "e2", "e3")] == [
            "accepted",
            "accepted",
            "bad_field",
        ]
        assert "8" in got["e3"].message
    finally:
        await svc.stop()


async def test_a_command_the_store_fails_on_fails_alone_and_is_dead_lettered_answered(
    redis: Redis, redis_server: str
) -> None:
    """Two commands the store cannot take -- one on a match key of the wrong type (the
    load fails), one whose reply record is of the wrong type (the append script fails in
    the middle of the batch's pipeline) -- written in one transaction between good ones.
    The good ones are decided and answered in that first pass; the two stay pending, are
    retried, and after `max_deliveries` are dead-lettered and answered `command_failed`."""
    svc = compose.command_service(
        Settings(
            redis_url=redis_server,
            partitions=PARTITIONS,
            polling_ms=20,
            claim_idle_ms=300,
            max_deliveries=3,
        )
    )
    await svc.start()
    try:
        reply_to = f"tt:replies:store-{uuid.uuid4().hex[:8]}"
        before, good_before = good_commands(reply_to)
        after, good_after = good_commands(reply_to)
        unreadable, unwritable = match_in_p("unreadable"), match_in_p("unwritable")
        await redis.set(Keys(P).match(unreadable), "not a stream")
        await redis.set(Keys(P).replies(unwritable), "not a hash")
        doomed = [
            {
                b"c": body(
                    m.CreateMatch(game="countdown", seats=2),
                    command_id=cid,
                    match_id=match_id,
                    reply_to=reply_to,
                )
            }
            for cid, match_id in (("doomed-load", unreadable), ("doomed-append", unwritable))
        ]
        async with redis.pipeline(transaction=True) as pipe:
            for fields in [*before, *doomed, *after]:
                pipe.xadd(STREAM, cast(Any, fields))
            await pipe.execute()
        good = good_before + good_after

        async def all_answered() -> bool:
            return len(await replies(redis, reply_to)) == len(good) + 2

        await wait_for(all_answered, "every command answered, the failed ones at last", 1200)
        got = await replies(redis, reply_to)
        assert [got[i].status for i in good] == ["accepted"] * len(good)
        for cid in ("doomed-load", "doomed-append"):
            assert (got[cid].status, got[cid].code) == ("rejected", "command_failed")
            assert got[cid].message
        # The good ones were answered on their first delivery, before the failed ones
        # had been tried again: every good reply comes before both rejections.
        order = [
            REPLY_DECODER.decode(f[b"r"]).command_id
            for _, f in cast("list[tuple[bytes, dict[bytes, bytes]]]", await redis.xrange(reply_to))
        ]
        assert set(order[: len(good)]) == set(good)
        # Kept for an operator, acknowledged, the keys as they were, nothing appended.
        assert await redis.xlen(DEAD) == 2
        assert (await redis.xpending(STREAM, svc.settings.group))["pending"] == 0
        assert await redis.get(Keys(P).match(unreadable)) == b"not a stream"
        assert await redis.exists(Keys(P).match(unwritable)) == 0
        assert svc.processor.stats["failed"] == 2 * 3
    finally:
        await svc.stop()


async def test_a_restarted_worker_takes_back_its_failed_command_once_and_goes_on(
    redis: Redis, redis_server: str
) -> None:
    """A worker restarted under its old name first runs what that name left pending; a
    command that fails again stays pending and must not be claimed again in that pass
    (an idle time of 0 would let it be claimed for ever, and the worker never start)."""
    name = f"commands-restarted-{uuid.uuid4().hex[:6]}"
    settings = Settings(redis_url=redis_server, partitions=PARTITIONS, polling_ms=20, consumer=name)
    reply_to = f"tt:replies:again-{uuid.uuid4().hex[:8]}"
    broken = match_in_p("broken")
    await redis.set(Keys(P).match(broken), "not a stream")
    good, good_ids = good_commands(reply_to)
    doomed = {
        b"c": body(
            m.JoinMatch(player="ann"), command_id="doomed", match_id=broken, reply_to=reply_to
        )
    }
    for fields in [doomed, *good]:
        await redis.xadd(STREAM, cast(Any, fields))
    # Its previous life read them all and died before answering any.
    await redis.xgroup_create(STREAM, settings.group, id="0", mkstream=True)
    await redis.xreadgroup(settings.group, name, {STREAM: ">"})
    svc = compose.command_service(settings)
    await asyncio.wait_for(svc.start(), timeout=120)  # a hang detector, not a speed test
    try:
        got = await replies(redis, reply_to)
        assert [got[i].status for i in good_ids] == ["accepted"] * len(good_ids)
        assert "doomed" not in got
        rows = cast(
            "list[dict[str, Any]]",
            await redis.xpending_range(STREAM, settings.group, min="-", max="+", count=10),
        )
        assert [r["consumer"].decode() for r in rows] == [name]  # the failed one, still held
    finally:
        await svc.stop()


async def test_a_dead_lettered_command_that_was_decided_answers_its_recorded_reply(
    redis: Redis, redis_server: str
) -> None:
    """A command can reach `max_deliveries` after it was appended (its batch failed after
    the append, each time): the dead letter must not tell its sender `command_failed`
    when the record says `accepted`."""
    svc = compose.command_service(
        Settings(redis_url=redis_server, partitions=PARTITIONS, polling_ms=20, max_deliveries=1)
    )
    await svc.start()
    try:
        reply_to = f"tt:replies:decided-{uuid.uuid4().hex[:8]}"
        entries, ids = good_commands(reply_to)
        for fields in entries:
            await redis.xadd(STREAM, cast(Any, fields))

        async def answered() -> bool:
            return len(await replies(redis, reply_to)) == len(ids)

        await wait_for(answered, "the commands accepted")
        # The first one again, held by a worker that died before acknowledging it: its
        # one delivery is all max_deliveries allows, so the rescuer dead-letters it.
        async with redis.pipeline(transaction=True) as pipe:  # before the service reads it
            pipe.xadd(STREAM, cast(Any, entries[0]))
            pipe.xreadgroup(svc.settings.group, "ghost", {STREAM: ">"})
            await pipe.execute()

        async def dead_lettered() -> bool:
            return bool(await redis.xlen(DEAD))

        await wait_for(dead_lettered, "the held entry dead-lettered", 1200)
        found = cast("list[tuple[bytes, dict[bytes, bytes]]]", await redis.xrange(reply_to))
        answers = [REPLY_DECODER.decode(f[b"r"]) for _, f in found]
        again = [r for r in answers if r.command_id == ids[0]]
        assert [(r.status, r.original_status or None) for r in again] == [
            ("accepted", None),
            ("duplicate", "accepted"),
        ]
    finally:
        await svc.stop()
