"""Redis clients whose commands are packed by hiredis, in C.

redis-py's asyncio connection packs every command in a Python loop that re-joins a
growing buffer once per argument: ~15 µs for one append (a Lua call with ~35
arguments), and the projector packs an XADD per public event. hiredis's
`pack_command` does the same in ~2.6 µs and writes the same bytes.
"""

from __future__ import annotations

from typing import Any

import hiredis
from redis.asyncio import Redis
from redis.asyncio.connection import (
    Connection,
    ConnectionPool,
    SSLConnection,
    UnixDomainSocketConnection,
    parse_url,
)
from redis.exceptions import BusyLoadingError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


class _HiredisPacking:
    def pack_command(self, *args: Any) -> list[bytes]:
        head = args[0]
        # redis-py lets a command name carry its subcommand ("SCRIPT LOAD"): split it.
        if isinstance(head, str) and " " in head or isinstance(head, bytes) and b" " in head:
            args = (*head.split(), *args[1:])
        try:
            return [hiredis.pack_command(args)]
        except TypeError:
            # A type hiredis refuses (bool, None, bytearray): redis-py packs it, or
            # raises its own DataError as it always has.
            packed: list[bytes] = super().pack_command(*args)  # type: ignore[misc]
            return packed


class FastConnection(_HiredisPacking, Connection):
    pass


class FastUnixConnection(_HiredisPacking, UnixDomainSocketConnection):
    pass


class FastSSLConnection(_HiredisPacking, SSLConnection):
    pass


_BY_BASE: dict[type, type] = {
    Connection: FastConnection,
    UnixDomainSocketConnection: FastUnixConnection,
    SSLConnection: FastSSLConnection,
}


def connect(url: str, **kwargs: Any) -> Redis:
    """`Redis.from_url`, with the connection class of the URL's scheme made fast
    (from_url itself would put the scheme's own class back)."""
    options = {**kwargs, **parse_url(url)}
    base = options.get("connection_class", Connection)
    options["connection_class"] = _BY_BASE.get(base, base)
    # from_pool: the client owns the pool and closes it with itself, as from_url's does.
    return Redis.from_pool(ConnectionPool(**options))


# redis-py types each reply for every client setting at once: `bytes | str` (with or
# without decode_responses) and RESP2 lists or RESP3 maps. The clients here decode
# nothing and speak RESP2, so the services `cast` replies to the shapes they really have.
# One entry of XRANGE, XREVRANGE or XREAD: its id and its fields.
StreamEntry = tuple[bytes, dict[bytes, bytes]]

# What a Redis restart (or a network cut) looks like to a client: worth waiting out and
# retrying (every write of ours is idempotent), not a reason to give up.
GONE = (RedisConnectionError, RedisTimeoutError, BusyLoadingError, OSError)
# For `retry_on_error`: a pooled connection a restart closed is retried once on a new one.
RETRY_ON: list[type[Exception]] = [RedisConnectionError, RedisTimeoutError]


def reason(err: BaseException) -> str:
    """An error for a log line: its class and message (redis-py 8's repr drops the
    message: `network:ConnectionError`)."""
    text = str(err)
    return f"{type(err).__name__}: {text}" if text else type(err).__name__
