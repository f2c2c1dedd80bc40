"""4. Rules cost: decide+evolve per command for every registered game; random matches/s."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import msgspec

from bench.common import percentile
from bench.prepare import NAMES


def run_rules(seconds_per_game: float) -> tuple[dict[str, Any], dict[str, str]]:
    """decide+evolve per PlayMove (µs), and random full matches per second, per game."""
    from domain import match as m
    from domain.kernel import games

    enc = msgspec.json.Encoder()
    out: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for name, game in games().items():
        seats = max(game.min_players, min(3, game.max_players))
        names = list(NAMES[:seats])
        timings: list[float] = []
        finished = 0
        events = 0
        t_start = time.perf_counter()
        seed = 0
        try:
            while time.perf_counter() - t_start < seconds_per_game or finished == 0:
                seed += 1
                bot = random.Random(seed)
                state = None
                setup: list[Any] = [m.CreateMatch(game=name, seats=seats, options={})]
                setup += [m.JoinMatch(player=n) for n in names]
                setup.append(m.StartMatch(player=names[0], seed=seed))
                for command in setup:
                    state = m.fold(m.decide(state, command), state)
                assert state is not None
                moves = 0
                while state.status == "playing":
                    moves += 1
                    if moves > 50_000:
                        raise RuntimeError(f"seed {seed}: no end after 50,000 moves")
                    gs = state.game_state
                    seat = bot.choice(sorted(game.to_act(gs)))
                    move = bot.choice(list(game.legal(gs, seat)))
                    command = m.PlayMove(player=names[seat], move=msgspec.Raw(enc.encode(move)))
                    t0 = time.perf_counter()
                    new = m.decide(state, command)
                    state = m.fold(new, state)
                    timings.append(time.perf_counter() - t0)
                    events += len(new)
                finished += 1
        except Exception as err:
            errors[name] = repr(err)[:300]
            if not timings:
                continue
        elapsed = time.perf_counter() - t_start
        us = [t * 1e6 for t in timings]
        out[name] = {
            "seats": seats,
            "median_us": round(statistics.median(us), 1),
            "p99_us": round(percentile(us, 99), 1),
            "matches_per_s": round(finished / elapsed, 2),
            "commands_per_match": round(len(us) / max(1, finished), 1),
            "events_per_command": round(events / max(1, len(us)), 2),
        }
    return out, errors
