"""Turn clocks and absent players in the Match aggregate: the time of each decision is an
input, the clocks are events, an expiry is a command judged against them."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain import match as m
from domain.clock import ClocksSet, TimeControl, TimeRanOut
from domain.games.threethirteen.commands import TakeDiscard
from domain.kernel import Rejected, get_game
from events.envelope import GENESIS, seal
from services.readside.audit import audit_envelopes

T0 = 1_700_000_000_000
ENC = msgspec.json.Encoder()


class Table:
    """A match driven command by command, each at a time of the test's choosing, with
    every decision kept as the command service would record it."""

    def __init__(
        self,
        game: str,
        seats: int,
        clock: TimeControl | None,
        edition: int = m.EDITION,
        **options: Any,
    ) -> None:
        self.state: m.MatchState | None = None
        self.record: list[tuple[Any, int, list[Any]]] = []
        self.now = T0
        self.edition = edition
        self.send(m.CreateMatch(game=game, seats=seats, options=options, clock=clock))
        for i in range(seats):
            self.send(m.JoinMatch(player=f"p{i}"))
        self.send(m.StartMatch(player="p0", seed=7))

    def send(self, command: Any, at: int | None = None) -> list[Any]:
        if at is not None:
            self.now = at
        decided = m.decide_and_fold(self.state, command, now=self.now, edition=self.edition)
        self.state = decided.after
        self.record.append((command, self.now, decided.events))
        return decided.events

    @property
    def s(self) -> m.MatchState:
        assert self.state is not None
        return self.state

    def move(self, at: int) -> list[Any]:
        """The seat to act plays its first legal move at `at`."""
        game = get_game(self.s.game)
        seat = min(game.to_act(self.s.game_state))
        first = next(iter(game.legal(self.s.game_state, seat)))
        raw = msgspec.Raw(ENC.encode(first))
        return self.send(m.PlayMove(player=f"p{seat}", move=raw), at)

    def envelopes(self) -> list[Any]:
        out: list[Any] = []
        prev, version = GENESIS, 0
        codec = m.codec(self.s.game)
        for i, (command, at, events) in enumerate(self.record):
            sealed = seal(
                match_id="m1",
                first_version=version + 1,
                prev=prev,
                items=[(m.event_tag(e), codec.encode(e)) for e in events],
                command_id=f"c{i}",
                recorded_at=at,
                command=ENC.encode(command),
            )
            out += sealed
            prev, version = sealed[-1].hash, version + len(sealed)
        return out


MOVE_60 = TimeControl(kind="move", seconds=60)


def clocks_of(events: list[Any]) -> ClocksSet:
    return next(e for e in events if isinstance(e, ClocksSet))


def test_a_match_without_a_clock_records_no_clock_and_needs_no_time() -> None:
    plain = m.decide(None, m.CreateMatch(game="countdown", seats=2))
    assert b"clock" not in ENC.encode(plain[0])
    t = Table("countdown", 2, None)
    assert not any(isinstance(e, ClocksSet) for _, _, evs in t.record for e in evs)
    assert "clock" not in m.view(t.s, None)


def test_the_start_sets_every_clock_and_runs_the_first_players() -> None:
    t = Table("countdown", 2, TimeControl(kind="bank", seconds=300, increment=10))
    started = t.record[-1][2]
    clocks = clocks_of(started)
    assert clocks.at == T0 and clocks.remaining == (300_000, 300_000)
    assert clocks.running == tuple(get_game("countdown").to_act(t.s.game_state))
    assert t.s.clock is not None and t.s.clock.deadline(clocks.running[0]) == T0 + 300_000


def test_a_bank_pays_the_time_spent_and_earns_the_increment_when_the_turn_ends() -> None:
    t = Table("countdown", 2, TimeControl(kind="bank", seconds=300, increment=10))
    first = t.s.clock.running[0] if t.s.clock else 0
    # The first player thinks for 42 s, then moves.
    clocks = clocks_of(t.move(T0 + 42_000))
    assert clocks.remaining[first] == 300_000 - 42_000 + 10_000
    assert clocks.running == (1 - first,)
    assert clocks.remaining[1 - first] == 300_000


def test_a_limit_per_move_is_set_back_for_each_move() -> None:
    t = Table("countdown", 2, MOVE_60)
    first = t.s.clock.running[0] if t.s.clock else 0
    t.move(T0 + 59_000)
    clocks = clocks_of(t.move(T0 + 59_000 + 30_000))
    # Each seat had its 60 s again when its turn came.
    assert clocks.remaining == (60_000, 60_000)
    assert clocks.running == (first,)


def test_an_early_expiry_is_refused_and_a_stale_one_too() -> None:
    t = Table("countdown", 2, MOVE_60)
    seat = t.s.clock.running[0] if t.s.clock else 0
    deadline = T0 + 60_000
    with pytest.raises(Rejected) as early:
        t.send(m.TimeExpired(seat=seat, deadline=deadline), deadline - 1)
    assert early.value.code == "time_not_expired"
    with pytest.raises(Rejected) as wrong:
        t.send(m.TimeExpired(seat=seat, deadline=deadline + 5), deadline + 10)
    assert wrong.value.code == "clock_moved_on"
    # The seat moves in time: the old deadline is stale from then on.
    t.move(deadline - 1)
    with pytest.raises(Rejected) as stale:
        t.send(m.TimeExpired(seat=seat, deadline=deadline), deadline + 1)
    assert stale.value.code == "clock_moved_on"


def test_losing_on_time_ends_a_two_player_match_with_the_late_seat_last() -> None:
    t = Table("countdown", 2, MOVE_60)
    seat = t.s.clock.running[0] if t.s.clock else 0
    events = t.send(m.TimeExpired(seat=seat, deadline=T0 + 60_000), T0 + 60_000)
    assert events[0] == TimeRanOut(player=f"p{seat}", seat=seat, then="lose")
    assert t.s.status == "finished" and t.s.outcome is not None
    assert t.s.outcome.ranks[seat] == 2 and t.s.outcome.ranks[1 - seat] == 1
    # The same expiry again: the match is over, nothing more happens.
    with pytest.raises(Rejected):
        t.send(m.TimeExpired(seat=seat, deadline=T0 + 60_000), T0 + 61_000)


def test_a_bot_plays_one_move_for_a_seat_out_of_time() -> None:
    t = Table("chicken", 3, TimeControl(kind="move", seconds=30, expiry="bot"))
    seat = t.s.clock.running[0] if t.s.clock else 0
    events = t.send(m.TimeExpired(seat=seat, deadline=T0 + 30_000), T0 + 31_000)
    assert isinstance(events[0], TimeRanOut) and events[1] == m.BotPlayed(seat=seat)
    assert t.s.status == "playing" and seat not in t.s.conceded


def test_a_skipped_turn_passes_the_dice_on() -> None:
    t = Table("chicken", 3, TimeControl(kind="move", seconds=30, expiry="skip"))
    seat = t.s.clock.running[0] if t.s.clock else 0
    t.send(m.TimeExpired(seat=seat, deadline=T0 + 30_000), T0 + 30_000)
    assert t.s.clock is not None and t.s.clock.running == [(seat + 1) % 3]


def test_a_game_that_cannot_skip_refuses_a_clock_that_skips() -> None:
    with pytest.raises(Rejected) as refused:
        m.decide(
            None,
            m.CreateMatch(
                game="loveletter", seats=2, clock=TimeControl(kind="move", seconds=5, expiry="skip")
            ),
        )
    assert refused.value.code == "clock_cannot_skip"


@pytest.mark.parametrize(
    ("control", "code"),
    [
        (TimeControl(kind="move", seconds=0), "bad_clock"),
        (TimeControl(kind="bank", seconds=91 * 86400), "bad_clock"),
        (TimeControl(kind="move", seconds=60, increment=5), "bad_clock"),
        (TimeControl(kind="bank", seconds=60, increment=-1), "bad_clock"),
    ],
)
def test_a_clock_out_of_range_is_refused_with_a_reason(control: TimeControl, code: str) -> None:
    with pytest.raises(Rejected) as refused:
        m.decide(None, m.CreateMatch(game="countdown", seats=2, clock=control))
    assert refused.value.code == code and refused.value.message


def test_a_clocked_match_refuses_to_rule_without_the_time() -> None:
    t = Table("countdown", 2, MOVE_60)
    with pytest.raises(Rejected) as refused:
        m.decide(t.s, m.Concede(player="p0"))
    assert refused.value.code == "no_time"


def test_a_clocked_match_audits_byte_for_byte_with_its_recorded_times() -> None:
    t = Table("chicken", 3, TimeControl(kind="bank", seconds=100, increment=5, expiry="bot"))
    at = T0
    for _ in range(6):
        at += 7_000
        t.move(at)
    seat = t.s.clock.running[0] if t.s.clock else 0
    deadline = t.s.clock.deadline(seat) if t.s.clock else 0
    t.send(m.TimeExpired(seat=seat, deadline=deadline), deadline + 3)
    envelopes = t.envelopes()
    assert audit_envelopes("m1", envelopes).status == "ok"
    # Another time for one decision is another decision: the audit sees it.
    tampered = list(envelopes)
    codec = m.codec("chicken")
    replayed = m.fold([codec.decode(bytes(e.payload)) for e in envelopes])
    assert codec.encode_state(replayed) == codec.encode_state(t.s)
    last = tampered[-1]
    tampered[-1] = msgspec.structs.replace(last, recorded_at=last.recorded_at + 1)
    assert audit_envelopes("m1", tampered).status in ("tampered", "mismatch")


# --- absent players ---------------------------------------------------------------------


def test_a_conceding_seat_is_played_by_a_bot_and_ranked_last() -> None:
    # Epizodiak has no concede of its own: an absent seat is a bot's.
    game = get_game("epizodiak")
    assert game.absent == "bot"
    t = Table("epizodiak", 3, None)
    t.send(m.Concede(player="p1"))
    moves = 0
    while t.s.status == "playing":
        acting = game.to_act(t.s.game_state)
        assert 1 not in acting, "the bot moves for the absent seat within each decision"
        t.move(T0)
        moves += 1
        assert moves < game.max_moves
    assert t.s.outcome is not None and t.s.outcome.ranks[1] == 3
    bots = [e for _, _, evs in t.record for e in evs if isinstance(e, m.BotPlayed)]
    assert bots and all(b.seat == 1 for b in bots)


def test_a_match_of_edition_0_keeps_its_rules_and_audits_clean_under_this_build() -> None:
    # Created before undo: no move is taken back, and Chicken!'s own concede skips the
    # farmer who leaves (no bot plays for them).
    t = Table("threethirteen", 3, None, edition=0)
    player = f"p{min(get_game('threethirteen').to_act(t.s.game_state))}"
    took = t.send(m.PlayMove(player=player, move=msgspec.Raw(ENC.encode(TakeDiscard()))))
    assert not any(isinstance(e, m.UndoPoint) for e in took)
    with pytest.raises(Rejected) as err:
        m.decide(t.s, m.UndoMove(player=player), now=t.now)
    assert err.value.code == "cannot_undo"
    c = Table("chicken", 3, None, edition=0)
    left = c.send(m.Concede(player="p1"))
    assert not any(isinstance(e, m.BotPlayed) for e in left)
    for table in (t, c):
        assert b'"edition"' not in ENC.encode(table.record[0][2][0])
        assert audit_envelopes("m1", table.envelopes()).status == "ok"


def test_a_match_of_the_undo_build_audits_clean_by_its_recorded_undo_points() -> None:
    # That build wrote no edition in match.created, yet took moves back.
    t = Table("threethirteen", 3, None, edition=1)
    player = f"p{min(get_game('threethirteen').to_act(t.s.game_state))}"
    took = t.send(m.PlayMove(player=player, move=msgspec.Raw(ENC.encode(TakeDiscard()))))
    assert isinstance(took[0], m.UndoPoint)
    t.send(m.UndoMove(player=player))
    t.move(T0)
    command, at, [created] = t.record[0]
    t.record[0] = (command, at, [msgspec.structs.replace(created, edition=0)])
    assert audit_envelopes("m1", t.envelopes()).status == "ok"


def test_absent_last_keeps_the_order_within_each_group() -> None:
    assert m.absent_last((1, 2, 3, 4), [0]) == (4, 1, 2, 3)
    assert m.absent_last((1, 1, 3), [2]) == (1, 1, 3)
    assert m.absent_last((2, 1, 2), []) == (2, 1, 2)


def test_docs_tables_lists_each_games_absent_rule() -> None:
    from pathlib import Path

    from domain.kernel import games

    text = (Path(__file__).parents[1] / "docs" / "tables.md").read_text()
    rows = {
        rule: line.split("|")[2]
        for rule in ("bot", "end")
        for line in text.splitlines()
        if line.startswith(f"| `{rule}` |")
    }
    for game in games().values():
        if game.name == "countdown":
            continue  # the tests' own game
        listed = [rule for rule, titles in rows.items() if game.title in titles]
        assert listed == [game.absent], game.name


def test_a_forked_clocked_match_resumes_its_clocks_from_the_fork() -> None:
    t = Table("countdown", 2, MOVE_60)
    later = T0 + 86_400_000
    forked = m.MatchForked(origin="m0", at_version=t.s.version, seed=9, at=later)
    after = m.evolve(t.s, forked)
    assert after.clock is not None and t.s.clock is not None
    assert after.clock.since == later and after.clock.remaining == t.s.clock.remaining
    # An unclocked fork records no time.
    assert b'"at"' not in ENC.encode(m.MatchForked(origin="m0", at_version=3, seed=9))


def test_a_create_without_a_clock_records_the_same_bytes_as_before_clocks() -> None:
    plain = ENC.encode(m.CreateMatch(game="chicken", seats=2))
    assert plain == b'{"type":"match.create","game":"chicken","seats":2,"options":{}}'
    clocked = m.CreateMatch(game="chicken", seats=2, clock=MOVE_60)
    again = msgspec.json.decode(ENC.encode(clocked), type=m.CreateMatch)
    assert again.clock == MOVE_60


def test_a_move_under_a_clock_may_still_be_taken_back_and_the_time_runs_on() -> None:
    bank = TimeControl(kind="bank", seconds=600, increment=5)
    table = Table("threethirteen", 2, bank)
    seat = min(get_game("threethirteen").to_act(table.s.game_state))
    before = table.s
    took = table.send(
        m.PlayMove(player=f"p{seat}", move=msgspec.Raw(ENC.encode(TakeDiscard()))), T0 + 4_000
    )
    # The move may be taken back, and the clocks set after it do not stand in the way.
    assert isinstance(took[0], m.UndoPoint) and isinstance(took[-1], ClocksSet)
    assert m.may_undo(table.s) == seat
    undone = table.send(m.UndoMove(player=f"p{seat}"), T0 + 10_000)
    assert isinstance(undone[0], m.MoveUndone)
    assert table.s.game_state == before.game_state
    # The undo gives no time back: the seat has paid the 10 s since the start.
    after = clocks_of(undone)
    assert after.running == (seat,)
    assert after.remaining[seat] == 600_000 - 10_000
    assert m.may_undo(table.s) is None
    # And the whole match replays and audits byte for byte.
    assert audit_envelopes("m1", table.envelopes()).status == "ok"
