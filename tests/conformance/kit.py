"""The conformance kit: what every registered game must satisfy, whatever its rules.

For each seed a match is created through the Match aggregate (a random seat count,
option sets cycled from the game's `conformance_options`) and bots play random legal
moves to the end. Along the way the kit checks that:

- someone can always act until the game is over, and the move bound is not reached;
- sampled commands from `legal` are accepted, mutated commands not in `legal` are
  rejected with a code and a message and leave the state untouched;
- a seat outside `to_act` is told `not_your_turn`;
- `evolve` never mutates its input;
- no view and no redacted event for a seat holds the id of a component hidden from it,
  and a game that keeps no secrets shows every seat the spectator's view;
- events and states round-trip through msgspec JSON;
- folding the recorded events from scratch equals the live state, and re-running the
  recorded commands with the same seed gives byte-identical events;
- undo, sprinkled over the play: a move the match lets its player take back decides
  the same under any seed (it drew no chance), taking it back restores the table
  exactly as it was before it, and a move that may not be taken back is refused
  `cannot_undo`, to its player and to the others, changing nothing.
- a seat that concedes never acts again and ranks below every seat still at the table;
- under a clock (`play_clocked_match`), seats whose time runs out get a bot's move or
  leave (then the game's absent-player rule: a bot, its own concede, or the end), and
  moves are taken back now and then despite their `match.clocks_set`, with the same
  checks, and re-deciding at the recorded times gives the same events.
"""

from __future__ import annotations

import contextlib
import functools
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import msgspec

from domain import match as m
from domain.kernel import Game, Rejected, games, keeps_no_secrets

_enc = msgspec.json.Encoder()
PLAYERS = ("ann", "bea", "cid", "dot", "eve", "fay", "gus", "hal", "ivy", "jon")


class Transcript(msgspec.Struct):
    """A played match: the commands as sent and the events they caused, encoded."""

    game: str
    seats: int
    options: dict[str, Any]
    seed: int
    commands: list[bytes]
    events: list[bytes]


def run_conformance(
    game: Game, seeds: Iterable[int], *, leak_every: int = 1, fuzz_every: int = 3
) -> None:
    for seed in seeds:
        transcript = play_random_match(game, seed, leak_every=leak_every, fuzz_every=fuzz_every)
        assert replay_commands(transcript) == transcript.events, f"seed {seed}: not deterministic"


def _setup_commands(game: Game, seed: int) -> tuple[list[Any], int, dict[str, Any]]:
    bot = random.Random(seed)
    seats = bot.randint(game.min_players, game.max_players)
    variants: Sequence[dict[str, Any]] = game.conformance_options or ({},)
    options = dict(variants[seed % len(variants)])
    commands: list[Any] = [m.CreateMatch(game=game.name, seats=seats, options=options)]
    commands += [m.JoinMatch(player=PLAYERS[i]) for i in range(seats)]
    commands.append(m.StartMatch(player=PLAYERS[0], seed=seed))
    return commands, seats, options


