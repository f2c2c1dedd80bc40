"""Hypothesis against the pure domain: for every registered game, random JSON-ish moves
and random lifecycle sequences go through `decide_and_fold`. Nothing may escape but
`Rejected`; a rejection changes neither the state nor its version; an accepted command
moves the version on by its events and leaves the state it was decided on as it was.

Deterministic (derandomized, no example database) and bounded by
`TABLETOP_FUZZ_EXAMPLES` (examples per game), so the default run stays short.
"""

from __future__ import annotations

import os
import typing
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import match as m
from domain.kernel import Game, Rejected, games

EXAMPLES = int(os.environ.get("TABLETOP_FUZZ_EXAMPLES", 12))
STEPS = 40  # commands per example after the match is set up
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
GAMES = sorted(games())
NAMES = ("ann", "bea", "cid", "dot", "eve", "fay", "gus", "hal")
OPTION_NAMES = sorted(
    {f.encode_name for g in games().values() for f in msgspec.structs.fields(g.options_type)}
)
INT64 = st.integers(-(2**63), 2**63 - 1)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    INT64,
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
# JSON-ish values: what a careless or hostile client could put in a field.
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)


def command_types(game: Game) -> tuple[type[msgspec.Struct], ...]:
    found = typing.get_args(game.command_type)
    return found or (game.command_type,)


def tag(kind: type[msgspec.Struct]) -> str:
    return str(kind.__struct_config__.tag)


def encode_state(state: m.MatchState | None) -> bytes:
    return b"" if state is None else m.codec(state.game).encode_state(state)


def step(state: m.MatchState | None, command: Any) -> m.MatchState | None:
    """Decide one command and check what the domain promises; the state after it."""
    before = encode_state(state)
    version = state.version if state is not None else 0
    try:
        events, after = m.decide_and_fold(state, command)
    except Rejected as rejected:
        assert rejected.code and rejected.message
        assert encode_state(state) == before, f"{command!r} was rejected but changed the state"
        assert (state.version if state is not None else 0) == version
        return state
    assert events, f"{command!r} was accepted but caused no event"
    assert after.version == version + len(events)
    assert encode_state(state) == before, (
        f"deciding {command!r} changed the state it was decided on"
    )
    return after


@st.composite
def moves(draw: st.DrawFn, game: Game, state: m.MatchState) -> m.PlayMove:
    """A move by someone: a legal one, a legal one bent, a game command of random
    fields, or any JSON at all."""
    seats = [p for p in state.players if p is not None]
    acting = sorted(game.to_act(state.game_state)) if state.status == "playing" else []
    seat = draw(st.sampled_from(acting)) if bool(acting) and draw(st.booleans()) else None
    player = state.players[seat] if seat is not None else draw(st.sampled_from([*seats, "zed"]))
    assert player is not None
    kind = draw(st.integers(0, 5))
    legal = list(game.legal(state.game_state, seat)) if seat is not None and kind <= 2 else []
    if legal and kind <= 2:
        body: Any = msgspec.to_builtins(draw(st.sampled_from(legal)))
        if kind == 2:  # one field bent, dropped or added
            key = draw(st.sampled_from([*body, "extra"]))
            if draw(st.booleans()) and key in body:
                del body[key]
            else:
                body[key] = draw(values)
    elif kind <= 3:
        kind_of = draw(st.sampled_from(command_types(game)))
        body = {"type": tag(kind_of)}
        for field in msgspec.structs.fields(kind_of):
            if draw(st.integers(0, 4)):
                body[field.encode_name] = draw(values)
    elif kind == 4:
        body = draw(values)
    else:
        return m.PlayMove(player=player, move=msgspec.Raw(draw(st.binary(max_size=12)) or b"{"))
    return m.PlayMove(player=player, move=msgspec.Raw(msgspec.json.encode(body)))


def lifecycle(state: m.MatchState | None) -> st.SearchStrategy[Any]:
    """Any lifecycle command, of any player, with fields anywhere near their range."""
    players = [p for p in state.players if p is not None] if state is not None else []
    who = st.sampled_from([*players, *NAMES[:3]]) | st.text(min_size=1, max_size=6)
    game = st.sampled_from([*GAMES, "nogame"])
    options = st.dictionaries(
        st.sampled_from(OPTION_NAMES) | st.text(max_size=8), values, max_size=3
    )
    create = st.builds(
        m.CreateMatch, game=game, seats=st.integers(-1, 10), options=st.just({}) | options
    )
    join = st.builds(m.JoinMatch, player=who, seat=st.none() | st.integers(-2, 10))
    others = [
        st.builds(m.LeaveMatch, player=who),
        st.builds(m.StartMatch, player=who, seed=st.none() | st.integers(0, 2**62)),
        st.builds(m.Concede, player=who),
    ]
    if state is None:  # mostly a create, so most sequences get somewhere
        return st.one_of(create, create, create, join, *others)
    return st.one_of(create, join, join, join, *others)


def seated(game: Game, seats: int, seed: int) -> m.MatchState:
    state = step(None, m.CreateMatch(game=game.name, seats=seats))
    for name in NAMES[:seats]:
        state = step(state, m.JoinMatch(player=name))
    state = step(state, m.StartMatch(player=NAMES[0], seed=seed))
    assert state is not None and state.status != "lobby"
    return state


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_random_moves_are_decided_or_rejected_and_a_rejection_changes_nothing(
    name: str, data: st.DataObject
) -> None:
    game = games()[name]
    seats = data.draw(st.integers(game.min_players, min(game.max_players, len(NAMES))))
    state = seated(game, seats, data.draw(st.integers(0, 2**62)))
    for _ in range(STEPS):
        if state.status == "finished":
            break
        if data.draw(st.integers(0, 9)) == 0:
            command = data.draw(lifecycle(state))
        else:
            command = data.draw(moves(game, state))
        after = step(state, command)
        assert after is not None
        state = after


@settings(FUZZ, max_examples=EXAMPLES * 4)
@given(data=st.data())
def test_random_lifecycle_sequences_are_decided_or_rejected_and_change_nothing_when_rejected(
    data: st.DataObject,
) -> None:
    state: m.MatchState | None = None
    for _ in range(STEPS):
        state = step(state, data.draw(lifecycle(state)))
