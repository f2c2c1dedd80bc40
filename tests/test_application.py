"""The command service's application layer on the in-memory store: no Redis needed."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest
import structlog
import structlog.testing

from domain import kernel
from domain import match as m
from events.envelope import first_bad_link
from events.keys import Keys
from events.matches import load_match
from events.store import AppendRequest, InMemoryStore
from services.commands import application
from services.commands.application import CommandProcessor, as_duplicate
from services.contracts.messages import ENCODER, REPLY_DECODER, CommandMessage, Reply

DEAD = Keys(0).dead  # the partition's dead-letter stream


class Inbox:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes]] = []

    async def send(self, replies: Sequence[tuple[str, bytes]]) -> None:
        self.sent.extend(replies)

    def replies(self) -> list[Reply]:
        return [
            REPLY_DECODER.decode(body) for stream, body in self.sent if stream == "tt:replies:me"
        ]


def entry(command: Any, command_id: str, match_id: str = "m1") -> dict[bytes, bytes]:
    message = CommandMessage(
        command_id=command_id, match_id=match_id, reply_to="tt:replies:me", command=command
    )
    return {b"c": ENCODER.encode(message)}


def take(count: int) -> msgspec.Raw:
    return msgspec.Raw(b'{"type":"countdown.take","count":%d}' % count)


async def seated(processor: CommandProcessor) -> None:
    await processor.handle_batch(
        [
            entry(m.CreateMatch(game="countdown", seats=2), "c1"),
            entry(m.JoinMatch(player="ann"), "c2"),
            entry(m.JoinMatch(player="bea"), "c3"),
            entry(m.StartMatch(player="ann", seed=8), "c4"),
        ],
        DEAD,
    )


async def test_a_batch_is_decided_in_order_and_every_command_answered() -> None:
    store, inbox = InMemoryStore(), Inbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True)
    await seated(processor)
    assert [r.status for r in inbox.replies()] == ["accepted"] * 4
    assert [r.version for r in inbox.replies()] == [1, 2, 3, 5]
    assert len(store.log) == 5


async def test_the_same_command_twice_in_one_batch_appends_once() -> None:
    store, inbox = InMemoryStore(), Inbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True)
    await seated(processor)
    live = await load_match(store, "m1")
    assert live is not None
    player = live.state.players[live.state.game_state.turn]
    assert player is not None
    move = m.PlayMove(player=player, move=take(1))
    await processor.handle_batch([entry(move, "same"), entry(move, "same")], DEAD)
    first, again = inbox.replies()[-2:]
    assert first.status == "accepted"
    assert again.status == "duplicate" and again.version == first.version
    assert len(store.streams["m1"]) == first.version


async def test_a_conflict_reloads_the_match_and_decides_again() -> None:
    store, inbox = InMemoryStore(), Inbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True)
    await seated(processor)
    # Another worker appends to the match behind this processor's cached state.
    other = CommandProcessor(store, Inbox(), trust_seeds=True)
    await other.handle_batch([entry(m.Concede(player="bea"), "elsewhere")], DEAD)
    await processor.handle_batch([entry(m.Concede(player="ann"), "late")], DEAD)
    [late] = inbox.replies()[-1:]
    # Decided again on the fresh state: the match is already over.
    assert late.status == "rejected" and late.code == "match_finished"
    assert processor.stats["conflicts"] == 1


async def test_a_worker_behind_another_folds_the_tail_it_missed_and_keeps_the_chain() -> None:
    store, inbox = InMemoryStore(), Inbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True)
    await seated(processor)
    other = CommandProcessor(store, Inbox(), trust_seeds=True)
    live = await load_match(store, "m1")
    assert live is not None
    # The other worker plays the next move; this one, behind, is sent the one after.
    first = live.state.players[live.state.game_state.turn]
    second = live.state.players[1 - live.state.game_state.turn]
    assert first is not None and second is not None
    await other.handle_batch([entry(m.PlayMove(player=first, move=take(1)), "elsewhere")], DEAD)
    read_back: list[str] = []
    load_snapshot = store.load_snapshot

    async def spy(match_id: str) -> Any:
        read_back.append(match_id)
        return await load_snapshot(match_id)

    store.load_snapshot = spy  # type: ignore[method-assign]
    await processor.handle_batch([entry(m.PlayMove(player=second, move=take(2)), "late")], DEAD)
    [late] = inbox.replies()[-1:]
    assert late.status == "accepted" and late.version == 7
    assert processor.stats["conflicts"] == 1
    assert read_back == []  # caught up from the tail, not from the snapshot
    assert first_bad_link(await store.load("m1")) is None


async def test_a_rejection_is_recorded_so_a_resend_answers_the_same() -> None:
    store, inbox = InMemoryStore(), Inbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True)
    await processor.handle_batch([entry(m.JoinMatch(player="ann"), "j1", match_id="nope")], DEAD)
    await processor.handle_batch([entry(m.JoinMatch(player="ann"), "j1", match_id="nope")], DEAD)
    first, again = inbox.replies()
    assert first.status == "rejected" and first.code == "unknown_match"
    assert again.status == "duplicate" and again.original_status == "rejected"
    assert again.code == "unknown_match"


async def test_unreadable_commands_are_answered_or_kept_as_dead_letters() -> None:
    store, inbox = InMemoryStore(), Inbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True)
    named = (
        b'{"command_id":"x","match_id":"m","reply_to":"tt:replies:me","command":{"type":"nope"}}'
    )
    # A command may not have its reply written into the partition log.
    hijack = CommandMessage(
        command_id="h", match_id="m", reply_to="tt:{0}:log", command=m.JoinMatch(player="x")
    )
    await processor.handle_batch(
        [{b"c": named}, {b"c": b"\x00\xff"}, {b"other": b"1"}, {b"c": ENCODER.encode(hijack)}],
        "dead",
    )
    [reply] = inbox.replies()
    assert reply.code == "malformed_command" and "could not be read" in reply.message
    dead = [body for stream, body in inbox.sent if stream == "dead"]
    assert len(dead) == 3
    assert not any(stream == "tt:{0}:log" for stream, _ in inbox.sent)
    assert store.log == []


async def test_a_game_that_raises_is_answered_with_internal_error_not_a_crash(
    monkeypatch: Any,
) -> None:
    from tests.support.countdown import GAME

    store, inbox = InMemoryStore(), Inbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True)
    await seated(processor)

    def broken(*_: Any) -> list[Any]:
        raise ZeroDivisionError("bug")

    # A game is a frozen declaration: the broken one replaces it in the registry.
    monkeypatch.setitem(kernel._REGISTRY, "countdown", dataclasses.replace(GAME, decide=broken))
    live = await load_match(store, "m1")
    assert live is not None
    player = live.state.players[live.state.game_state.turn]
    await processor.handle_batch([entry(m.PlayMove(player=str(player), move=take(1)), "b")], DEAD)
    assert inbox.replies()[-1].code == "internal_error"
    assert len(store.streams["m1"]) == live.state.version


async def test_snapshots_are_taken_every_k_events() -> None:
    store, inbox = InMemoryStore(), Inbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True, snapshot_every=2)
    await seated(processor)
    snap = store.snapshots["m1"]
    assert snap.version == 5
    assert (await store.append_batch([AppendRequest("m1", 5, "z", b"{}")]))[0].status == "ok"


async def test_a_match_id_that_could_not_name_a_key_is_refused() -> None:
    store, inbox = InMemoryStore(), Inbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True)
    for bad in ("", "a b", "x" * 129, "m\n1"):
        await processor.handle_batch(
            [entry(m.CreateMatch(game="countdown", seats=2), "c", bad)], DEAD
        )
    assert [r.code for r in inbox.replies()] == ["bad_id"] * 4
    assert store.streams == {}


async def test_a_resent_command_gets_its_first_reply_from_a_record_without_its_events() -> None:
    for starter, sees_secret in (("ann", True), ("bea", False)):
        store, inbox = InMemoryStore(), Inbox()
        processor = CommandProcessor(store, inbox, trust_seeds=True)
        start = entry(m.StartMatch(player=starter, seed=8), "c4")
        await processor.handle_batch([*[entry(*e) for e in SEATING], start], DEAD)
        # The store keeps the version range and the seat, not the events again.
        recorded = store.replies[("m1", "c4")]
        assert recorded.startswith(b"[") and b"countdown" not in recorded
        first = inbox.replies()[-1]
        assert first.status == "accepted" and len(first.events) == 2
        assert (b"cd-secret" in bytes(first.events[1])) is sees_secret
        # Sent again, to this worker and to one that has not cached the match.
        fresh = CommandProcessor(store, inbox, trust_seeds=True)
        await processor.handle_batch([start], DEAD)
        await fresh.handle_batch([start], DEAD)
        for again in inbox.replies()[-2:]:
            assert again.status == "duplicate" and again.original_status == "accepted"
            assert again.version == first.version
            assert [bytes(e) for e in again.events] == [bytes(e) for e in first.events]
        # Byte for byte the first reply, marked as a duplicate.
        original = next(b for _, b in inbox.sent if b'"command_id":"c4"' in b)
        assert [b for _, b in inbox.sent[-2:]] == [as_duplicate(original)] * 2


SEATING = [
    (m.CreateMatch(game="countdown", seats=2), "c1"),
    (m.JoinMatch(player="ann"), "c2"),
    (m.JoinMatch(player="bea"), "c3"),
]


async def test_an_accepted_command_is_logged_at_debug_and_a_refused_one_at_info(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 13: accepted commands at debug, rejections at info with the reason, each
    # line with the match and command ids.
    capture = structlog.testing.LogCapture()
    debug = structlog.make_filtering_bound_logger(logging.DEBUG)
    logger = structlog.wrap_logger(None, processors=[capture], wrapper_class=debug)
    monkeypatch.setattr(application, "log", logger)
    processor = CommandProcessor(InMemoryStore(), Inbox(), trust_seeds=True)
    await seated(processor)
    await processor.handle_batch([entry(m.JoinMatch(player="cid"), "late")], DEAD)
    logs = capture.entries
    accepted = [e for e in logs if e["event"] == "command_accepted"]
    assert [e["command_id"] for e in accepted] == ["c1", "c2", "c3", "c4"]
    assert {e["log_level"] for e in accepted} == {"debug"}
    assert {e["match_id"] for e in accepted} == {"m1"}
    (refused,) = [e for e in logs if e["event"] == "command_rejected"]
    assert refused["log_level"] == "info" and refused["code"] == "match_started"
    assert refused["match_id"] == "m1" and refused["command_id"] == "late"


class AckingInbox(Inbox):
    def __init__(self) -> None:
        super().__init__()
        self.trips: list[tuple[int, list[application.Ack]]] = []  # (replies, acks) per send

    async def send(
        self, replies: Sequence[tuple[str, bytes]], acks: Sequence[application.Ack] = ()
    ) -> None:
        self.trips.append((len(replies), list(acks)))
        await super().send(replies)


async def test_a_batch_is_acknowledged_in_its_replies_trip_dead_letters_and_all() -> None:
    store, inbox = InMemoryStore(), AckingInbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True)
    batch = [
        entry(m.CreateMatch(game="countdown", seats=2), "c1"),
        {b"c": b"\x00\xff"},  # unreadable: a dead letter
        entry(m.JoinMatch(player="ann"), "c2"),
    ]
    ack = application.Ack("tt:{0}:commands", "g", [b"1-0", b"2-0", b"3-0"])
    assert await processor.handle_batch(batch, DEAD, ack) == []
    # One trip: two replies and the dead letter, then every entry acknowledged.
    assert inbox.trips == [(3, [ack])]
    assert [stream for stream, _ in inbox.sent] == ["tt:replies:me"] * 2 + [DEAD]


async def test_dead_letters_bound_elsewhere_are_kept_before_the_batch_is_acknowledged() -> None:
    store, inbox, keeper = InMemoryStore(), AckingInbox(), Inbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True, dead_letters=keeper)
    ack = application.Ack("tt:{0}:commands", "g", [b"1-0", b"2-0"])
    batch = [entry(m.CreateMatch(game="countdown", seats=2), "c1"), {b"c": b"\x00\xff"}]
    await processor.handle_batch(batch, DEAD, ack)
    assert len(keeper.sent) == 1
    # The replies go first, without the acknowledgement; it follows the dead letter.
    assert inbox.trips == [(1, []), (0, [ack])]


async def test_two_partitions_batches_are_answered_and_acknowledged_in_one_trip() -> None:
    store, inbox = InMemoryStore(), AckingInbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True)
    created = [entry(m.CreateMatch(game="countdown", seats=2), "c1", match_id="m1")]
    created += [entry(m.CreateMatch(game="countdown", seats=2), "c2", match_id="m2")]
    await processor.handle_batch(created, DEAD)
    inbox.trips.clear()
    first = [entry(m.JoinMatch(player="ann"), "j1", match_id="m1"), {b"c": b"\x00\xff"}]
    second = [entry(m.JoinMatch(player="bea"), "j2", match_id="m2")]
    one = application.Ack("tt:{0}:commands", "g", [b"1-0", b"2-0"])
    two = application.Ack("tt:{1}:commands", "g", [b"1-0"])
    found = await processor.handle_batches(
        [application.Batch(first, DEAD, one), application.Batch(second, "tt:{1}:dead", two)]
    )
    # Each batch's failures by its own indices (none); both joins and the first
    # partition's dead letter in one trip, then both partitions acknowledged.
    assert found == [[], []]
    assert inbox.trips == [(3, [one, two])]
    assert sorted(stream for stream, _ in inbox.sent[-3:]) == sorted([DEAD, *["tt:replies:me"] * 2])
    for match_id, player in (("m1", "ann"), ("m2", "bea")):
        live = await load_match(store, match_id)
        assert live is not None and player in live.state.players


class Counting(InMemoryStore):
    """Notes how matches are read back: one by one, or a round's together."""

    def __init__(self) -> None:
        super().__init__()
        self.alone: list[str] = []
        self.together: list[list[str]] = []

    async def load_snapshot(self, match_id: str) -> Any:
        self.alone.append(match_id)
        return await super().load_snapshot(match_id)

    async def load_starts(self, match_ids: Sequence[str]) -> Any:
        self.together.append(list(match_ids))
        return await super().load_starts(match_ids)