def play_random_match(
    game: Game, seed: int, *, leak_every: int = 1, fuzz_every: int = 3
) -> Transcript:
    codec = m.codec(game.name)
    bot = random.Random(seed * 7919 + 1)
    setup, seats, options = _setup_commands(game, seed)
    state: m.MatchState | None = None
    events: list[Any] = []
    sent: list[bytes] = []

    def apply(command: Any) -> list[tuple[Any, m.MatchState]]:
        """Decide and fold one command: each event with the state right after it."""
        nonlocal state
        new = m.decide(state, command)
        assert new, f"{command!r} was accepted but caused no event"
        out = []
        for event in new:
            previous = state
            before = codec.encode_state(previous) if previous is not None else b""
            state = m.evolve(state, event)
            if previous is not None:
                assert codec.encode_state(previous) == before, "evolve mutated its input"
            _check_round_trip(codec, event)
            out.append((event, state))
        sent.append(_enc.encode(command))
        events.extend(new)
        return out

    for command in setup:
        new = apply(command)
    assert state is not None
    _check_leaks(game, state, new)

    bound = game.max_moves
    # One seed in five, a random player concedes early on: the game must go on without
    # them (never asking them to act again) or end.
    leaver = random.Random(seed * 31 + 7)
    concede_at = leaver.randint(1, 40) if seed % 5 == 4 else -1
    moves = 0
    undos = 0
    while state.status == "playing":
        moves += 1
        assert moves <= bound, f"seed {seed}: no end after {bound} moves"
        if moves == concede_at:
            seated = [s for s in range(seats) if s not in state.conceded]
            new = apply(m.Concede(player=PLAYERS[leaver.choice(seated)]))
            _check_leaks(game, state, new)
            if state.status != "playing":
                break
        acting = sorted(game.to_act(state.game_state))
        assert acting, f"seed {seed}: nobody may act but the game is not over"
        assert not set(acting) & set(state.conceded), f"seed {seed}: a seat that left must act"
        seat = bot.choice(acting)
        player = PLAYERS[seat]
        options_now = list(game.legal(state.game_state, seat))
        assert options_now, f"seed {seed}: {player} must act but has no legal command"

        if moves % fuzz_every == 0:
            _check_rejections(game, state, seat, options_now, bot)
            _check_sample_accepted(state, player, options_now, bot)
            _check_not_your_turn(game, state, acting, options_now)

        chosen = bot.choice(options_now)
        before = codec.encode_state(state)
        previous = state
        played = m.PlayMove(player=player, move=msgspec.Raw(_enc.encode(chosen)))
        new = apply(played)
        assert before != codec.encode_state(state)
        if moves % leak_every == 0:
            _check_leaks(game, state, new)
        if state.status == "playing" and moves % fuzz_every == 1:
            _check_undo_refusals(state)
        if m.may_undo(state) == seat and undos < 60 and bot.random() < 0.3:
            # Sprinkled undo: the move drew no chance, and taking it back restores it all.
            undos += 1
            _check_chance_free(previous, played, [e for e, _ in new])
            undone = apply(m.UndoMove(player=player))
            _check_leaks(game, state, undone)
            again = msgspec.structs.replace(state, version=previous.version)
            assert codec.encode_state(again) == before, f"seed {seed}: undo differs"

    assert state.outcome is not None
    assert len(state.outcome.ranks) == seats and len(state.outcome.scores) == seats
    assert min(state.outcome.ranks) == 1
    # Whatever the game does with an absent seat, it ranks below everyone still there.
    present = [s for s in range(seats) if s not in state.conceded]
    for gone in state.conceded:
        assert all(state.outcome.ranks[gone] > state.outcome.ranks[s] for s in present)

    encoded = [codec.encode(e) for e in events]
    # Fold of the recorded (decoded) events equals the live state.
    refolded = m.fold([codec.decode(b) for b in encoded])
    assert codec.encode_state(refolded) == codec.encode_state(state), f"seed {seed}: fold differs"
    # The state round-trips too (snapshots rely on it).
    assert codec.encode_state(codec.decode_state(codec.encode_state(state))) == (
        codec.encode_state(state)
    )
    return Transcript(
        game=game.name, seats=seats, options=options, seed=seed, commands=sent, events=encoded
    )


_COMMAND_DECODER = msgspec.json.Decoder(m.MatchCommand)


def replay_commands(transcript: Transcript) -> list[bytes]:
    """Re-run the recorded commands from nothing; the encoded events they cause."""
    codec = m.codec(transcript.game)
    # A recording keeps the table rules it was made under (goldens of older builds too).
    named, rules = m.recorded_editions([codec.decode(e) for e in transcript.events])
    state: m.MatchState | None = None
    out: list[bytes] = []
    for raw in transcript.commands:
        for event in m.decide(state, _COMMAND_DECODER.decode(raw), edition=named):
            state = m.as_of_edition(m.evolve(state, event), rules)
            out.append(codec.encode(event))
    return out


