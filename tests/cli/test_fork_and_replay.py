"""fork at move boundaries, and replay --step with its prompt."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from typing import Any

from click.testing import CliRunner

from services import compose
from services.cli.main import main
from services.infra.config import Settings
from services.readside.audit import decisions
from tests.cli.conftest import played


def _moves(match_id: str) -> list[tuple[int, int]]:
    """(first, last) version of every recorded move of the match."""

    async def load() -> list[tuple[int, int]]:
        settings = Settings(redis_url=os.environ["TABLETOP_REDIS_URL"], partitions=4)
        redis = compose.redis_client(settings)
        try:
            envelopes = await compose.event_store(settings, redis).load(match_id)
        finally:
            await redis.aclose()
        return [(g[0].version, g[-1].version) for g in decisions(envelopes)]

    return asyncio.run(load())


def test_a_fork_inside_a_move_starts_where_that_move_began_and_plays_on(
    cli: CliRunner,
) -> None:
    match_id = played(cli, "--game", "chicken", "--players", "2", "--seed", "42")
    # A move of the game (after the start) that wrote several events.
    moves = _moves(match_id)
    first, last = next((a, b) for a, b in moves[4:] if b > a)
    forked = cli.invoke(main, ["fork", match_id, "--at", str(first), "--id", "f-inside"])
    assert forked.exit_code == 0, forked.output
    assert f"version {first} is inside a move: forking at {first - 1}" in forked.output
    assert f"at version {first - 1} into f-inside" in forked.output

    # The fork audits, and the player to act makes a legal move in it.
    assert cli.invoke(main, ["audit", "f-inside"]).output.startswith("audit ok")
    assert asyncio.run(_one_move("f-inside")) == "accepted"
    assert cli.invoke(main, ["audit", "f-inside"]).output.startswith("audit ok")


async def _one_move(match_id: str) -> str:
    from domain.kernel import get_game
    from events.matches import load_match

    settings = Settings(redis_url=os.environ["TABLETOP_REDIS_URL"], partitions=4, polling_ms=20)
    service = compose.command_service(settings)
    await service.start()
    try:
        live = await load_match(service.store, match_id)
        assert live is not None and live.state.status == "playing"
        game = get_game(live.state.game)
        seat = min(game.to_act(live.state.game_state))
        move = next(iter(game.legal(live.state.game_state, seat)))
        player = live.state.players[seat]
        assert player is not None
        async with compose.client(settings) as client:
            reply = await client.play(match_id, player, move)
        return reply.status
    finally:
        await service.stop()


def test_a_fork_at_the_end_of_a_move_forks_there(cli: CliRunner) -> None:
    match_id = played(cli, "--game", "chicken", "--players", "2", "--seed", "42")
    _, last = _moves(match_id)[4]
    forked = cli.invoke(main, ["fork", match_id, "--at", str(last), "--id", "f-end"])
    assert forked.exit_code == 0, forked.output
    assert "inside a move" not in forked.output
    assert cli.invoke(main, ["audit", "f-end"]).output.startswith("audit ok")


def _tabletop(*args: str, **kwargs: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", "from services.cli.main import main; main()", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "80"},
        **kwargs,
    )


def test_replay_step_shows_the_table_and_a_prompt_and_q_quits(cli: CliRunner) -> None:
    match_id = played(cli, "--game", "chicken", "--players", "2", "--seed", "42")
    step = _tabletop("replay", match_id, "--step")
    out, err = step.communicate("\n\nq\n", timeout=60)
    assert step.returncode == 0, err
    # Three steps shown, each with the table after it, then the prompt that took the q.
    assert out.count("Enter: next · q: quit") == 3
    assert out.count("\n status ") == 3 and out.count("\n table ") == 3
    assert "   1  " in out and "   3  " in out and "   4  " not in out
    assert "Traceback" not in err


def test_replay_step_stops_on_ctrl_c_with_one_line(cli: CliRunner) -> None:
    match_id = played(cli, "--game", "chicken", "--players", "2", "--seed", "42")
    # Ctrl-C as a terminal sends it: a process started by one that ignores SIGINT (an
    # xdist worker, after some tests) would inherit the ignoring, and never stop.
    step = _tabletop(
        "replay",
        match_id,
        "--step",
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert step.stdout is not None
    seen = ""
    while "q: quit" not in seen:
        char = step.stdout.read(1)
        assert char, "the prompt never came"
        seen += char
    step.send_signal(signal.SIGINT)
    # Its input stays open until it has gone: `communicate` would close it at once, and
    # the end of the input (which quits, answering 0) could be read before the signal.
    assert step.wait(timeout=60) == 130
    assert step.stderr is not None
    assert step.stderr.read().strip() == "stopped"
    for pipe in (step.stdin, step.stdout, step.stderr):
        if pipe is not None:
            pipe.close()
