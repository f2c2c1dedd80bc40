"""The rematch process: opens each rematch a finished match agreed on.

The command service decides one match per command, and a rematch crosses matches: the
old match records `match.rematch_agreed` (every player accepted), and this process,
following each partition log from a checkpoint, then sends the new match its commands --
create (linked back with `rematch_of`, with the old match's clock if it had one), a join
per seat in the agreed (rotated) order, start -- one at a time, each awaited. Everything
it sends is named in advance: the new match's id is `rematch_id(old)` and each command
id is derived from the old match, so a crash anywhere and a retry from the checkpoint
send the very same commands, which the command service answers `duplicate`; two such
processes on one partition open one rematch between them. The checkpoint moves once a
batch's rematches are open. A rematch the command service refuses (a player's id that no
longer suits, a game no longer offered) is logged and passed: it must not hold up the
partition.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import structlog
from redis.asyncio import Redis

from domain import match as m
from events.keys import Keys
from events.store import START, EventStore
from services.client.client import TabletopClient
from services.infra.passes import PassLoop
from services.infra.redisconn import GONE

log = structlog.get_logger("tabletop.rematch")
AGREED = "match.rematch_agreed"
_AGREED = msgspec.json.Decoder(m.RematchAgreed)


def command_ids(origin: str, seats: int) -> list[str]:
    """The ids of the commands that open the rematch of `origin`, in the order sent."""
    joins = [f"rematch.{origin}.join.{seat}" for seat in range(seats)]
    return [f"rematch.{origin}.create", *joins, f"rematch.{origin}.start"]


def opening(origin: str, agreed: m.RematchAgreed) -> list[tuple[str, Any]]:
    """The rematch's commands with their ids: create, sit everyone down, start."""
    seats = len(agreed.players)
    # A setting the match had not is left unset: the command is then recorded as
    # before the setting existed.
    create = m.CreateMatch(game=agreed.game, seats=seats, options=agreed.options, rematch_of=origin)
    if agreed.clock is not None:
        create.clock = agreed.clock
    if agreed.unlisted:
        create.unlisted = True
    commands: list[Any] = [create]
    commands += [m.JoinMatch(player=p, seat=s) for s, p in enumerate(agreed.players)]
    commands.append(m.StartMatch(player=agreed.players[0]))
    return list(zip(command_ids(origin, seats), commands, strict=True))


class Rematcher(PassLoop):
    role = "rematch"
    failed_event = "rematch_failed"
    idle_sleep = 0.1
    linger = 0.1  # a rematch opens a tenth of a second later at most, and costs less
    idle_max = 0.4
    stop_timeout = 35.0
    away = (*GONE, TimeoutError)  # Redis or the command service away

    """Follows the logs of `partitions` and opens every agreed rematch once."""

    def __init__(
        self,
        redis: Redis,
        store: EventStore,
        client: TabletopClient,
        *,
        partitions: Sequence[int] | None = None,
        batch_size: int = 200,
    ) -> None:
        self.redis = redis
        self.store = store
        self.client = client
        self.partitions = list(partitions if partitions is not None else range(store.partitions))
        self.batch_size = batch_size
        self.opened = 0
        self._behind = False

    def behind(self) -> bool:
        return self._behind

    async def pass_once(self) -> int:
        """One batch of every partition's log; the log entries moved past."""
        keys = [Keys(p).rematch_checkpoint for p in self.partitions]
        raw: Any = await self.redis.mget(keys) if len(keys) > 1 else [await self.redis.get(keys[0])]
        after = {p: r.decode() if r else START for p, r in zip(self.partitions, raw, strict=True)}
        founds = await self.store.read_logs(after, self.batch_size, (AGREED,))
        self._behind = any(len(found) >= self.batch_size for found in founds.values())
        moved = 0
        for p, found in founds.items():
            if not found:
                continue
            for _, env in found:
                # An entry is a command's events, read from its match stream: the
                # accept (or offer) that agreed comes before match.rematch_agreed.
                if env is not None and env.type == AGREED:
                    await self.open(env.match_id, _AGREED.decode(env.payload))
            await self.redis.set(Keys(p).rematch_checkpoint, found[-1][0])
            moved += len(found)
        return moved

    async def open(self, origin: str, agreed: m.RematchAgreed) -> None:
        """Send the rematch's commands, each awaited (a retry answers `duplicate`)."""
        bound = log.bind(match_id=agreed.match_id, rematch_of=origin)
        for command_id, command in opening(origin, agreed):
            reply = await self.client.send(
                agreed.match_id, command, command_id=command_id, check=False
            )
            refused = reply.status == "rejected" or reply.original_status == "rejected"
            if refused:
                bound.warning(
                    "rematch_refused", command_id=command_id, code=reply.code, reason=reply.message
                )
                return
        self.opened += 1
        bound.info("rematch_opened", players=list(agreed.players))