def _check_chance_free(before: m.MatchState, played: Any, events: list[Any]) -> None:
    """A move the match lets its player take back decides the same under another seed."""
    assert before.seed is not None
    other = msgspec.structs.replace(before, seed=before.seed + 1)
    assert m.decide(other, played) == events, "a move that may be taken back drew chance"


def _check_undo_refusals(state: m.MatchState) -> None:
    """Whoever may not take back the last move is refused `cannot_undo`, changing nothing."""
    codec = m.codec(state.game)
    before = codec.encode_state(state)
    allowed = m.may_undo(state)
    for seat in range(state.seats):
        if seat == allowed or seat in state.conceded:
            continue
        try:
            m.decide(state, m.UndoMove(player=PLAYERS[seat]))
        except Rejected as err:
            assert err.code == "cannot_undo", err.code
            assert len(err.message) > 10
        else:
            raise AssertionError(f"seat {seat} took back a move that was not theirs to")
    assert codec.encode_state(state) == before


def _check_round_trip(codec: m.EventCodec, event: Any) -> None:
    encoded = codec.encode(event)
    assert codec.decode(encoded) == event, f"{event!r} does not round-trip"


def _check_sample_accepted(
    state: m.MatchState, player: str, legal: list[Any], bot: random.Random
) -> None:
    for command in bot.sample(legal, min(3, len(legal))):
        move = m.PlayMove(player=player, move=msgspec.Raw(_enc.encode(command)))
        try:
            m.decide(state, move)
        except Rejected as err:  # pragma: no cover - the failure message is the point
            raise AssertionError(f"legal {command!r} was rejected: {err}") from None


def _check_not_your_turn(
    game: Game, state: m.MatchState, acting: list[int], legal: list[Any]
) -> None:
    waiting = [s for s in range(state.seats) if s not in acting and s not in state.conceded]
    if not waiting:
        return
    move = m.PlayMove(player=PLAYERS[waiting[0]], move=msgspec.Raw(_enc.encode(legal[0])))
    try:
        m.decide(state, move)
    except Rejected as err:
        assert err.code == "not_your_turn"
    else:
        raise AssertionError("a seat that may not act was allowed to")


def _check_rejections(
    game: Game, state: m.MatchState, seat: int, legal: list[Any], bot: random.Random
) -> None:
    codec = m.codec(game.name)
    before = codec.encode_state(state)
    legal_set = {_enc.encode(c) for c in legal}
    for candidate in list(_mutations(game, legal, bot))[:6]:
        raw = _enc.encode(candidate) if not isinstance(candidate, bytes) else candidate
        if raw in legal_set:
            continue
        move = m.PlayMove(player=PLAYERS[seat], move=msgspec.Raw(raw))
        try:
            m.decide(state, move)
        except Rejected as err:
            assert err.code and err.code.replace("_", "").isalnum(), err.code
            assert len(err.message) > 10, f"{err.code}: message too thin"
        else:
            raise AssertionError(f"{raw!r} is not in legal() but was accepted")
        assert codec.encode_state(state) == before, "a rejected command changed the state"


def _mutations(game: Game, legal: list[Any], bot: random.Random) -> Iterator[Any]:
    """Commands near the legal ones: one field changed, other command kinds, garbage."""
    import typing

    yield b'{"type": "no.such.command"}'
    yield b'{"type": 5}'
    yield b"[1, 2"
    for _ in range(4):
        base = bot.choice(legal)
        fields = msgspec.structs.fields(type(base))
        if not fields:
            continue
        f = bot.choice(fields)
        value = getattr(base, f.name)
        yield msgspec.structs.replace(base, **{f.name: _nudge(value, bot)})
    for kind in typing.get_args(game.command_type) or (game.command_type,):
        with contextlib.suppress(TypeError):
            yield kind()


