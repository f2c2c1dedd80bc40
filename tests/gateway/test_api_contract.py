"""The running gateway against its OpenAPI document, with Schemathesis: requests drawn
from the document (valid ones, and ones it refuses), alone and chained by the links it
infers. Every answer must be one the document describes, status and body; no request
may make a server error; a body the document admits is not refused for its shape, and
one it does not admit is."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import httpx

from services.gateway.stack import Stack
from tests.gateway.conftest import sign_in

DOC = Path(__file__).parents[2] / "docs" / "openapi.json"
# The CLI beside this interpreter: the one the project's test extra installed.
ST = Path(sys.executable).with_name("st")


async def test_the_gateway_answers_as_its_openapi_document_says(
    stack: Stack, tmp_path: Path
) -> None:
    # The gateway tests' stack has no rate limits: the run sends a hundred requests a
    # second as one player, and its answers must not hang on timing.
    async with httpx.AsyncClient(base_url=stack.url, timeout=30) as http:
        headers = await sign_in(http, "Schema")
    run = await asyncio.create_subprocess_exec(
        str(ST),
        "run",
        str(DOC),
        "--url",
        stack.url,
        "--header",
        f"Authorization: {headers['authorization']}",
        "--checks",
        "all",
        "--max-examples",
        "30",
        "--workers",
        "1",  # its coverage phase has failed on its own caches with more
        "--seed",
        "7",  # the same requests every run: a failure here is the gateway's
        "--generation-database",
        "none",
        "--no-color",
        cwd=tmp_path,  # where it writes what it keeps
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(run.communicate(), timeout=600)
    text = out.decode(errors="replace")
    assert run.returncode == 0, text[-6000:]
    assert " passed" in text and "generated" in text, text[-2000:]
