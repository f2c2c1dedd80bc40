"""Random bots: they create a match, sit down, start it and play random legal moves
through the real command streams, following the match from the store as they go."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from domain import match as m
from domain.kernel import get_game
from events.envelope import Envelope
from events.matches import LiveMatch, fold_envelopes
from events.store import EventStore
from services.client.client import TabletopClient

OnEvents = Callable[[m.MatchState, Sequence[Envelope]], Awaitable[None] | None]
NAMES = ("Ann", "Bea", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal")


async def play_match(
    client: TabletopClient,
    store: EventStore,
    game_name: str,
    *,
    players: Sequence[str] | None = None,
    seats: int | None = None,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    on_events: OnEvents | None = None,
    bot_seed: int = 0,
    max_moves: int = 20_000,
    match_id: str = "",
    unlisted: bool = False,
) -> tuple[str, LiveMatch]:
    """Play one whole match with random legal moves; returns its id and final state
    (`match_id`: the id to create it under, else a fresh one; `unlisted`: a table kept
    out of the lobbies)."""
    game = get_game(game_name)
    n = seats or (len(players) if players else game.min_players)
    names = list(players or NAMES[:n])
    match_id = await client.create(
        game_name, n, options or {}, match_id=match_id, unlisted=unlisted
    )
    for name in names:
        await client.join(match_id, name)
    await client.start(match_id, names[0], seed=seed)
    live: LiveMatch | None = None
    bot = random.Random(bot_seed)

    async def catch_up() -> LiveMatch:
        nonlocal live
        after = live.state.version if live else 0
        new = await store.load(match_id, after_version=after)
        if new:
            live = fold_envelopes(new, live)
            assert live is not None
            if on_events is not None:
                result = on_events(live.state, new)
                if result is not None:
                    await result
        assert live is not None
        return live

    for _ in range(max_moves):
        current = await catch_up()
        if current.state.status != "playing":
            return match_id, current
        acting = sorted(game.to_act(current.state.game_state))
        seat = bot.choice(acting)
        move = bot.choice(list(game.legal(current.state.game_state, seat)))
        await client.play(match_id, names[seat], move)
    raise RuntimeError(f"{game_name} match {match_id} did not end in {max_moves} moves")