def _nudge(value: Any, bot: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + bot.choice([-3, -1, 1, 2, 7, 100])
    if isinstance(value, str):
        return bot.choice([value + "x", "", "bogus"])
    if isinstance(value, tuple | list):
        if value and bot.random() < 0.5:
            return type(value)(list(value)[:-1])
        return type(value)([*value, *(value[:1] or [])])
    if value is None:
        return None
    return value


def _strings(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


@functools.cache
def _box(name: str) -> tuple[Mapping[str, str], tuple[str, ...]] | None:
    """A game's component names, and the prefixes of the ids they cover."""
    game = games()[name]
    if game.components is None:
        return None
    names = game.components()
    assert names and all(isinstance(n, str) and n.strip() for n in names.values()), (
        "every component is named"
    )
    return names, tuple({cid[: cid.index("-") + 1] for cid in names if "-" in cid})


def _check_named(game: Game, shown: set[str], secret: frozenset[str]) -> None:
    """Every component a view shows, or hides, has a name for the table to show."""
    box = _box(game.name)
    if box is None:
        return
    names, prefixes = box
    unnamed = sorted(c for c in shown | secret if c.startswith(prefixes) and c not in names)
    assert not unnamed, f"components without a name: {unnamed[:5]}"


def _check_leaks(game: Game, state: m.MatchState, new: list[tuple[Any, m.MatchState]]) -> None:
    """No view, and no redacted event, shows a reader an id hidden from it: the view
    against the final state, each event against the state right after that event."""
    readers: list[int | None] = [*range(state.seats), None]
    for reader in readers:
        secret = game.hidden(state.game_state, reader)
        # No early exit when nothing is hidden: every view and every redacted event must
        # still build, encode and read as a sentence.
        shown = set(_strings(msgspec.to_builtins(game.view(state.game_state, reader))))
        leaked = shown & secret
        assert not leaked, f"view for {reader} shows hidden {sorted(leaked)[:5]}"
        _check_named(game, shown, secret)
        if keeps_no_secrets(game):
            # Its view is rendered once for every reader (m.views): it must not depend
            # on the seat.
            alike = game.view(state.game_state, None)
            assert game.view(state.game_state, reader) == alike, f"view for {reader} differs"
        for event, after in new:
            if isinstance(event, m.MATCH_EVENT_TYPES):
                continue
            red = game.redact(event, reader)
            if red is None:
                continue
            secret_then = game.hidden(after.game_state, reader)
            leaked = set(_strings(msgspec.to_builtins(red))) & secret_then
            assert not leaked, f"{type(event).__name__} for {reader} leaks {sorted(leaked)[:5]}"
            told = game.describe(red, reader, PLAYERS[: state.seats])
            # Histories store the redacted event and describe it when read.
            codec = m.codec(game.name)
            again = codec.decode(codec.encode(red))
            assert again == red, f"{type(red).__name__} for {reader} does not round-trip"
            assert game.describe(again, reader, PLAYERS[: state.seats]) == told


# --- clocks and absent players ------------------------------------------------------------

T0 = 1_700_000_000_000


class TimedTranscript(msgspec.Struct):
    """A clocked match: each command with the time it was decided at (unix ms)."""

    game: str
    commands: list[tuple[int, bytes]]
    events: list[bytes]


def play_clocked_match(game: Game, seed: int, *, leak_every: int = 3) -> TimedTranscript:
    """Random play under a time bank where, every few steps, a running seat's time runs
    out instead of a move: a bot moves for it (even seeds), or it loses and its game's
    absent-player rule takes over (odd seeds). Checks that absent seats never act, every
    absent seat ranks below every seat still at the table, the fold equals the live
    state, and nothing hidden leaks; the caller re-decides the commands with their times."""
    from domain.clock import ClocksSet, TimeControl

    codec = m.codec(game.name)
    bot = random.Random(seed * 104729 + 3)
    setup, seats, _ = _setup_commands(game, seed)
    expiry: Any = "bot" if seed % 2 == 0 else "lose"
    control = TimeControl(kind="bank", seconds=60, increment=3, expiry=expiry)
    setup[0] = msgspec.structs.replace(setup[0], clock=control)
    state: m.MatchState | None = None
    events: list[Any] = []
    sent: list[tuple[int, bytes]] = []
    now = T0

    def apply(command: Any) -> list[tuple[Any, m.MatchState]]:
        nonlocal state
        new = m.decide(state, command, now=now)
        out = []
        for event in new:
            state = m.evolve(state, event)
            _check_round_trip(codec, event)
            out.append((event, state))
        sent.append((now, _enc.encode(command)))
        events.extend(new)
        return out

    for command in setup:
        apply(command)
    assert state is not None and state.clock is not None
    steps = undos = 0
    while state.status == "playing":
        steps += 1
        assert steps <= game.max_moves * 2, f"seed {seed}: no end after {steps} steps"
        clock = state.clock
        assert clock is not None
        assert not set(clock.running) & set(state.conceded), "an absent seat's clock runs"
        acting = sorted(set(game.to_act(state.game_state)) - set(state.conceded))
        assert acting, f"seed {seed}: only absent seats may act, and no bot moved"
        if steps % 4 == 0 and clock.running:
            seat = bot.choice(clock.running)
            deadline = clock.deadline(seat)
            now = max(now, deadline)
            new = apply(m.TimeExpired(seat=seat, deadline=deadline))
        else:
            now += bot.randrange(0, 4000)
            seat = bot.choice(acting)
            chosen = bot.choice(list(game.legal(state.game_state, seat)))
            move = msgspec.Raw(_enc.encode(chosen))
            table = state.game_state
            new = apply(m.PlayMove(player=PLAYERS[seat], move=move))
            if m.may_undo(state) == seat and undos < 20 and bot.random() < 0.3:
                # Under a clock too: the move's clocks_set does not stop its undo, which
                # restores the table, and the clock runs on.
                undos += 1
                now += bot.randrange(0, 2000)
                new = apply(m.UndoMove(player=PLAYERS[seat]))
                assert state.game_state == table, f"seed {seed}: clocked undo differs"
                assert isinstance(new[-1][0], ClocksSet), f"seed {seed}: undo sets no clocks"
        if steps % leak_every == 0:
            _check_leaks(game, state, new)
    assert state.outcome is not None
    ranks = state.outcome.ranks
    present = [s for s in range(seats) if s not in state.conceded]
    for gone in state.conceded:
        assert all(ranks[gone] > ranks[s] for s in present), (
            f"seed {seed}: absent seat {gone} ranked {ranks[gone]} among {ranks}"
        )
    encoded = [codec.encode(e) for e in events]
    refolded = m.fold([codec.decode(b) for b in encoded])
    assert codec.encode_state(refolded) == codec.encode_state(state), f"seed {seed}: fold differs"
    return TimedTranscript(game=game.name, commands=sent, events=encoded)


def replay_timed(transcript: TimedTranscript) -> list[bytes]:
    """Re-decide the recorded commands at their recorded times; the encoded events."""
    codec = m.codec(transcript.game)
    state: m.MatchState | None = None
    out: list[bytes] = []
    for at, raw in transcript.commands:
        for event in m.decide(state, _COMMAND_DECODER.decode(raw), now=at):
            state = m.evolve(state, event)
            out.append(codec.encode(event))
    return out


def run_clocked_conformance(game: Game, seeds: Iterable[int]) -> None:
    for seed in seeds:
        transcript = play_clocked_match(game, seed)
        assert replay_timed(transcript) == transcript.events, f"seed {seed}: not deterministic"
