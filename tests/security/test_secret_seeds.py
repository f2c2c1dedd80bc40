"""Hidden means hidden: nothing a player or spectator reads before the finish shows the
seed (from which every deck order and hand could be computed), and the finish reveals it
so anyone can check the deal."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain import match as m
from domain.kernel import games
from events.matches import load_match
from events.store import InMemoryStore
from services.commands.application import CommandProcessor
from tests.test_application import DEAD, Inbox, entry

ENC = msgspec.json.Encoder()
MOVES = 300


async def play_untrusted(name: str, bot_seed: int) -> tuple[InMemoryStore, Inbox, m.MatchState]:
    """A whole random match of `name` through the command processor, the seed drawn by
    the referee (no seed is sent: players cannot choose it)."""
    game = games()[name]
    store, inbox = InMemoryStore(), Inbox()
    processor = CommandProcessor(store, inbox)
    seats = max(game.min_players, min(3, game.max_players))
    names = [f"p{i}" for i in range(seats)]
    codec = m.codec(name)
    await processor.handle_batch(
        [
            entry(m.CreateMatch(game=name, seats=seats), "create"),
            *(entry(m.JoinMatch(player=p), f"join-{p}") for p in names),
            entry(m.StartMatch(player=names[0]), "start"),
        ],
        DEAD,
    )
    bot = random.Random(bot_seed)
    for turn in range(MOVES + seats):
        live = processor.cache.get("m1")
        assert live is not None
        state = live.state
        if state.status != "playing":
            break
        seat = bot.choice(sorted(game.to_act(state.game_state)))
        if turn >= MOVES:
            # A long game is ended by concessions: the finish is what matters here.
            command: Any = m.Concede(player=names[seat])
        else:
            move = bot.choice(list(game.legal(state.game_state, seat)))
            command = m.PlayMove(player=names[seat], move=msgspec.Raw(codec.encode(move)))
        await processor.handle_batch([entry(command, f"move-{turn}")], DEAD)
    live = await load_match(store, "m1")
    assert live is not None and live.state.status == "finished"
    return store, inbox, live.state


def player_facing_before_the_finish(
    store: InMemoryStore, inbox: Inbox, final: m.MatchState
) -> list[bytes]:
    """Every reply but the last, and at every version every reader's view, every event as
    each reader was shown it, and its sentence."""
    out = [body for _, body in inbox.sent[:-1]]
    codec = m.codec(final.game)
    events = [codec.decode(bytes(e.payload)) for e in store.streams["m1"]]
    names = m.seat_names(final.players)
    state: m.MatchState | None = None
    for event in events:
        if isinstance(event, m.MatchFinished):
            break
        state = m.evolve(state, event)
        for reader in [None, *range(final.seats)]:
            out.append(ENC.encode(m.view(state, reader)))
            shown = m.redact(final.game, event, reader)
            if shown is not None:
                out.append(codec.encode(shown))
                out.append(m.describe(final.game, shown, reader, names).encode())
    return out


@pytest.mark.parametrize("name", sorted(n for n in games() if n != "countdown"))
async def test_no_reply_view_event_or_sentence_shows_the_seed_before_the_finish(
    name: str,
) -> None:
    store, inbox, final = await play_untrusted(name, bot_seed=len(name))
    seed = final.seed
    assert seed is not None and seed.bit_length() > 64, "the referee draws 128 bits"
    forms = [str(seed).encode(), f"{seed:x}".encode(), f"{seed:X}".encode()]
    for text in player_facing_before_the_finish(store, inbox, final):
        for form in forms:
            assert form not in text, f"the seed shows in {text[:200]!r}"
    # The finish reveals it, and it matches what the start committed to.
    last: Any = msgspec.json.decode(inbox.sent[-1][1])
    shown = [e for e in last["events"] if e["type"] in ("match.finished", "match.started")]
    finished = next(e for e in shown if e["type"] == "match.finished")
    assert finished["seed"] == seed
    started = msgspec.json.decode(inbox.sent[len(final.players) + 1][1])["events"][0]
    assert started["type"] == "match.started" and "seed" not in started
    assert started["commitment"] == m.commitment_of(seed)


async def test_a_player_cannot_choose_the_deal() -> None:
    store, inbox = InMemoryStore(), Inbox()
    processor = CommandProcessor(store, inbox)
    await processor.handle_batch(
        [
            entry(m.CreateMatch(game="countdown", seats=2), "c1"),
            entry(m.JoinMatch(player="ann"), "c2"),
            entry(m.JoinMatch(player="bea"), "c3"),
            entry(m.StartMatch(player="ann", seed=8), "c4"),
        ],
        DEAD,
    )
    reply = inbox.replies()[-1]
    assert reply.status == "rejected" and reply.code == "seed_not_allowed"
    live = await load_match(store, "m1")
    assert live is not None and live.state.status == "lobby"


def test_a_public_start_or_fork_carries_the_commitment_and_never_the_seed() -> None:
    started = m.MatchStarted(seed=12345, rules_version="1", players=("a", "b"))
    shown = m.redact("countdown", started, 0)
    assert isinstance(shown, m.MatchStarted)
    assert shown.seed is None and shown.commitment == m.commitment_of(12345)
    assert b"12345" not in ENC.encode(shown)
    forked = m.MatchForked(origin="x", at_version=4, seed=777)
    assert b"777" not in ENC.encode(m.redact("countdown", forked, None))
