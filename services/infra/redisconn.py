"""Redis clients whose commands are packed by hiredis, in C; one server or a cluster.

redis-py's asyncio connection packs every command in a Python loop that re-joins a
growing buffer once per argument: ~15 µs for one append (a Lua call with ~35
arguments), and the projector packs an XADD per public event. hiredis's
`pack_command` does the same in ~2.6 µs and writes the same bytes.

A Redis Cluster is named `redis+cluster://[user:password@]host:port[,host:port...]`
(`rediss+cluster://` for TLS): any reachable nodes of it, the client discovers the rest.
It gets redis-py's `RedisCluster`, which routes every command by its key's slot, splits
a pipeline into one per node (the services' pipelines hold keys of one partition, or
single-key commands, so each command goes to the node owning its slot), follows MOVED
and ASK, and refreshes the slot map after a failover. The services hold it as a
`Redis`: the commands they send are the same, and `tests/cluster/` runs them all on a
real cluster.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any, cast
from urllib.parse import unquote, urlsplit

import hiredis
import redis.asyncio.cluster as redis_cluster
from redis._parsers.hiredis import _AsyncHiredisParser
from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import (
    BlockingConnectionPool,
    Connection,
    ConnectionPool,
    SSLConnection,
    UnixDomainSocketConnection,
    parse_url,
)
from redis.exceptions import (
    BusyLoadingError,
    ClusterDownError,
    ReadOnlyError,
    SlotNotCoveredError,
    TryAgainError,
)
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

    async def read_response(
        self,
        disable_decoding: bool = False,
        timeout: float | None = None,
        *,
        disconnect_on_error: bool = True,
        push_request: bool | None = False,
    ) -> Any:
        """redis-py's, without a timer for a reply whose bytes are already here.

        redis-py times every reply it reads with the socket timeout: an `asyncio.timeout`
        armed and cancelled per reply, about 10 µs of a pipelined command's 20 (a
        pipeline of 50 GETs: 21-22 µs a command with it, 10-12 without). The replies of
        a pipeline come in together: once the first has been waited for (timed), the
        others are read from the buffer. A reply begun is one a live server is sending,
        so it is read to its end untimed; a server that sent nothing yet is waited for
        with the socket timeout, as redis-py does."""
        if timeout is None and self._buffered():
            timeout = math.inf  # redis-py >= 8.1: this read untimed
        return await super().read_response(  # type: ignore[misc]
            disable_decoding,
            timeout,
            disconnect_on_error=disconnect_on_error,
            push_request=push_request,
        )

    def _buffered(self) -> bool:
        parser = getattr(self, "_parser", None)
        if not isinstance(parser, _AsyncHiredisParser) or parser._reader is None:
            return False
        return bool(parser._reader.has_data())

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        """redis-py's, without its `wait_for` around every write.

        With a socket timeout (redis-py 8 sets 5 s by default) redis-py writes through
        `asyncio.wait_for`, which on Python 3.11 runs the write as a task of its own:
        about a third of a client's CPU per round trip (a SET: 170-190 µs against 125-130
        without). A write to the socket's buffer never waits; only a full buffer does,
        and only that wait is timed here, as redis-py times the whole."""
        if not self.is_connected:  # type: ignore[attr-defined]
            await self.connect_check_health(check_health=False)  # type: ignore[attr-defined]
        if check_health:
            await self.check_health()  # type: ignore[attr-defined]
        if isinstance(command, str):
            command = command.encode()
        if isinstance(command, bytes):
            command = [command]
        try:
            writer = self._writer  # type: ignore[attr-defined]
            if writer is None:
                # A cluster client that re-learns its nodes after a failover closes
                # the old ones' connections, even one another task is about to write
                # on: a lost connection (retried as one), not the caller's bug.
                raise RedisConnectionError("connection closed while a command was written")
            writer.writelines(command)
            transport = writer.transport
            timeout = self.socket_timeout  # type: ignore[attr-defined]
            full = transport.get_write_buffer_size() >= transport.get_write_buffer_limits()[1]
            if timeout and full:
                async with asyncio.timeout(timeout):
                    await writer.drain()
            else:
                await writer.drain()  # returns at once unless the connection is gone
        except TimeoutError:
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            raise RedisTimeoutError("Timeout writing to socket") from None
        except RedisConnectionError:
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            raise
        except OSError as err:
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            errno, message = ("UNKNOWN", err.args[0]) if len(err.args) == 1 else err.args[:2]
            raise RedisConnectionError(
                f"Error {errno} while writing to socket. {message}."
            ) from err
        except BaseException:
            # As redis-py: a write cut short leaves the connection unusable.
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            raise


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


CLUSTER_SCHEMES = ("redis+cluster://", "rediss+cluster://")


def is_cluster_url(url: str) -> bool:
    return url.startswith(CLUSTER_SCHEMES)


def is_cluster(redis: Redis) -> bool:
    """Whether this client is a cluster's (`connect` returns either kind as a `Redis`)."""
    return isinstance(redis, RedisCluster)


