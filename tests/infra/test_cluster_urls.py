"""`redis+cluster://` URLs: what they name, and the one-line refusals of bad ones."""

from __future__ import annotations

import pytest

from services.infra.config import ConfigError, check_redis_url
from services.infra.redisconn import ClusterAddress, connect, is_cluster, is_cluster_url


def test_a_cluster_url_names_its_nodes_and_who_logs_in() -> None:
    found = ClusterAddress("redis+cluster://tt-commands:s%40cret@10.0.0.1:7000,10.0.0.2,[::1]:7002")
    assert found.nodes == [("10.0.0.1", 7000), ("10.0.0.2", 6379), ("::1", 7002)]
    assert found.username == "tt-commands" and found.password == "s@cret"
    assert not found.tls and found.options() == {"username": "tt-commands", "password": "s@cret"}
    assert ClusterAddress("rediss+cluster://h:1").options() == {"ssl": True}


def test_a_cluster_url_gets_a_cluster_client_and_a_plain_one_does_not() -> None:
    assert is_cluster_url("redis+cluster://h:1") and not is_cluster_url("redis://h:1")
    assert is_cluster(connect("redis+cluster://127.0.0.1:1"))  # no connection until used
    assert not is_cluster(connect("redis://127.0.0.1:1"))


@pytest.mark.parametrize(
    "url", ["redis+cluster://", "redis+cluster://:7000", "redis+cluster://,", "http://h:1"]
)
def test_a_url_naming_no_node_is_refused_in_one_line(url: str) -> None:
    with pytest.raises(ConfigError) as refused:
        check_redis_url(url)
    assert "\n" not in str(refused.value) and "redis+cluster://HOST:PORT" in str(refused.value)


def test_every_documented_form_is_accepted() -> None:
    for url in ("redis://h:1", "rediss://h:1", "unix:///tmp/r.sock", "redis+cluster://a:1,b:2"):
        check_redis_url(url)
