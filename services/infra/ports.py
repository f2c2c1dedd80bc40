"""Free TCP ports for the servers the tests, the bench and `--port 0` start.

A port from bind(0) lies in the kernel's ephemeral range, the one it hands to outgoing
connections: between the probe and the server's own bind, any client of a busy run may
take it, and a client reconnecting in a loop to a stopped local server can even connect
to itself on that very port. Drawn below that range, a port is only ever taken by
someone binding on purpose, so a probe stays true and a restart in place finds its port.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

_LOWEST = 10_000
# What this process has handed out: a probe releases its port, so without this two calls
# in a row (a gateway's port and its metrics port) could draw the same one.
_given: set[int] = set()


def _ephemeral_floor() -> int:
    """The lowest port the kernel gives outgoing connections (32768 by default)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def free_port(host: str = "127.0.0.1", *, twin: int = 0) -> int:
    """A port free on `host` below the ephemeral range; with `twin`, port + twin is free
    and below it too (a cluster node's bus listens on port + 10000)."""
    top = min(_ephemeral_floor(), 65_536) - twin
    if top <= _LOWEST + 1:
        raise RuntimeError("no room below the ephemeral port range for a server's port")
    rng = random.SystemRandom()
    for _ in range(500):
        port = rng.randrange(_LOWEST, top)
        if port in _given or (twin and port + twin in _given):
            continue
        try:
            with socket.socket() as probe, socket.socket() as other:
                probe.bind((host, port))
                if twin:
                    other.bind((host, port + twin))
        except OSError:
            continue
        _given.update((port, port + twin) if twin else (port,))
        return port
    raise RuntimeError(f"no free TCP port on {host}")
