"""3b. The peer a Python team would build instead of ours: a FastStream service whose
subscriber takes one command per call, an `eventsourcing` Application on its SQLite
recorder (aggregate cache on, `synchronous=NORMAL`: the *tuned* variant of section 3)
holding the match, and the reply XADDed to the client's reply stream. It runs our rules
and is fed the same prepared load by the same load generator as ours, but does less: no
idempotency record, no hash chain, no partition log, no read models, no projector.
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from pathlib import Path
from typing import Any

import msgspec

from bench.load import bounded, finish

PEER_VARIANT = "tuned"


class PeerReply(msgspec.Struct, kw_only=True, omit_defaults=True):
    """What the peer answers: the fields a client of ours reads, and the events."""

    command_id: str
    match_id: str
    status: str
    events: list[msgspec.Raw] = []
    code: str = ""
    message: str = ""
    sent_at: float = 0.0


def peer_child(url: str, partitions: int, db: str, matches: int, q: Any, stop: Any) -> None:
    from bench.common import quiet_logs

    quiet_logs()
    asyncio.run(_serve(url, partitions, Path(db), matches, q, stop))


async def _serve(url: str, partitions: int, db: Path, matches: int, q: Any, stop: Any) -> None:
    from uuid import NAMESPACE_URL, uuid5

    from faststream.redis import RedisBroker, StreamSub
    from redis.asyncio import Redis

    from bench.eventsourcing_peer import durability, es_application
    from domain import match as m
    from domain.kernel import Rejected, games
    from events.keys import Keys
    from services.contracts.messages import CommandMessage

    games()
    app, aggregate_cls, seen = es_application(db, PEER_VARIANT, matches)
    # FastStream's own per-message records as debug lines, as our service has them:
    # neither side pays for a log line per command, and stdout stays the bench's.
    quiet = logging.getLogger("bench.peer")
    quiet.setLevel(logging.WARNING)
    broker = RedisBroker(url, logger=quiet, log_level=logging.DEBUG)
    replies = Redis.from_url(url)
    decode = msgspec.json.Decoder(CommandMessage).decode
    encode = msgspec.json.Encoder().encode
    handled = {"accepted": 0, "rejected": 0}

    def decide(msg: CommandMessage) -> PeerReply:
        """Load the match from the repository (or create it), decide, save."""
        command: Any = msg.command
        try:
            if isinstance(command, m.CreateMatch):
                codec = m.codec(command.game)
                events = [codec.encode(e).decode() for e in m.decide(None, command)]
                agg = aggregate_cls(match_id=msg.match_id, game=command.game, events=events)
            else:
                agg = app.repository.get(uuid5(NAMESPACE_URL, msg.match_id))
                before = len(agg.pending_events)
                agg.handle(command)
                events = list(agg.pending_events[before].events)
            app.save(agg)
        except Rejected as err:
            return PeerReply(
                command_id=msg.command_id,
                match_id=msg.match_id,
                status="rejected",
                code=err.code,
                message=err.message,
                sent_at=msg.sent_at,
            )
        return PeerReply(
            command_id=msg.command_id,
            match_id=msg.match_id,
            status="accepted",
            events=[msgspec.Raw(e.encode()) for e in events],
            sent_at=msg.sent_at,
        )

    for p in range(partitions):
        sub = StreamSub(Keys(p).commands, group="peer", consumer="peer-1")

        @broker.subscriber(stream=sub)
        async def on_command(body: dict[str, str]) -> None:
            msg = decode(body["c"])
            reply = decide(msg)
            handled[reply.status] = handled.get(reply.status, 0) + 1
            await replies.xadd(msg.reply_to, {"r": encode(reply)}, maxlen=100_000, approximate=True)

    await broker.start()
    q.put(("ready", "peer", os.getpid(), None))
    while not stop.is_set():
        await asyncio.sleep(0.05)
    stopped = await bounded(broker.stop())
    await replies.aclose()
    app.close()
    finish(q, "peer", {"handled": handled, "stopped": stopped, **durability(seen)})


def peer_db(tmp: Path) -> Path:
    return tmp / f"peer-{uuid.uuid4().hex[:6]}.sqlite"
