"""The commands, prepared ahead: every match is first played in-process with the service's
own decision (`CommandProcessor.plan`: decide, fold, seal) and the same seeds, so sending
those commands through the streams reproduces the same events."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from bench.common import BenchConfig

NAMES = ("Ann", "Bea", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal")


class Decision(msgspec.Struct, array_like=True):
    """One prepared command and everything the service will make of it."""

    command_id: str
    command: bytes  # the MatchCommand's JSON (what the bot sends)
    items: list[tuple[str, bytes]]  # the events it causes: (type, payload)
    reply: bytes  # the reply the service sends (sent_at left out)
    keys: list[str]  # the Lua append's keys ...
    args: list[Any]  # ... and arguments, exactly as the service passes them


class PreparedMatch(msgspec.Struct, array_like=True):
    match_id: str
    partition: int
    decisions: list[Decision]


def prepare_match(
    game_name: str,
    match_id: str,
    seats: int,
    seed: int,
    partitions: int,
    *,
    options: dict[str, Any] | None = None,
    min_events: int = 0,
    max_commands: int = 100_000,
) -> tuple[PreparedMatch, Any]:
    """Play one match in-process with the service's own `plan` (decide, fold, seal).

    Returns the match and its final LiveMatch. With `min_events`, play stops as soon
    as the match has that many events (finished or not)."""
    from domain import match as m
    from domain.kernel import get_game
    from events.keys import partition_of
    from events.redis_store import append_call
    from events.store import InMemoryStore
    from services.commands.application import CommandProcessor
    from services.contracts.messages import ENCODER, CommandMessage

    game = get_game(game_name)
    names = list(NAMES[:seats])
    processor = CommandProcessor(InMemoryStore(), _NoReplies(), trust_seeds=True)
    bot = random.Random(seed * 7919 + 1)
    setup: list[Any] = [m.CreateMatch(game=game_name, seats=seats, options=options or {})]
    setup += [m.JoinMatch(player=n) for n in names]
    setup.append(m.StartMatch(player=names[0], seed=seed))
    live = None
    decisions: list[Decision] = []

    def apply(command: Any) -> None:
        nonlocal live
        cid = f"{match_id}.{len(decisions)}"
        msg = CommandMessage(command_id=cid, match_id=match_id, reply_to="", command=command)
        plan = processor.plan(msg, live)
        if plan.reply.status != "accepted" or plan.after is None:
            raise RuntimeError(f"{game_name} seed {seed}: {plan.reply.code} {plan.reply.message}")
        keys, args = append_call(plan.request, partitions)
        items = [(e.type, bytes(e.payload)) for e in plan.request.envelopes]
        decisions.append(
            Decision(cid, ENCODER.encode(command), items, ENCODER.encode(plan.reply), keys, args)
        )
        live = plan.after

    for command in setup:
        apply(command)
    assert live is not None
    while live.state.status == "playing" and len(decisions) < max_commands:
        if min_events and live.state.version >= min_events:
            break
        gs = live.state.game_state
        seat = bot.choice(sorted(game.to_act(gs)))
        move = bot.choice(list(game.legal(gs, seat)))
        apply(m.PlayMove(player=names[seat], move=msgspec.Raw(ENCODER.encode(move))))
    return PreparedMatch(match_id, partition_of(match_id, partitions), decisions), live


class _NoReplies:
    async def send(self, replies: Sequence[tuple[str, bytes]]) -> None:  # pragma: no cover
        pass


def prepare_matches(cfg: BenchConfig, prefix: str) -> list[PreparedMatch]:
    out = []
    for i in range(cfg.matches):
        pm, _ = prepare_match(
            cfg.game, f"{prefix}{i:06d}", cfg.seats, cfg.seed * 1_000_003 + i, cfg.partitions
        )
        out.append(pm)
    return out


def read_prepared(path: str) -> list[PreparedMatch]:
    """The prepared matches, as the suite wrote them for its child processes."""
    with open(path, "rb") as f:
        return msgspec.msgpack.decode(f.read(), type=list[PreparedMatch])
