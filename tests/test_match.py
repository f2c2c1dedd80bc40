"""The Match aggregate's lifecycle, told with the Countdown test game."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import msgspec
import pytest

from domain import kernel
from domain import match as m
from domain.kernel import Rejected, Rng, ranks_from_keys, ranks_from_scores


def run(commands: list[Any]) -> m.MatchState:
    state: m.MatchState | None = None
    for command in commands:
        state = m.fold(m.decide(state, command), state)
    assert state is not None
    return state


def lobby(seats: int = 2) -> m.MatchState:
    return run([m.CreateMatch(game="countdown", seats=seats)])


def rejected(state: m.MatchState | None, command: Any) -> str:
    with pytest.raises(Rejected) as err:
        m.decide(state, command)
    assert err.value.message
    return err.value.code


def started() -> m.MatchState:
    return run(
        [
            m.CreateMatch(game="countdown", seats=2),
            m.JoinMatch(player="ann"),
            m.JoinMatch(player="bea"),
            m.StartMatch(player="ann", seed=4),
        ]
    )


def test_a_table_is_opened_only_for_a_known_game_and_a_fitting_seat_count() -> None:
    assert rejected(None, m.CreateMatch(game="nope", seats=2)) == "unknown_game"
    assert rejected(None, m.CreateMatch(game="countdown", seats=9)) == "bad_seat_count"
    assert rejected(None, m.CreateMatch(game="countdown", seats=2, options={"start": "x"})) == (
        "bad_options"
    )
    assert rejected(None, m.CreateMatch(game="countdown", seats=2, options={"strat": 3})) == (
        "bad_options"
    )
    assert rejected(lobby(), m.CreateMatch(game="countdown", seats=2)) == "match_exists"


def test_an_unlisted_table_is_opened_unlisted_and_anyone_with_its_id_sits_down() -> None:
    created = m.decide(None, m.CreateMatch(game="countdown", seats=2, unlisted=True))
    assert isinstance(created[0], m.MatchCreated) and created[0].unlisted
    state = run(
        [m.CreateMatch(game="countdown", seats=2, unlisted=True), m.JoinMatch(player="ann")]
    )
    assert state.unlisted and state.players == ["ann", None]
    assert m.view(state, 0)["unlisted"] is True
    assert m.describe("countdown", created[0], None, []) == (
        "An unlisted 2-seat table of Countdown was opened."
    )
    # A table not said to be unlisted is listed, and its records say nothing of it: byte
    # for byte what they were before tables could be unlisted.
    listed = m.CreateMatch(game="countdown", seats=2)
    assert b"unlisted" not in msgspec.json.encode(listed)
    assert b"unlisted" not in msgspec.json.encode(m.decide(None, listed)[0])
    assert "unlisted" not in m.view(lobby(), None)


def test_players_take_free_seats_and_may_leave_before_the_start() -> None:
    state = run([m.CreateMatch(game="countdown", seats=2), m.JoinMatch(player="ann", seat=1)])
    assert state.players == [None, "ann"]
    assert rejected(state, m.JoinMatch(player="ann")) == "already_seated"
    assert rejected(state, m.JoinMatch(player="bea", seat=1)) == "seat_taken"
    assert rejected(state, m.StartMatch(player="ann", seed=1)) == "table_not_full"
    state = run([m.CreateMatch(game="countdown", seats=2), m.JoinMatch(player="ann")])
    state = m.fold(m.decide(state, m.JoinMatch(player="bea")), state)
    state = m.fold(m.decide(state, m.LeaveMatch(player="ann")), state)
    assert state.players == [None, "bea"] and state.status == "lobby"


def test_a_table_closes_when_its_last_player_leaves_before_the_start() -> None:
    state = run([m.CreateMatch(game="countdown", seats=3), m.JoinMatch(player="ann")])
    events = m.decide(state, m.LeaveMatch(player="ann"))
    assert events == [m.PlayerLeft(player="ann", seat=0), m.TableClosed(reason="empty")]
    state = m.fold(events, state)
    assert state.status == "closed" and m.view(state, None)["status"] == "closed"
    assert m.describe("countdown", events[1], None, []) == (
        "The table was closed: everyone had left."
    )
    # Nothing more happens at a closed table.
    assert rejected(state, m.JoinMatch(player="bea")) == "table_closed"
    assert rejected(state, m.StartMatch(player="ann", seed=1)) == "table_closed"
    assert rejected(state, m.OfferRematch(player="ann")) == "table_closed"
    assert rejected(state, m.CloseTable(version=state.version)) == "table_closed"


def test_a_table_of_the_rules_before_closing_stays_open_when_emptied() -> None:
    # A table created under edition 2 is decided by edition 2's rules, in play and in an
    # audit alike: its last leaver leaves it empty and waiting, as it did then.
    opened = m.decide(None, m.CreateMatch(game="countdown", seats=2), edition=2)
    state = m.fold([*opened, m.PlayerJoined(player="ann", seat=0)])
    assert m.decide(state, m.LeaveMatch(player="ann")) == [m.PlayerLeft(player="ann", seat=0)]


def test_a_table_waiting_too_long_is_closed_unless_it_moved_on_since() -> None:
    state = run([m.CreateMatch(game="countdown", seats=2), m.JoinMatch(player="ann")])
    idle_at = state.version
    # Bea sat down after the table was found idle: the close crossed her, and is refused.
    moved = m.fold(m.decide(state, m.JoinMatch(player="bea")), state)
    assert rejected(moved, m.CloseTable(version=idle_at)) == "table_not_idle"
    events = m.decide(state, m.CloseTable(version=idle_at))
    assert events == [m.TableClosed(reason="idle")]
    assert m.describe("countdown", events[0], 0, ["Ann"]) == (
        "The table was closed: it waited too long for players."
    )
    # A match under way is never closed.
    assert rejected(started(), m.CloseTable(version=started().version)) == "match_started"


def test_a_player_who_wants_out_of_a_match_in_play_is_told_to_concede() -> None:
    state = started()
    with pytest.raises(Rejected) as err:
        m.decide(state, m.LeaveMatch(player=state.players[0] or ""))
    assert err.value.code == "match_started"
    assert err.value.message == "This match has already started: concede to leave it."


def test_a_seat_beyond_the_table_is_refused_in_the_persons_numbering() -> None:
    # Issue 13: `join(seat=5)` on a 2-seat table said "Seat 5 is not free". The command's
    # seat is 0-based (JSON); the sentence counts from 1, as people do.
    state = lobby(seats=2)
    with pytest.raises(Rejected) as err:
        m.decide(state, m.JoinMatch(player="ann", seat=5))
    assert err.value.code == "no_such_seat"
    assert err.value.message == "There is no seat 6 at this 2-seat table."
    with pytest.raises(Rejected) as err:
        m.decide(state, m.JoinMatch(player="ann", seat=-1))
    assert err.value.code == "no_such_seat"
    taken = m.fold(m.decide(state, m.JoinMatch(player="ann", seat=1)), state)
    with pytest.raises(Rejected) as err:
        m.decide(taken, m.JoinMatch(player="bea", seat=1))
    assert err.value.message == "Seat 2 is not free."


def test_the_match_starts_with_the_seed_and_rules_version_recorded() -> None:
    state = started()
    assert state.status == "playing" and state.seed == 4 and state.rules_version == "1"
    assert rejected(state, m.JoinMatch(player="cid")) == "match_started"
    assert rejected(lobby(), m.PlayMove(player="ann", move=msgspec.Raw(b"{}"))) == (
        "match_not_started"
    )


def test_only_a_seated_player_whose_turn_it_is_may_move() -> None:
    state = started()
    turn = state.game_state.turn
    other = state.players[1 - turn]
    move = msgspec.Raw(b'{"type":"countdown.take","count":1}')
    assert rejected(state, m.PlayMove(player="zed", move=move)) == "not_seated"
    assert rejected(state, m.PlayMove(player=other, move=move)) == "not_your_turn"
    garbage = msgspec.Raw(b'{"type":"countdown.jump"}')
    assert rejected(state, m.PlayMove(player=other, move=garbage)) == "unknown_command"


def test_conceding_a_game_that_cannot_go_on_ends_it_with_the_leaver_last() -> None:
    state = started()
    state = m.fold(m.decide(state, m.Concede(player="bea")), state)
    assert state.status == "finished"
    assert state.outcome is not None and state.outcome.ranks == (1, 2)
    assert rejected(state, m.Concede(player="ann")) == "match_finished"


def test_the_same_seed_and_version_give_the_same_dice() -> None:
    a, b = Rng(7, 3), Rng(7, 3)
    assert [a.roll(6) for _ in range(20)] == [b.roll(6) for _ in range(20)]
    assert [Rng(7, 4).roll(6) for _ in range(20)] != [Rng(7, 3).roll(6) for _ in range(20)]


def test_ties_share_the_better_rank() -> None:
    assert ranks_from_scores([5, 9, 5, 1]) == (2, 1, 2, 4)
    assert ranks_from_scores([5, 9, 5], higher_wins=False) == (1, 3, 1)
    assert ranks_from_keys([(3, 1), (3, 2), (1, 9)]) == (2, 1, 3)


def test_a_snapshot_of_a_match_decodes_to_the_same_state() -> None:
    state = started()
    codec = m.codec("countdown")
    assert codec.encode_state(m.decode_snapshot(codec.encode_state(state))) == (
        codec.encode_state(state)
    )


@pytest.mark.parametrize("name", ["chicken", "loveletter", "threethirteen", "arcticscavengers"])
def test_the_match_folds_each_game_event_once_and_looks_its_game_up_once_a_command(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 10: every event was evolved twice on the hot path (the game's recorder, then
    # the match again), and the match looked its game up by name once per event.
    game = kernel.get_game(name)
    folds = 0

    def counted(state: Any, event: Any) -> Any:
        nonlocal folds
        folds += 1
        return game.evolve(state, event)

    monkeypatch.setitem(kernel._REGISTRY, name, dataclasses.replace(game, evolve=counted))
    record = kernel.Recorder.record

    def recorded(self: kernel.Recorder[Any, Any], *events: Any) -> None:
        nonlocal folds
        folds += len(events)  # a recorder folds what it records, with the game's evolve
        record(self, *events)

    monkeypatch.setattr(kernel.Recorder, "record", recorded)
    lookups = 0
    real_get_game = kernel.get_game

    def get_game(wanted: str) -> kernel.Game:
        nonlocal lookups
        lookups += 1
        return real_get_game(wanted)

    monkeypatch.setattr(m, "get_game", get_game)
    players = [f"p{i}" for i in range(3)]
    commands: list[Any] = [m.CreateMatch(game=name, seats=3)]
    commands += [m.JoinMatch(player=p) for p in players]
    commands.append(m.StartMatch(player="p0", seed=11))
    state: m.MatchState | None = None
    game_events = 0
    stream: list[Any] = []
    choose = random.Random(5)
    for turn in range(400):
        if turn >= len(commands):
            assert state is not None
            if state.status == "finished":
                break
            spec = kernel.get_game(name)
            seat = min(spec.to_act(state.game_state))
            move = choose.choice(list(spec.legal(state.game_state, seat)))
            raw = msgspec.Raw(msgspec.json.encode(move))
            commands.append(m.PlayMove(player=players[seat], move=raw))
        before_folds, before_lookups = folds, lookups
        decided = m.decide_and_fold(state, commands[turn])
        ours = [e for e in decided.events if not isinstance(e, m.MATCH_EVENT_TYPES)]
        game_events += len(ours)
        stream += decided.events
        assert folds - before_folds == len(ours), f"command {turn}: {commands[turn]}"
        # One lookup for the command (and, for the first move, one more to build the
        # cached move decoder), however many events it causes.
        assert lookups - before_lookups <= 2, f"command {turn}: {lookups - before_lookups}"
        state = decided.after
    assert state is not None and game_events > 20
    # Loading the match folds its whole stream: the game looked up once, each event once.
    lookups = folds = 0
    assert m.fold(stream) == state
    assert lookups == 1 and folds == game_events


def test_every_readers_view_at_once_is_the_one_each_reads_alone() -> None:
    for state in (lobby(3), started()):
        together = m.views(state)
        assert [seat for seat, _ in together] == [None, *range(state.seats)]
        for seat, shown in together:
            assert msgspec.json.encode(shown) == msgspec.json.encode(m.view(state, seat))
    # Rendered for each reader: the first seat's secret die stays in its view alone.
    spectator, first, second = (msgspec.json.encode(v) for _, v in m.views(started()))
    assert first != spectator == second
