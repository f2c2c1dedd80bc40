"""The command line, end to end, against the test session's redis-server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import msgspec
import pytest
from click.testing import CliRunner
from redis.asyncio import Redis
from redis.typing import EncodableT, FieldT

from events.keys import GATEWAY, Keys, partition_of
from services.cli.main import main
from services.infra.redisconn import connect

pytestmark = pytest.mark.redis


@pytest.fixture
def cli(redis: Redis, redis_server: str, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("TABLETOP_REDIS_URL", redis_server)
    monkeypatch.setenv("TABLETOP_PARTITIONS", "4")
    return CliRunner()


def test_games_json_lists_chicken_with_its_options_and_assumptions(cli: CliRunner) -> None:
    result = cli.invoke(main, ["games", "--json"])
    assert result.exit_code == 0
    games = {g["name"]: g for g in json.loads(result.output)}
    chicken = games["chicken"]
    assert (chicken["min_players"], chicken["max_players"]) == (2, 8)
    eggspansion = {
        "name": "eggspansion",
        "default": False,
        "schema": {"type": "boolean", "default": False},
    }
    assert eggspansion in chicken["options"]
    assert chicken["rules"] in ("complete", "assumptions", "house-completed")
    assert chicken["assumptions"]
    assert chicken["designed"] == [], "only a house-completed game lists what was designed"


def test_the_demo_plays_a_match_through_the_streams_and_audits_it(
    cli: CliRunner, tmp_path: Path
) -> None:
    result = cli.invoke(main, ["demo", "--game", "chicken", "--players", "3", "--seed", "42"])
    assert result.exit_code == 0, result.output
    assert "rolled" in result.output
    assert "final ranking" in result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("audit ok: match ") and last.endswith("replay identical")
    match_id = last.split()[3].rstrip(":")

    history = cli.invoke(main, ["history", match_id, "--as", "2", "--json"])
    assert history.exit_code == 0 and len(json.loads(history.output)) > 10
    lobby = json.loads(cli.invoke(main, ["lobby", "chicken", "--json"]).output)
    assert [s["match_id"] for s in lobby["finished"]] == [match_id]
    board = json.loads(cli.invoke(main, ["leaderboard", "chicken", "--json"]).output)
    assert {row["player"] for row in board} == {"Ann", "Bea", "Cid"}
    shown = json.loads(cli.invoke(main, ["show", match_id, "--json"]).output)
    assert shown["summary"]["status"] == "finished"
    replayed = json.loads(cli.invoke(main, ["replay", match_id, "--to", "6"]).output)
    assert replayed["version"] == 6

    exported = cli.invoke(main, ["export", match_id])
    assert exported.exit_code == 0
    path = tmp_path / "match.jsonl"
    path.write_text(exported.output)
    again = cli.invoke(main, ["import", str(path)])
    assert again.exit_code != 0 and "already exists" in again.output

    forked = cli.invoke(main, ["fork", match_id, "--at", "20", "--id", "f1"])
    assert forked.exit_code == 0, forked.output
    audited = cli.invoke(main, ["audit", "--all"])
    assert audited.exit_code == 0
    assert audited.output.count("audit ok") == 2


def test_audit_exits_1_and_names_the_version_of_a_tampered_event(cli: CliRunner) -> None:
    import asyncio

    result = cli.invoke(main, ["demo", "--game", "countdown", "--seed", "3", "--quiet"])
    assert result.exit_code == 0, result.output
    match_id = result.output.strip().splitlines()[-1].split()[3].rstrip(":")

    async def tamper() -> None:
        import os

        redis = connect(os.environ["TABLETOP_REDIS_URL"])
        key = Keys(partition_of(match_id, 4)).match(match_id)
        entries = cast(list[tuple[bytes, dict[bytes, bytes]]], await redis.xrange(key))
        await redis.delete(key)
        for eid, fields in entries:
            if eid == b"0-6":  # its payload, the event's JSON, second in the entry's array
                held = msgspec.msgpack.decode(fields[b"e"])
                held[1] = held[1][:-1] + b" }"
                fields = {b"e": msgspec.msgpack.encode(held)}
            # XADD takes a dict of any encodable values (a dict type, invariant): bytes are.
            await redis.xadd(key, cast(dict[FieldT, EncodableT], fields), id=eid)
        await redis.aclose()

    asyncio.run(tamper())
    audited = cli.invoke(main, ["audit", match_id])
    assert audited.exit_code == 1
    assert f"match {match_id}: tampered at version 6" in audited.output


def test_rebuilding_the_projections_reports_every_event(cli: CliRunner) -> None:
    assert (
        cli.invoke(main, ["demo", "--game", "countdown", "--seed", "5", "--quiet"]).exit_code == 0
    )
    rebuilt = cli.invoke(main, ["projections", "rebuild"])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert "rebuilt matches:" in rebuilt.output and "rebuilt ratings:" in rebuilt.output
    status = json.loads(cli.invoke(main, ["projections", "status", "--json"]).output)
    assert all(row["events_behind"] == 0 for row in status)


def test_a_rebuild_by_two_processes_reports_every_event(cli: CliRunner) -> None:
    assert cli.invoke(main, ["demo", "--game", "chicken", "--seed", "5", "--quiet"]).exit_code == 0
    applied = []
    for workers in ("1", "2"):
        rebuilt = cli.invoke(main, ["projections", "rebuild", "matches", "--workers", workers])
        assert rebuilt.exit_code == 0, rebuilt.output
        applied.append(int(rebuilt.output.split("rebuilt matches: ")[1].split()[0]))
    status = json.loads(cli.invoke(main, ["projections", "status", "--json"]).output)
    assert applied[0] > 0 and applied[1] == applied[0]
    assert all(row["events_behind"] == 0 for row in status)


def test_partitions_are_given_as_ranges_and_lists_and_checked() -> None:
    from click import BadParameter

    from services.cli.main import _partition_list

    assert _partition_list("", 4) == [0, 1, 2, 3]
    assert _partition_list("0-1,3", 4) == [0, 1, 3]
    for wrong in ("4", "0-9", "a-b", ",", "-1"):
        with pytest.raises(BadParameter):
            _partition_list(wrong, 4)


def test_an_operator_ends_a_players_sign_ins_from_the_command_line(cli: CliRunner) -> None:
    import asyncio
    import os
    import time

    earlier = cli.invoke(main, ["signout", "p-16"])
    assert earlier.exit_code == 0, earlier.output
    ended = cli.invoke(main, ["signout", "p-17"])
    assert ended.exit_code == 0, ended.output
    assert ended.output.startswith("Ended the sign-ins of p-17 as of ")

    async def recorded() -> list[tuple[bytes, dict[bytes, bytes]]]:
        redis = connect(os.environ["TABLETOP_REDIS_URL"])
        try:
            return cast(
                list[tuple[bytes, dict[bytes, bytes]]], await redis.xrange(GATEWAY.signouts)
            )
        finally:
            await redis.aclose()

    # The second end keeps the first: the gateways may not have read it yet.
    [(_, first), (entry, fields)] = asyncio.run(recorded())
    assert (first, fields) == ({b"p": b"p-16"}, {b"p": b"p-17"})
    assert abs(int(entry.split(b"-")[0]) / 1000 - time.time()) < 60
    refused = cli.invoke(main, ["signout", "not an id"])
    assert refused.exit_code == 2 and "no player id" in refused.output
    assert "Traceback" not in refused.output