async def turn_of(store: InMemoryStore, match_id: str) -> str:
    live = await load_match(store, match_id)
    assert live is not None
    return str(live.state.players[live.state.game_state.turn])


async def test_after_a_restart_a_round_reads_the_matches_no_cache_holds_together() -> None:
    store, inbox = Counting(), Inbox()
    before = CommandProcessor(store, inbox, trust_seeds=True, snapshot_every=2)
    for mid in ("m1", "m2", "m3"):
        await before.handle_batch(
            [
                entry(m.CreateMatch(game="countdown", seats=2), f"{mid}.c1", mid),
                entry(m.JoinMatch(player="ann"), f"{mid}.c2", mid),
                entry(m.JoinMatch(player="bea"), f"{mid}.c3", mid),
                entry(m.StartMatch(player="ann", seed=8), f"{mid}.c4", mid),
            ],
            DEAD,
        )
    # A new process: its cache is empty. One round holds a move in each of the three
    # matches (snapshot and tail) and a fourth match being opened.
    store.alone.clear()
    after = CommandProcessor(store, inbox, trust_seeds=True, snapshot_every=2)
    moves = [
        entry(m.PlayMove(player=await turn_of(store, mid), move=take(1)), f"{mid}.c5", mid)
        for mid in ("m1", "m2", "m3")
    ]
    store.alone.clear()
    await after.handle_batch(
        [*moves, entry(m.CreateMatch(game="countdown", seats=2), "m4.c1", "m4")], DEAD
    )
    assert store.together[-1] == ["m1", "m2", "m3", "m4"]
    assert store.alone == []  # none read on its own
    assert [r.status for r in inbox.replies()[-4:]] == ["accepted"] * 4
    assert [r.version for r in inbox.replies()[-4:]] == [6, 6, 6, 1]
    for mid in ("m1", "m2", "m3"):
        assert first_bad_link(store.streams[mid]) is None