class ClusterAddress:
    """What a `redis+cluster://` URL says: the nodes to start from, who logs in, TLS."""

    __slots__ = ("nodes", "password", "tls", "username")

    def __init__(self, url: str) -> None:
        if not is_cluster_url(url):
            raise ValueError(f"not a cluster URL: {url!r}")
        self.tls = url.startswith("rediss+")
        rest = url.split("://", 1)[1]
        userinfo, _, hosts = rest.rpartition("@")
        hosts = hosts.split("/", 1)[0].split("?", 1)[0]
        self.username: str | None = None
        self.password: str | None = None
        if userinfo:
            user, _, password = userinfo.partition(":")
            self.username = unquote(user) or None
            self.password = unquote(password) or None
        self.nodes: list[tuple[str, int]] = []
        for part in hosts.split(","):
            if not part:
                continue
            found = urlsplit(f"//{part}")
            if not found.hostname:
                raise ValueError(f"{part!r} in {url!r} is not host:port")
            self.nodes.append((found.hostname, found.port or 6379))
        if not self.nodes:
            raise ValueError(f"{url!r} names no node")

    def options(self) -> dict[str, Any]:
        """Keyword arguments for `RedisCluster` (and FastStream's cluster broker)."""
        out: dict[str, Any] = {}
        if self.username:
            out["username"] = self.username
        if self.password:
            out["password"] = self.password
        if self.tls:
            out["ssl"] = True
        return out


class AskingNode(ClusterNode):
    """redis-py's cluster node, which sends a redirected command on the connection that
    carried its ASKING.

    ASKING lets only the next command on its own connection through to a node that is
    importing the slot. redis-py 8.2 sends ASKING, puts that connection back at the end
    of the node's free queue and takes the redirected command's connection from the
    front: with two or more free connections, the command goes on one without ASKING,
    the importing node answers MOVED back to the source, the source answers ASK again,
    and after 16 rounds the command fails with "TTL exhausted". Found by the reshard test
    under load. The redirected command follows ASKING with nothing awaited in between,
    so putting the ASKING connection first in the queue hands it that connection."""

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        response = await super().execute_command(*args, **kwargs)
        if args and args[0] == "ASKING" and self._free:
            self._free.rotate(1)  # released last, so now taken first
        return response


# redis-py builds every node (at start, on each topology refresh, on a redirect to a
# node it did not know) from its module's ClusterNode; ours is that class.
redis_cluster.ClusterNode = AskingNode  # type: ignore[misc]


class Cluster(RedisCluster):
    """redis-py's cluster client, which finds the cluster before its first command.

    redis-py 8.1 resolves a command's routing on a startup node before it has learnt
    the cluster, and learning it closes that node: commands sent concurrently by a
    fresh client fail with a closed connection. Found by the cluster tests (32 bots
    starting at once); so the first command waits for the cluster to be learnt."""

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        if self._initialize:
            await self.initialize()
        return await super().execute_command(*args, **kwargs)


def connect_cluster(url: str, **kwargs: Any) -> RedisCluster:
    """A `RedisCluster` for a `redis+cluster://` URL, its connections packing by hiredis."""
    address = ClusterAddress(url)
    kwargs.pop("retry_on_error", None)  # the cluster client retries on its own terms
    cluster = Cluster(
        startup_nodes=[AskingNode(host, port) for host, port in address.nodes],
        **{**address.options(), **kwargs},
    )
    # RedisCluster fixes its connection class; every node it makes (now and after a
    # failover or a reshard) is built from these shared keyword arguments.
    fast = FastSSLConnection if address.tls else FastConnection
    cluster.nodes_manager.connection_kwargs["connection_class"] = fast
    for node in cluster.nodes_manager.startup_nodes.values():
        node.connection_class = fast
    return cluster


