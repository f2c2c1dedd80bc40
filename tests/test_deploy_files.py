"""deploy/: the compose file, the Prometheus scrape config, the alert rules and the
Grafana dashboard agree with the code (users, commands, metrics) and with each other."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]  # no stubs (types-PyYAML is not installed)
from click.testing import CliRunner

from services.cli.main import main
from services.infra import metrics
from tests.support.tools import compose_tool

DEPLOY = Path(__file__).parents[1] / "deploy"
ROLES = {
    "commands-a": "tt-commands",
    "commands-b": "tt-commands",
    "projector": "tt-projector",
    "gateway": "tt-gateway",
    "archiver": "tt-archiver",
    "scheduler": "tt-scheduler",
}


def compose() -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return found


def names_in(expression: str) -> set[str]:
    return set(re.findall(r"\btabletop_[a-z_]+", expression))


def known_metrics() -> set[str]:
    """Every sample name this code's metrics expose (counters' _total, histograms' parts)."""
    out = set()
    for name in dir(metrics):
        metric = getattr(metrics, name)
        describe = getattr(metric, "describe", None)
        if describe is None or not hasattr(metric, "_name"):
            continue
        for family in describe():
            base = family.name
            out |= {base, f"{base}_total", f"{base}_bucket", f"{base}_count", f"{base}_sum"}
    return out


def test_every_tabletop_process_runs_as_its_own_user_with_a_health_check() -> None:
    services = compose()["services"]
    users = {line.split()[1] for line in (DEPLOY / "users.acl").read_text().splitlines()}
    for name, role in ROLES.items():
        service = services[name]
        assert "healthcheck" in service, name
        assert f"redis://{role}:" in service["environment"]["TABLETOP_REDIS_URL"], name
        assert role in users, role
    assert "redis" in services and "healthcheck" in services["redis"]
    assert services["projector"]["environment"]["TABLETOP_LOG_URL"].startswith(
        "redis://tt-projector-log:"
    )


def test_every_service_command_is_one_tabletop_serve_takes() -> None:
    cli = CliRunner()
    for name in ROLES:
        command = compose()["services"][name]["command"]
        assert command[0] == "serve", name
        # --help after the options: click parses them all (an unknown one fails) first.
        result = cli.invoke(main, [*command, "--help"])
        assert result.exit_code == 0, (name, result.output)


def test_the_command_services_split_every_partition_between_them() -> None:
    services = compose()["services"]
    owned: list[int] = []
    for name in ("commands-a", "commands-b"):
        command = services[name]["command"]
        first, last = command[command.index("--command-partitions") + 1].split("-")
        owned += range(int(first), int(last) + 1)
    partitions = int(services["commands-a"]["environment"]["TABLETOP_PARTITIONS"])
    assert sorted(owned) == list(range(partitions))


def test_prometheus_scrapes_every_tabletop_process() -> None:
    scrape = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    targets = {
        target.split(":")[0]: int(target.split(":")[1])
        for job in scrape["scrape_configs"]
        for group in job["static_configs"]
        for target in group["targets"]
    }
    assert set(targets) == set(ROLES)
    services = compose()["services"]
    for name, port in targets.items():
        if name == "gateway":
            assert str(port) in services[name]["command"]
        else:
            assert str(port) == services[name]["environment"]["TABLETOP_METRICS_PORT"]
    assert "/etc/prometheus/alerts.yml" in scrape["rule_files"]


def test_the_alerts_and_the_dashboard_use_only_metrics_the_code_exposes() -> None:
    known = known_metrics()
    rules = yaml.safe_load((DEPLOY / "alerts.yml").read_text())
    used = set()
    for group in rules["groups"]:
        for rule in group["rules"]:
            assert rule["alert"] and rule["annotations"]["summary"]
            used |= names_in(rule["expr"])
    dashboard = json.loads((DEPLOY / "grafana-dashboard.json").read_text())
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            used |= names_in(target["expr"])
    assert used and used <= known, sorted(used - known)
    # Every metric the issue names is on the dashboard.
    for wanted in (
        "tabletop_commands_total",
        "tabletop_rejections_total",
        "tabletop_reply_latency_seconds_bucket",
        "tabletop_batch_size_sum",
        "tabletop_pending_entries",
        "tabletop_takeovers_total",
        "tabletop_projection_lag_seconds",
        "tabletop_cache_lookups_total",
        "tabletop_archive_backlog",
    ):
        assert wanted in used, wanted


def test_docker_compose_takes_the_file() -> None:
    tool = compose_tool()
    if tool is None:
        pytest.skip("neither `docker compose` nor `docker-compose` is installed")
    done = subprocess.run(
        [*tool, "-f", str(DEPLOY / "compose.yaml"), "config", "-q"],
        capture_output=True,
        text=True,
        cwd=DEPLOY,
    )
    assert done.returncode == 0, done.stderr