async def test_a_match_that_cannot_be_read_fails_its_own_command_only() -> None:
    store, inbox = Counting(), Inbox()
    for mid in ("m1", "m2"):
        await CommandProcessor(store, inbox, trust_seeds=True).handle_batch(
            [entry(m.CreateMatch(game="countdown", seats=2), f"{mid}.c1", mid)], DEAD
        )
    # m2's stored event no longer decodes.
    store.streams["m2"][0] = msgspec.structs.replace(
        store.streams["m2"][0], payload=msgspec.Raw(b'{"type":"match.created","seats":"two"}')
    )
    fresh = CommandProcessor(store, inbox, trust_seeds=True)
    store.alone.clear()
    await fresh.handle_batch(
        [
            entry(m.JoinMatch(player="ann"), "m1.c2", "m1"),
            entry(m.JoinMatch(player="ann"), "m2.c2", "m2"),
        ],
        DEAD,
    )
    assert store.together == [["m1", "m2"]]
    assert set(store.alone) == {"m2"}  # read again alone, where its command fails
    assert [(r.command_id, r.status) for r in inbox.replies()[-1:]] == [("m1.c2", "accepted")]
    assert fresh.stats["failed"] == 1


async def test_the_prometheus_counters_count_each_outcome_and_cache_lookup() -> None:
    from prometheus_client import REGISTRY

    def counts() -> dict[str, float]:
        def sample(name: str, **labels: str) -> float:
            return REGISTRY.get_sample_value(f"tabletop_{name}_total", labels) or 0.0

        return {
            "accepted": sample("commands", outcome="accepted"),
            "rejected": sample("commands", outcome="rejected"),
            "not_your_turn": sample("rejections", code="not_your_turn"),
            "hit": sample("cache_lookups", result="hit"),
            "miss": sample("cache_lookups", result="miss"),
        }

    before = counts()
    store, inbox = InMemoryStore(), Inbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True)
    await seated(processor)
    # Bea plays out of turn (Ann's is the first turn of seed 8): a rejection.
    await processor.handle_batch([entry(m.PlayMove(player="bea", move=take(1)), "c5")], DEAD)
    assert inbox.replies()[-1].code == "not_your_turn"
    after = counts()
    assert {k: after[k] - before[k] for k in after} == {
        "accepted": 4,
        "rejected": 1,
        "not_your_turn": 1,
        "hit": 4,  # the match once created is in the cache for every later command
        "miss": 1,  # the creation looked for it first
    }