def connect(url: str, *, blocking: bool = False, **kwargs: Any) -> Redis:
    """`Redis.from_url`, with the connection class of the URL's scheme made fast
    (from_url itself would put the scheme's own class back); a cluster client for a
    `redis+cluster://` URL. `blocking`: a caller finding every connection of the pool
    (`max_connections`) busy waits for one instead of failing, as a server taking many
    requests at once must (a cluster client keeps a pool per node and waits on its own)."""
    if is_cluster_url(url):
        # Not a subclass of Redis, but it answers every command the services send.
        return cast("Redis", connect_cluster(url, **kwargs))
    options = {**kwargs, **parse_url(url)}
    base = options.get("connection_class", Connection)
    options["connection_class"] = _BY_BASE.get(base, base)
    pool = BlockingConnectionPool(**options) if blocking else ConnectionPool(**options)
    # from_pool: the client owns the pool and closes it with itself, as from_url's does.
    return Redis.from_pool(pool)


def twin(redis: Redis) -> Redis:
    """A new client to the same server or cluster, with the same settings and a pool of
    its own (for blocking reads, which must not share connections with commands)."""
    if isinstance(redis, RedisCluster):
        kwargs = dict(redis.nodes_manager.connection_kwargs)
        fast = kwargs.pop("connection_class", FastConnection)
        kwargs.pop("himport_registry", None)
        kwargs.pop("response_callbacks", None)
        kwargs.pop("driver_info", None)
        nodes = [AskingNode(n.host, n.port) for n in redis.nodes_manager.startup_nodes.values()]
        options = {
            k: v
            for k, v in kwargs.items()
            if k in ("username", "password", "socket_timeout", "socket_connect_timeout")
        }
        cluster = Cluster(startup_nodes=nodes, ssl=issubclass(fast, SSLConnection), **options)
        cluster.nodes_manager.connection_kwargs["connection_class"] = fast
        for node in cluster.nodes_manager.startup_nodes.values():
            node.connection_class = fast
        return cast("Redis", cluster)
    pool = redis.connection_pool
    return Redis(
        connection_pool=type(pool)(connection_class=pool.connection_class, **pool.connection_kwargs)
    )


def username(redis: Redis) -> str | None:
    """The Redis user this client logs in as (None: the default user)."""
    if isinstance(redis, RedisCluster):
        found = redis.nodes_manager.connection_kwargs.get("username")
    else:
        found = redis.connection_pool.connection_kwargs.get("username")
    return str(found) if found else None


# redis-py types each reply for every client setting at once: `bytes | str` (with or
# without decode_responses) and RESP2 lists or RESP3 maps. The clients here decode
# nothing and speak RESP2, so the services `cast` replies to the shapes they really have.
# One entry of XRANGE, XREVRANGE or XREAD: its id and its fields.
StreamEntry = tuple[bytes, dict[bytes, bytes]]

# What a Redis restart (or a network cut) looks like to a client: worth waiting out and
# retrying (every write of ours is idempotent), not a reason to give up. On a cluster,
# so does a failover: a master gone until its replica is promoted (CLUSTERDOWN, slots
# not covered, a write reaching the old master turned replica: READONLY) and a slot
# being moved (TRYAGAIN, for a multi-key command while its keys are split).
GONE = (
    RedisConnectionError,
    RedisTimeoutError,
    BusyLoadingError,
    OSError,
    ClusterDownError,
    SlotNotCoveredError,
    TryAgainError,
    ReadOnlyError,
)
# For `retry_on_error`: a pooled connection a restart closed is retried once on a new one.
RETRY_ON: list[type[Exception]] = [RedisConnectionError, RedisTimeoutError]


def reason(err: BaseException) -> str:
    """An error for a log line: its class and message (redis-py 8's repr drops the
    message: `network:ConnectionError`)."""
    text = str(err)
    return f"{type(err).__name__}: {text}" if text else type(err).__name__
