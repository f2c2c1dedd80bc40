"""Many writers racing on one match through several command services: the stream is
what one writer applying the accepted commands in order would have made (the audit
re-runs them), every reply agrees with the stream, and nothing is lost."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from domain import match as m
from domain.kernel import get_game
from events.matches import fold_envelopes
from services.client.client import CommandRejected
from services.infra.redisconn import connect
from tests.reliability.harness import (
    GAME,
    CountingClient,
    PatientStore,
    Tally,
    effects,
    report,
    stack,
    wait_alive,
)

pytestmark = [pytest.mark.redis, pytest.mark.reliability]
P = 4
SEATS = 4
JOINERS = 20  # racing for SEATS seats
PER_SEAT = 3  # clients playing each seat at once


async def test_many_writers_racing_on_one_match_through_three_services_stay_serial(
    tmp_path: Path,
) -> None:
    with stack(tmp_path, partitions=P) as s:
        admin = connect(s.server.url)
        services = [s.commands(f"commands-{i}") for i in range(3)]
        await wait_alive(admin, *services)
        tally = Tally()
        store = PatientStore(admin, P)
        clients = [
            CountingClient(connect(s.server.url), tally, partitions=P, timeout=60)
            for _ in range(JOINERS)
        ]
        for c in clients:
            await c.__aenter__()
        try:
            match_id = await clients[0].create(GAME, SEATS)
            joins = await asyncio.gather(
                *(
                    c.send(match_id, m.JoinMatch(player=f"p{i}"), check=False)
                    for i, c in enumerate(clients)
                )
            )
            live = fold_envelopes(await store.load(match_id), None)
            assert live is not None
            players = [p for p in live.state.players if p]
            await clients[0].send(match_id, m.StartMatch(player=players[0]))

            game = get_game(GAME)
            # A bound so a stuck match fails instead of hanging; generous for a loaded
            # machine (the match takes some 10-30 s).
            deadline = time.monotonic() + 300

            async def writer(client: CountingClient, seat: int, n: int) -> None:
                rng = random.Random(n)
                while time.monotonic() < deadline:
                    current = fold_envelopes(await store.load(match_id), None)
                    assert current is not None
                    if current.state.status != "playing":
                        return
                    acting = game.to_act(current.state.game_state)
                    # Seats not to act write too: their moves must be refused, harmlessly.
                    mover = seat if seat in acting else sorted(acting)[0]
                    moves = list(game.legal(current.state.game_state, mover))
                    await client.play(match_id, players[seat], rng.choice(moves))

            async def quietly(client: CountingClient, seat: int, n: int) -> None:
                while time.monotonic() < deadline:
                    try:
                        await writer(client, seat, n)
                        return
                    except CommandRejected:
                        n += 1000

            await asyncio.gather(
                *(
                    quietly(clients[seat * PER_SEAT + k], seat, seat * PER_SEAT + k)
                    for seat in range(SEATS)
                    for k in range(PER_SEAT)
                )
            )
            envelopes = await store.load(match_id)
            final = fold_envelopes(envelopes, None)
            found = await effects(admin, tally, P)
        finally:
            for c in clients:
                await c.__aexit__(None, None, None)
                await c.redis.aclose()
            await admin.aclose()

    assert final is not None and final.state.status == "finished"
    accepted_joins = [r for r in joins if r.status == "accepted"]
    assert len(accepted_joins) == SEATS
    assert {r.code for r in joins if r.status == "rejected"} == {"table_full"}
    # Every reply agrees with the stream: an accepted command's events end at the
    # version it was told; a refused one left no event.
    last_of = {e.command_id: e.version for e in envelopes}
    for cid, answer in tally.answered.items():
        reply = answer.reply
        status = reply.original_status or reply.status
        if status == "accepted":
            assert last_of[cid] == reply.version, cid
        else:
            assert cid not in last_of, cid
    assert [e.version for e in envelopes] == list(range(1, len(envelopes) + 1))
    assert tally.lost == set()
    assert found.applied_twice == [] and found.missing == [] and found.unknown == []
    assert found.audit_failed == []  # re-running the accepted commands in order agrees
    refused = sum(
        (a.reply.original_status or a.reply.status) == "rejected" for a in tally.answered.values()
    )
    # The match's commands went through more than one service.
    through = [sum(line.get("match_id") == match_id for line in s.lines()) for s in services]
    assert sum(n > 0 for n in through) >= 2
    report(
        "racing writers on one match",
        {
            "services": 3,
            "writers": SEATS * PER_SEAT,
            "commands": len(tally.answered),
            "accepted": len(tally.accepted()),
            "refused": refused,
            "events": len(envelopes),
            "log_lines_per_service": through,
        },
    )
    assert [e for s in services for e in s.errors()] == []
