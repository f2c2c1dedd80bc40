"""A Redis Cluster on loopback, from the same redis-server binary the embedded server is.

For the tests and the bench: `EmbeddedCluster(folder, masters=3, replicas=1).start()`
starts 3 masters and a replica of each on 127.0.0.1 (each a TCP port, its cluster bus
on port + 10000), gives the masters equal ranges of the 16,384 slots by hand (CLUSTER
ADDSLOTS, MEET, REPLICATE: no redis-cli needed, and no prompt), and returns once every
node sees the cluster `ok`. `url` is the `redis+cluster://` URL the services take.
Nodes are stopped (`stop_node`, SIGTERM), killed (`kill_node`, SIGKILL) and started
again on their data (`restart_node`) to try failover; every process gets the
parent-death signal, so none outlives the process that started it.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import redis as sync_redis
import structlog
from redis.backoff import NoBackoff
from redis.retry import Retry

from services.infra.embedded import _die_with, redis_server_binary
from services.infra.ports import free_port

log = structlog.get_logger("tabletop.cluster")

SLOTS = 16_384
HOST = "127.0.0.1"
BUS_OFFSET = 10_000  # Redis listens for its cluster bus on port + 10000


def node_command(client: sync_redis.Redis, *args: Any) -> Any:
    """One command to one node (redis-py leaves execute_command unannotated)."""
    return client.execute_command(*args)  # type: ignore[no-untyped-call]


class PortTaken(RuntimeError):
    """A node could not bind its port: someone took it after it was probed free."""


class ClusterNodeProcess:
    """One redis-server in cluster mode: its port, its folder, its process."""

    def __init__(self, data_dir: Path, port: int, appendfsync: str, extra: Sequence[str]) -> None:
        self.data_dir = data_dir
        self.port = port
        self.appendfsync = appendfsync
        self.extra = list(extra)
        self.process: subprocess.Popen[bytes] | None = None
        self.node_id = ""

    @property
    def address(self) -> str:
        return f"{HOST}:{self.port}"

    def client(self, **kwargs: Any) -> sync_redis.Redis:
        return sync_redis.Redis(host=HOST, port=self.port, socket_connect_timeout=2, **kwargs)

    def spawn(self, node_timeout_ms: int) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            redis_server_binary(),
            "--port", str(self.port),
            "--bind", HOST,
            "--dir", str(self.data_dir.resolve()),
            "--cluster-enabled", "yes",
            "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", str(node_timeout_ms),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--save", "",
            "--daemonize", "no",
            "--logfile", str((self.data_dir / "redis.log").resolve()),
            *self.extra,
        ]  # fmt: skip
        self.process = subprocess.Popen(
            args,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with(os.getpid()),
            process_group=0,
        )

    def wait_ready(self, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        # One try per ask, with a read timeout: if someone else holds the port, the loop
        # comes back round quickly to see the node's exit instead of retrying on them.
        client = self.client(socket_timeout=1, retry=Retry(NoBackoff(), 0))
        try:
            while True:
                self._raise_if_exited()
                try:
                    info: Any = client.info("persistence")
                    if not int(info.get("loading", 0)):
                        myid: Any = node_command(client, "CLUSTER MYID")
                        self.node_id = myid.decode() if isinstance(myid, bytes) else str(myid)
                        return
                except (
                    sync_redis.ConnectionError,
                    sync_redis.BusyLoadingError,
                    sync_redis.TimeoutError,
                ):
                    pass
                if time.monotonic() > deadline:
                    self._raise_if_exited()
                    raise RuntimeError(f"cluster node {self.address} did not start in time")
                time.sleep(0.05)
        finally:
            client.close()

    def _raise_if_exited(self) -> None:
        if self.process is None or self.process.poll() is None:
            return
        tail = (self.data_dir / "redis.log").read_text(errors="replace")[-1500:]
        if "Address already in use" in tail:
            raise PortTaken(f"cluster node {self.address} lost its port: {tail}")
        raise RuntimeError(f"cluster node {self.address} exited: {tail}")

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, *, kill: bool = False) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            if kill:
                self.process.kill()
            else:
                self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


class EmbeddedCluster:
    """`masters` masters, each with `replicas` replicas, on loopback, in `data_dir`."""

    def __init__(
        self,
        data_dir: Path,
        *,
        masters: int = 3,
        replicas: int = 0,
        appendfsync: str = "everysec",
        node_timeout_ms: int = 5_000,
        extra: Sequence[str] = (),
        layout: Sequence[Sequence[int]] | None = None,
    ) -> None:
        """`layout`: the slots of each master (else equal contiguous ranges); a test
        gives one slot a master of its own, so a script straying from it is refused."""
        if masters < 1:
            raise ValueError("a cluster needs at least one master")
        self.data_dir = data_dir
        self.node_timeout_ms = node_timeout_ms
        self.nodes = [
            ClusterNodeProcess(
                data_dir / f"node-{i}", free_port(HOST, twin=BUS_OFFSET), appendfsync, extra
            )
            for i in range(masters * (1 + replicas))
        ]
        self.masters = masters
        self.replicas = replicas
        if layout is not None and len(layout) != masters:
            raise ValueError("the layout names the slots of each master")
        self.layout = (
            [list(slots) for slots in layout]
            if layout is not None
            else [
                list(range(SLOTS * i // masters, SLOTS * (i + 1) // masters))
                for i in range(masters)
            ]
        )

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(n.address for n in self.nodes)

    def start(self, timeout: float = 30.0) -> EmbeddedCluster:
        try:
            for node in self.nodes:
                node.spawn(self.node_timeout_ms)
            for node in self.nodes:
                self._ready_on_some_port(node)
            self._form(timeout)
        except BaseException:
            self.stop()
            raise
        log.info("embedded_cluster_started", masters=self.masters, replicas=self.replicas)
        return self

    def _ready_on_some_port(self, node: ClusterNodeProcess, tries: int = 5) -> None:
        """Wait for a new node; one that lost its port between the probe and its bind
        is started again on another (the cluster has not met yet, so nothing knows it)."""
        for attempt in range(tries):
            try:
                node.wait_ready()
                return
            except PortTaken:
                if attempt == tries - 1:
                    raise
                log.warning("cluster_node_port_taken", port=node.port)
                for stale in ("redis.log", "nodes.conf"):
                    (node.data_dir / stale).unlink(missing_ok=True)
                node.port = free_port(HOST, twin=BUS_OFFSET)
                node.spawn(self.node_timeout_ms)

    def _form(self, timeout: float) -> None:
        masters = self.nodes[: self.masters]
        # By default equal, contiguous slot ranges, as `redis-cli --cluster create` gives.
        for i, node in enumerate(masters):
            with contextlib.closing(node.client()) as c:
                node_command(c, "CLUSTER ADDSLOTS", *self.layout[i])
                # Distinct epochs, so the nodes agree on the configuration at once.
                node_command(c, "CLUSTER SET-CONFIG-EPOCH", i + 1)
        first = self.nodes[0]
        for node in self.nodes[1:]:
            with contextlib.closing(node.client()) as c:
                node_command(c, "CLUSTER MEET", HOST, first.port)
        self.wait_until(lambda: all(self._known(n) == len(self.nodes) for n in self.nodes), timeout)
        for r, replica in enumerate(self.nodes[self.masters :]):
            master = masters[r % self.masters]
            with contextlib.closing(replica.client()) as c:
                node_command(c, "CLUSTER REPLICATE", master.node_id)
        self.wait_until(self.healthy, timeout)

    def _known(self, node: ClusterNodeProcess) -> int:
        with contextlib.closing(node.client()) as c:
            # redis-py parses the reply: address -> node (flags, slots, ...).
            found: Any = node_command(c, "CLUSTER NODES")
        return sum(1 for node in found.values() if "handshake" not in node["flags"])

    def healthy(self) -> bool:
        """Every live node says `cluster_state:ok`, and each master has its replicas in sync."""
        for node in self.nodes:
            if not node.alive:
                continue
            try:
                with contextlib.closing(node.client()) as c:
                    info: Any = node_command(c, "CLUSTER INFO")  # parsed: a dict
                    if info.get("cluster_state") != "ok":
                        return False
                    role: Any = c.info("replication")
                    if role.get("role") == "slave" and role.get("master_link_status") != "up":
                        return False
            except sync_redis.RedisError:
                return False
        return True

    @staticmethod
    def wait_until(check: Any, timeout: float = 30.0, every: float = 0.05) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster did not reach the expected state in time")
            time.sleep(every)

    # --- who holds what ---------------------------------------------------------------

    def slot_owners(self) -> dict[int, str]:
        """Each slot and the address of the master serving it, as a live node sees it."""
        for node in self.nodes:
            if not node.alive:
                continue
            with contextlib.suppress(sync_redis.RedisError), contextlib.closing(node.client()) as c:
                # RESP2: [low, high, [host, port, id], replicas...] per range.
                ranges: Any = node_command(c, "CLUSTER SLOTS")
                owners: dict[int, str] = {}
                for low, high, primary, *_ in ranges:
                    host = primary[0].decode() if isinstance(primary[0], bytes) else primary[0]
                    for slot in range(int(low), int(high) + 1):
                        owners[slot] = f"{host}:{int(primary[1])}"
                return owners
        raise RuntimeError("no live cluster node answers")

    def master_of(self, slot: int) -> ClusterNodeProcess:
        address = self.slot_owners()[slot]
        return next(n for n in self.nodes if n.address == address)

    def live_masters(self) -> list[ClusterNodeProcess]:
        out = []
        for node in self.nodes:
            if not node.alive:
                continue
            with contextlib.suppress(sync_redis.RedisError), contextlib.closing(node.client()) as c:
                role: Any = c.info("replication")
                if role.get("role") == "master":
                    out.append(node)
        return out

    # --- trouble ------------------------------------------------------------------------

    def stop_node(self, node: ClusterNodeProcess, *, kill: bool = False) -> None:
        node.stop(kill=kill)
        log.info("cluster_node_stopped", address=node.address, killed=kill)

    def restart_node(self, node: ClusterNodeProcess) -> None:
        node.spawn(self.node_timeout_ms)
        node.wait_ready()

    def move_slot(self, slot: int, to: ClusterNodeProcess, batch: int = 100) -> int:
        """Move one slot and its keys to another master, as `redis-cli --cluster reshard`
        does: IMPORTING on the target, MIGRATING on the source, MIGRATE the keys a batch
        at a time, then SETSLOT NODE on the target, the source and the rest. The number
        of keys moved."""
        source = self.master_of(slot)
        if source is to:
            return 0
        moved = 0
        with contextlib.closing(source.client()) as src, contextlib.closing(to.client()) as dst:
            node_command(dst, "CLUSTER SETSLOT", slot, "IMPORTING", source.node_id)
            node_command(src, "CLUSTER SETSLOT", slot, "MIGRATING", to.node_id)
            while True:
                keys: Any = node_command(src, "CLUSTER GETKEYSINSLOT", slot, batch)
                if not keys:
                    break
                node_command(src, "MIGRATE", HOST, to.port, "", 0, 5_000, "KEYS", *keys)
                moved += len(keys)
            # The target first, then the source, then the rest: told the other way round,
            # the source sends clients MOVED to a target that, still only IMPORTING,
            # sends them MOVED back, until redis-py gives up ("TTL exhausted").
            others = [n for n in self.live_masters() if n is not to and n is not source]
            for node in (to, source, *others):
                with contextlib.closing(node.client()) as c:
                    node_command(c, "CLUSTER SETSLOT", slot, "NODE", to.node_id)
        log.info("cluster_slot_moved", slot=slot, to=to.address, keys=moved)
        return moved

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