class Snapshotting(InMemoryStore):
    """Notes which matches each call saves snapshots of."""

    def __init__(self) -> None:
        super().__init__()
        self.saved: list[list[str]] = []

    async def save_snapshots(self, snapshots: Any) -> None:
        self.saved.append(sorted(snapshots))
        await super().save_snapshots(snapshots)


async def test_matches_crossing_a_snapshot_in_one_round_are_saved_in_one_call() -> None:
    store, inbox = Snapshotting(), Inbox()
    processor = CommandProcessor(store, inbox, trust_seeds=True, snapshot_every=2)
    # Two matches in step, a command of each in every round.
    steps = [
        m.CreateMatch(game="countdown", seats=2),
        m.JoinMatch(player="ann"),
        m.JoinMatch(player="bea"),
        m.StartMatch(player="ann", seed=8),
    ]
    batch = [
        entry(step, f"{match_id}.{i}", match_id)
        for i, step in enumerate(steps)
        for match_id in ("m1", "m2")
    ]
    await processor.handle_batch(batch, DEAD)
    assert [r.status for r in inbox.replies()] == ["accepted"] * 8
    assert store.saved and all(saved == ["m1", "m2"] for saved in store.saved)
    assert store.snapshots["m1"].version == store.snapshots["m2"].version == 5
