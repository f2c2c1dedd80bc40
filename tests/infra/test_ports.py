"""Ports for the servers we start lie below the kernel's ephemeral range, where no
outgoing connection can take them between the probe and the server's bind."""

from __future__ import annotations

import socket

from services.infra.ports import _ephemeral_floor, free_port


def test_a_free_port_is_below_the_ephemeral_range_and_can_be_bound() -> None:
    for _ in range(20):
        port = free_port()
        assert 10_000 <= port < _ephemeral_floor()
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))


def test_a_port_with_a_twin_has_both_free_and_below_the_range() -> None:
    for _ in range(20):
        port = free_port(twin=10_000)
        assert port + 10_000 < _ephemeral_floor()
        with socket.socket() as a, socket.socket() as b:
            a.bind(("127.0.0.1", port))
            b.bind(("127.0.0.1", port + 10_000))


def test_a_port_someone_holds_is_never_offered() -> None:
    held = []
    try:
        for _ in range(50):
            s = socket.socket()
            s.bind(("127.0.0.1", free_port()))
            held.append(s)
        ports = {s.getsockname()[1] for s in held}
        assert len(ports) == len(held)
        assert free_port() not in ports
    finally:
        for s in held:
            s.close()


def test_a_process_is_never_handed_the_same_port_twice() -> None:
    """A probe lets its port go, so two calls in a row could otherwise draw one port for
    two servers (a gateway and its metrics endpoint)."""
    given = [free_port() for _ in range(300)]
    assert len(set(given)) == len(given)
