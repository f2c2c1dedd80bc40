"""The services' Redis client packs commands with hiredis: the same bytes as redis-py,
the same refusals, and every command shape the services send works on a real server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio.connection as redis_connection
from redis.asyncio import Redis
from redis.asyncio.connection import Connection, UnixDomainSocketConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.infra.redisconn import FastConnection, FastUnixConnection, connect, is_cluster

SHAPES: list[tuple[Any, ...]] = [
    ("SET", "k", "v"),
    ("EVALSHA", "a" * 40, 3, "tt:{3}:match:m1", "tt:{3}:log", "x", "m1.5", -1, b"\x00\xff" * 9),
    ("ZADD", "board", 0.1 + 0.2, "ann", -3.5e-7, "bob", 2**70, "cy"),
    ("SET", "clé", "é" * 3),
    ("SET", b"k", memoryview(b"bytes in a view")),
    ("SET", "big", b"x" * 100_000),  # past redis-py's chunking cutoff
]


@pytest.mark.parametrize("args", SHAPES, ids=lambda a: str(a[0]) + str(len(a)))
def test_the_packed_bytes_are_redis_pys(args: tuple[Any, ...]) -> None:
    ours = b"".join(FastConnection().pack_command(*args))
    theirs = b"".join(Connection().pack_command(*args))
    assert ours == theirs


def test_a_subcommand_in_the_name_is_split_as_redis_py_does() -> None:
    ours = FastConnection().pack_command("SCRIPT LOAD", "return 1")
    assert b"".join(ours) == b"".join(Connection().pack_command("SCRIPT LOAD", "return 1"))
    assert ours[0].startswith(b"*3\r\n")


@pytest.mark.parametrize("bad", [True, None, {"a": 1}])
def test_a_value_redis_cannot_take_is_refused_as_before(bad: object) -> None:
    with pytest.raises(DataError):
        FastConnection().pack_command("SET", "k", bad)


def test_the_url_scheme_picks_the_fast_class_of_its_kind() -> None:
    unix = connect("unix:///tmp/none.sock")
    tcp = connect("redis://127.0.0.1:1/0")
    assert issubclass(unix.connection_pool.connection_class, UnixDomainSocketConnection)
    assert unix.connection_pool.connection_class is FastUnixConnection
    assert tcp.connection_pool.connection_class is FastConnection


async def test_the_services_command_shapes_round_trip(redis: Redis) -> None:
    if is_cluster(redis):  # TABLETOP_TEST_CLUSTER: each node's connections are fast
        node: Any = redis.get_node_from_key("{t}")  # type: ignore[attr-defined]
        assert node.connection_class is FastConnection
    else:
        assert redis.connection_pool.connection_class in (FastConnection, FastUnixConnection)
    sha = await redis.script_load("return {KEYS[1], ARGV[1], ARGV[2]}")
    assert await redis.evalsha(sha, 1, "k", b"\x00\xff", 7) == [b"k", b"\x00\xff", b"7"]
    await redis.xadd("s", {"e": b"x" * 100_000})
    await redis.xgroup_create("s", "g", id="0")
    groups = await redis.xinfo_groups("s")  # "XINFO GROUPS": a two-word command
    assert groups[0]["name"] == b"g"
    # One slot ({t}), as every MULTI of the services is: a cluster refuses any other.
    async with redis.pipeline(transaction=True) as tx:
        tx.zadd("{t}board", {"ann": 0.1 + 0.2})
        tx.rpush("{t}h", *[f"line {i}" for i in range(50)])
        await tx.execute()
    assert await redis.zscore("{t}board", "ann") == 0.1 + 0.2
    assert await redis.llen("{t}h") == 50


async def test_a_connection_closed_under_a_writer_is_a_lost_connection(redis_server: str) -> None:
    # What a cluster client's failover does to a command in flight: another task closes
    # the connection between the "connected?" check and the write.
    client = connect(redis_server)
    try:
        # redis-py leaves the pool's get_connection unannotated.
        connection: Any = await client.connection_pool.get_connection()  # type: ignore[no-untyped-call]
        assert connection.is_connected

        async def closed_by_another_task(*_: Any, **__: Any) -> None:
            await connection.disconnect()

        connection.check_health = closed_by_another_task
        with pytest.raises(RedisConnectionError, match="closed while a command was written"):
            await connection.send_packed_command(b"PING\r\n")
    finally:
        await client.aclose()


async def test_a_pipelines_replies_are_timed_once_not_once_each(
    redis_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # redis-py arms and cancels a timer for every reply it reads: about half of what a
    # pipelined command costs the client. The replies come in together.
    armed: list[float] = []
    # The name redis-py's connection module imports its timer under: not re-exported.
    timed = redis_connection.async_timeout  # type: ignore[attr-defined]

    def counted(delay: float | None) -> Any:
        armed.append(delay or 0.0)
        return timed(delay)

    monkeypatch.setattr(redis_connection, "async_timeout", counted)
    client = connect(redis_server, socket_timeout=5.0)
    try:
        await client.set("k", b"v" * 50)
        armed.clear()
        async with client.pipeline(transaction=False) as pipe:
            for _ in range(40):
                pipe.get("k")
            pipe.hget("k", "f")  # a wrong type: an error among the replies, in its place
            replies = await pipe.execute(raise_on_error=False)
        assert replies[:40] == [b"v" * 50] * 40
        assert isinstance(replies[40], ResponseError)
        assert armed == [5.0]  # the first reply waited for, and only it
    finally:
        await client.aclose()


async def test_a_server_that_answers_nothing_still_times_out() -> None:
    # The socket timeout still guards the wait for a reply that has not begun.
    accepted: list[asyncio.StreamWriter] = []

    async def silent(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = connect(f"redis://127.0.0.1:{port}/0", socket_timeout=0.2)
    try:
        with pytest.raises(RedisTimeoutError):
            await client.get("k")
    finally:
        await client.aclose()
        for writer in accepted:
            writer.close()
        server.close()
        await server.wait_closed()
