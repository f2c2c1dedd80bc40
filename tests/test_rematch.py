"""Rematches (issue 19), told with the Countdown test game: a finished match offers one,
every player accepts or any declines, and the agreed rematch is named and seated."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain import match as m
from domain.clock import TimeControl
from domain.kernel import Rejected
from services.rematch.service import opening

NEW = m.rematch_id("m1")


def run(commands: list[Any], state: m.MatchState | None = None) -> m.MatchState:
    for command in commands:
        state = m.decide_and_fold(state, command).after
    assert state is not None
    return state


def finished(seats: int = 2, **options: Any) -> m.MatchState:
    """Countdown from 3 with `seats` players: whoever goes first takes all three and wins."""
    players = ["ann", "bea", "cid"][:seats]
    state = run(
        [
            m.CreateMatch(game="countdown", seats=seats, options={"start": 3, **options}),
            *[m.JoinMatch(player=p) for p in players],
            m.StartMatch(player="ann", seed=4),
        ]
    )
    first = players[state.game_state.turn]
    take = msgspec.Raw(b'{"type":"countdown.take","count":3}')
    state = run([m.PlayMove(player=first, move=take)], state)
    assert state.status == "finished"
    return state


def refused(state: m.MatchState, command: Any) -> Rejected:
    with pytest.raises(Rejected) as err:
        m.decide(state, command)
    assert err.value.message
    return err.value


def test_a_rematch_is_offered_only_once_the_match_is_over() -> None:
    playing = run(
        [
            m.CreateMatch(game="countdown", seats=2),
            m.JoinMatch(player="ann"),
            m.JoinMatch(player="bea"),
            m.StartMatch(player="ann", seed=4),
        ]
    )
    err = refused(playing, m.OfferRematch(player="ann", new_match=NEW))
    assert err.code == "match_not_finished"


def test_everyone_accepting_agrees_the_rematch_with_the_seats_rotated() -> None:
    state = finished(seats=3)
    # Ann offers: that counts as her acceptance.
    offered = m.decide_and_fold(state, m.OfferRematch(player="ann", new_match=NEW))
    assert offered.events == [m.RematchOffered(player="ann", seat=0)]
    # Bea accepts; Cid has yet to.
    bea = m.decide_and_fold(offered.after, m.AcceptRematch(player="bea", new_match=NEW))
    assert bea.events == [m.RematchAccepted(player="bea", seat=1)]
    # Cid accepts: everyone has, and the rematch is agreed, who sat second now first.
    cid = m.decide_and_fold(bea.after, m.AcceptRematch(player="cid", new_match=NEW))
    assert cid.events == [
        m.RematchAccepted(player="cid", seat=2),
        m.RematchAgreed(
            match_id=NEW, game="countdown", options={"start": 3}, players=("bea", "cid", "ann")
        ),
    ]
    assert cid.after.rematch is not None and cid.after.rematch.match_id == NEW
    assert m.view(cid.after, None)["rematch"] == {
        "accepted": [0, 1, 2],
        "declined": None,
        "match_id": NEW,
    }
    # Agreed once: no second rematch of the same match.
    assert refused(cid.after, m.OfferRematch(player="bea", new_match=NEW)).code == (
        "rematch_agreed"
    )


def test_any_player_may_decline_and_the_offer_is_off() -> None:
    state = run([m.OfferRematch(player="ann", new_match=NEW)], finished())
    # Bea declines.
    declined = m.decide_and_fold(state, m.DeclineRematch(player="bea"))
    assert declined.events == [m.RematchDeclined(player="bea", seat=1)]
    # Nothing is on offer now: accepting is refused...
    err = refused(declined.after, m.AcceptRematch(player="bea", new_match=NEW))
    assert err.code == "no_rematch_offered"
    # ... and a fresh offer may be made.
    again = m.decide(declined.after, m.OfferRematch(player="bea", new_match=NEW))
    assert again == [m.RematchOffered(player="bea", seat=1)]


def test_an_offer_open_is_answered_not_offered_again() -> None:
    state = run([m.OfferRematch(player="ann", new_match=NEW)], finished(seats=3))
    assert refused(state, m.OfferRematch(player="bea", new_match=NEW)).code == "rematch_offered"
    assert refused(state, m.AcceptRematch(player="ann", new_match=NEW)).code == ("already_accepted")
    assert refused(state, m.AcceptRematch(player="zed", new_match=NEW)).code == "not_seated"
    assert refused(finished(), m.DeclineRematch(player="ann")).code == "no_rematch_offered"


def test_the_referee_names_the_rematch() -> None:
    # Sent without the referee's name for it (the command service fills it in).
    state = run([m.OfferRematch(player="ann")], finished())
    assert refused(state, m.AcceptRematch(player="bea")).code == "no_rematch_id"
    # The name comes from the old match's id alone: the same after any retry.
    assert m.rematch_id("m1") == NEW and m.rematch_id("m2") != NEW and len(NEW) == 16


def test_both_histories_name_the_other_match() -> None:
    state = run(
        [m.OfferRematch(player="ann", new_match=NEW), m.AcceptRematch(player="bea", new_match=NEW)],
        finished(),
    )
    names = ["Ann", "Bea"]
    agreed = m.RematchAgreed(match_id=NEW, game="countdown", options={}, players=("bea", "ann"))
    assert m.describe("countdown", agreed, None, names) == (
        f"Everyone accepted: the rematch is match {NEW}."
    )
    assert m.describe("countdown", m.RematchOffered(player="ann", seat=0), 1, names) == (
        "Ann offered a rematch."
    )
    assert m.describe("countdown", m.RematchDeclined(player="bea", seat=1), 1, names) == (
        "You declined the rematch."
    )
    # The new match is opened as the rematch of the old, and says so.
    opened = run([m.CreateMatch(game="countdown", seats=2, rematch_of="m1")])
    assert opened.rematch_of == "m1"
    [created] = m.decide(None, m.CreateMatch(game="countdown", seats=2, rematch_of="m1"))
    assert m.describe("countdown", created, None, names) == (
        "A 2-seat table of Countdown was opened: the rematch of match m1."
    )
    # And the snapshot of either keeps the link.
    codec = m.codec("countdown")
    for s in (state, opened):
        assert codec.encode_state(codec.decode_state(codec.encode_state(s))) == (
            codec.encode_state(s)
        )


def test_a_clocked_match_is_rematched_with_the_same_clock() -> None:
    control = TimeControl(kind="move", seconds=30)
    now = 1_700_000_000_000
    state: m.MatchState | None = None
    for command in [
        m.CreateMatch(game="countdown", seats=2, options={"start": 3}, clock=control),
        m.JoinMatch(player="ann"),
        m.JoinMatch(player="bea"),
        m.StartMatch(player="ann", seed=4),
    ]:
        state = m.decide_and_fold(state, command, now=now).after
    assert state is not None
    first = ["ann", "bea"][state.game_state.turn]
    take = msgspec.Raw(b'{"type":"countdown.take","count":3}')
    state = m.decide_and_fold(state, m.PlayMove(player=first, move=take), now=now + 1).after
    state = run([m.OfferRematch(player="ann", new_match=NEW)], state)
    [*_, agreed] = m.decide(state, m.AcceptRematch(player="bea", new_match=NEW))
    assert isinstance(agreed, m.RematchAgreed) and agreed.clock == control
    [(_, create), *_] = opening("m1", agreed)
    assert create.clock == control and create.rematch_of == "m1"
    # Unclocked, the agreement and the create record no clock at all.
    plain = run([m.OfferRematch(player="ann", new_match=NEW)], finished())
    [*_, agreed] = m.decide(plain, m.AcceptRematch(player="bea", new_match=NEW))
    assert b'"clock"' not in msgspec.json.encode(agreed)
    [(_, create), *_] = opening("m1", agreed)
    assert b'"clock"' not in msgspec.json.encode(create)


def test_an_unlisted_tables_rematch_is_unlisted_too() -> None:
    unlisted = msgspec.structs.replace(finished(), unlisted=True)
    state = run([m.OfferRematch(player="ann", new_match=NEW)], unlisted)
    [*_, agreed] = m.decide(state, m.AcceptRematch(player="bea", new_match=NEW))
    assert isinstance(agreed, m.RematchAgreed) and agreed.unlisted
    [(_, create), *_] = opening("m1", agreed)
    assert create.unlisted is True
    # A listed table's agreement and create say nothing of it.
    listed = run([m.OfferRematch(player="ann", new_match=NEW)], finished())
    [*_, agreed] = m.decide(listed, m.AcceptRematch(player="bea", new_match=NEW))
    [(_, create), *_] = opening("m1", agreed)
    assert b"unlisted" not in msgspec.json.encode(agreed) + msgspec.json.encode(create)
