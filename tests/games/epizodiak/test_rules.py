"""EpiZodiak: the conformance kit, then the rulebook's tricky cases from rigged tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import msgspec

from domain.games.epizodiak import GAME
from domain.games.epizodiak.commands import (
    Command,
    Contest,
    DiscardSet,
    Draw,
    Pass,
    PickUp,
    Place,
)
from domain.games.epizodiak.events import (
    DialRefilled,
    Event,
    RoundDealt,
    RoundEnded,
    TileDrawn,
    TilePickedUp,
    TilesPlaced,
    TurnPassed,
    ValueContested,
)
from domain.games.epizodiak.state import Options, Phase, State
from domain.games.epizodiak.tiles import value_of
from tests.conformance.kit import run_conformance
from tests.support import stories

ANN, BEA, CID = 0, 1, 2


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


# --- a rigged table ------------------------------------------------------------------


def table(
    ann: Sequence[int] = (),
    bea: Sequence[int] = (),
    cid: Sequence[int] = (),
    *,
    dial: Sequence[int] = (),
    pile: Sequence[int] = (),
    sets: Sequence[Sequence[int]] = ((), (), ()),
    current: int = ANN,
    phase: Phase = "turn",
    passes: int = 0,
    pickable: int | None = None,
    scores: Sequence[int] = (0, 0, 0),
    mode: str = "score",
    target: int = 7,
) -> State:
    """A table from tile values; each value gets the next free copy (sets take three)."""
    used: Counter[int] = Counter()
    for discarded in sets:
        for value in discarded:
            used[value] += 3

    def tile(value: int) -> str:
        copy = "abcd"[used[value]]
        used[value] += 1
        return f"ez-{value:02d}{copy}"

    board: list[str | None] = [None] * 12
    for value in dial:
        board[value - 1] = tile(value)
    hands = [sorted(tile(v) for v in hand) for hand in (ann, bea, cid)]
    return State(
        options=msgspec.convert({"mode": mode, "target": target}, Options),
        round=1,
        hands=hands,
        pile=[tile(v) for v in pile],
        dial=board,
        sets=[list(s) for s in sets],
        scores=list(scores),
        current=current,
        phase=phase,
        passes=passes,
        pickable=board[pickable - 1] if pickable else None,
    )


def play(state: State, seat: int, command: Command) -> tuple[list[Event], State]:
    """The seat sends the command; the events it causes and the table after them."""
    after, events = stories.play(GAME, state, seat, command)
    return events, after


def refused(state: State, seat: int, command: Command) -> str:
    return stories.refused(GAME, state, seat, command)


def values(tiles: Sequence[str | None]) -> list[int]:
    return sorted(value_of(t) for t in tiles if t is not None)


# --- placing runs ----------------------------------------------------------------------


def test_a_run_grows_from_either_end_and_wraps_from_twelve_to_one() -> None:
    # The dial holds 11; Ann holds 12, 1, 2 (clockwise) and 10, 9 (counterclockwise).
    start = table(ann=[12, 1, 2, 10, 9, 5], bea=[3], cid=[4], dial=[11], pile=[4])
    runs = [c for c in GAME.legal(start, ANN) if isinstance(c, Place)]
    assert runs == [
        Place(direction="clockwise", length=1),
        Place(direction="clockwise", length=2),
        Place(direction="clockwise", length=3),
        Place(direction="counterclockwise", length=1),
        Place(direction="counterclockwise", length=2),
    ]
    # A run cannot skip a value Ann lacks.
    assert refused(start, ANN, Place(direction="clockwise", length=4)) == "tile_not_in_hand"
    # Ann places 12, 1, 2 clockwise.
    events, after = play(start, ANN, Place(direction="clockwise", length=3))
    assert events[0] == TilesPlaced(
        seat=ANN, direction="clockwise", values=(12, 1, 2), tiles=("ez-12a", "ez-01a", "ez-02a")
    )
    assert values(after.dial) == [1, 2, 11, 12]
    assert after.current == BEA and after.pickable == "ez-02a"


def test_with_a_draw_pile_one_draws_instead_of_passing_and_may_pass_after_drawing() -> None:
    start = table(ann=[6, 9], bea=[1], cid=[10], dial=[5], pile=[8, 3])
    assert refused(start, ANN, Pass()) == "must_draw"
    # Ann may draw even though she could place her 6.
    events, drawn = play(start, ANN, Draw())
    assert events == [TileDrawn(seat=ANN, tile="ez-08a")]
    assert Pass() in GAME.legal(drawn, ANN)
    assert refused(drawn, ANN, Draw()) == "already_acted"
    _, after = play(drawn, ANN, Pass())
    assert after.current == BEA and after.passes == 0


def test_a_player_who_draws_and_can_neither_place_nor_discard_passes_automatically() -> None:
    start = table(ann=[9], bea=[2], cid=[4], dial=[5], pile=[1, 3])
    events, after = play(start, ANN, Draw())
    assert events == [TileDrawn(seat=ANN, tile="ez-01a"), TurnPassed(seat=ANN, automatic=True)]
    assert after.current == BEA and values(after.hands[ANN]) == [1, 9]


# --- picking up the last tile played --------------------------------------------------


def test_the_last_tile_placed_may_be_picked_up_to_complete_a_set() -> None:
    # Bea has just placed the 5; Ann holds two 5s.
    start = table(ann=[5, 5, 9], bea=[1], cid=[2], dial=[3, 4, 5], pickable=5, pile=[10])
    assert PickUp() in GAME.legal(start, ANN)
    events, picked = play(start, ANN, PickUp())
    assert events == [TilePickedUp(seat=ANN, value=5, tile="ez-05a")]
    # Now she must discard or place at the other end; no draw, no pass, not where it was.
    assert GAME.legal(picked, ANN) == [DiscardSet(value=5)]
    assert refused(picked, ANN, Draw()) == "already_acted"
    assert refused(picked, ANN, Pass()) == "must_play"
    assert refused(picked, ANN, Place(direction="clockwise", length=1)) == (
        "other_end_after_pick_up"
    )
    _, after = play(picked, ANN, DiscardSet(value=5))
    assert after.sets[ANN] == [5] and values(after.hands[ANN]) == [9]


def test_a_pick_up_is_refused_when_no_place_or_discard_could_follow() -> None:
    start = table(ann=[9, 11], dial=[3, 4, 5], pickable=5, pile=[10])
    assert PickUp() not in GAME.legal(start, ANN)
    assert refused(start, ANN, PickUp()) == "no_move_after_pick_up"
    # With a 2 she could place at the other end, so the pick-up is allowed.
    assert PickUp() in GAME.legal(table(ann=[2], dial=[3, 4, 5], pickable=5, pile=[10]), ANN)


def test_a_single_tile_cannot_be_picked_up() -> None:
    # The set of 5s was discarded by Cid; the 5 Bea placed is the single one.
    start = table(ann=[2, 6], dial=[3, 4, 5], pickable=5, sets=[[], [], [5]], pile=[10])
    assert refused(start, ANN, PickUp()) == "single_tile_stays"


# --- sets and the dial -----------------------------------------------------------------


def test_a_full_dial_is_shuffled_with_the_pile_and_the_next_player_plays() -> None:
    # Eleven places are filled; Ann places the 12.
    start = table(ann=[12, 7], bea=[1], cid=[2], dial=range(1, 12), pile=[7])
    events, after = play(start, ANN, Place(direction="clockwise", length=1))
    refilled = events[-1]
    assert isinstance(refilled, DialRefilled) and refilled.pile_size == 12
    assert sum(t is not None for t in after.dial) == 1 and len(after.pile) == 12
    assert after.current == BEA and after.pickable is None
    # The placed 12 went into the secret pile: nobody sees its id any more.
    shown = GAME.redact(events[0], ANN)
    assert isinstance(shown, TilesPlaced) and shown.tiles is None and shown.values == (12,)
    assert GAME.redact(refilled, ANN) == msgspec.structs.replace(refilled, pile=None)


# --- passing without a draw pile -------------------------------------------------------


def test_without_a_pile_one_may_pass_while_holding_a_playable_tile() -> None:
    start = table(ann=[6, 9], bea=[1], cid=[2], dial=[5])
    assert Pass() in GAME.legal(start, ANN)
    _, after = play(start, ANN, Pass())
    assert after.passes == 1 and after.current == BEA


def test_a_playable_single_tile_forbids_passing() -> None:
    # The 6s were discarded as a set; Ann holds the single 6 and the dial waits for a 6.
    start = table(ann=[6, 9], dial=[5], sets=[[], [6], []])
    assert refused(start, ANN, Pass()) == "single_tile_must_be_played"
    assert GAME.legal(start, ANN) == [Place(direction="clockwise", length=1)]


def test_after_two_passes_the_third_player_contests_a_value_they_lack() -> None:
    # The dial waits for a 6 and a 2; Ann holds neither.
    start = table(ann=[9, 10], bea=[6, 6, 2, 2, 11], cid=[6, 6, 2, 2, 12], dial=[3, 4, 5])
    start = msgspec.structs.replace(start, current=BEA)
    _, state = play(start, BEA, Pass())
    _, state = play(state, CID, Pass())
    assert state.passes == 2
    assert [c for c in GAME.legal(state, ANN) if isinstance(c, Contest)] == [
        Contest(value=2),
        Contest(value=6),
    ]
    events, after = play(state, ANN, Contest(value=6))
    assert events == [
        ValueContested(
            seat=ANN,
            value=6,
            taken=(0, 2, 2),
            discarded=("ez-06a", "ez-06b", "ez-06c"),
            kept="ez-06d",
        )
    ]
    # Three 6s are Ann's set, the fourth is her single tile; the others lost theirs.
    assert after.sets[ANN] == [6] and values(after.hands[ANN]) == [6, 9, 10]
    assert values(after.hands[BEA]) == [2, 2, 11] and values(after.hands[CID]) == [2, 2, 12]
    # Bea and Cid only learn the value of what Ann kept.
    assert GAME.redact(events[0], BEA) == msgspec.structs.replace(events[0], kept=None)
    # Ann must now play.
    assert refused(after, ANN, Pass()) == "must_play"
    assert GAME.legal(after, ANN) == [Place(direction="clockwise", length=1)]


def test_a_value_cannot_be_contested_by_its_holder_nor_to_empty_a_hand() -> None:
    # The dial waits for a 6 and a 2, and the last two turns were passed.
    holder = table(ann=[6, 9], bea=[6, 2, 2, 11], cid=[6, 6, 2, 2], dial=[3, 4, 5], passes=2)
    assert refused(holder, ANN, Contest(value=6)) == "value_in_hand"
    emptying = table(ann=[9], bea=[2, 2], cid=[6, 6, 6, 6, 2, 2], dial=[3, 4, 5], passes=2)
    assert refused(emptying, ANN, Contest(value=2)) == "would_empty_a_hand"
    assert GAME.legal(emptying, ANN) == [Contest(value=6), Pass()]
    early = table(ann=[9], bea=[6, 6, 2, 2], cid=[6, 6, 2, 2], dial=[3, 4, 5], passes=1)
    assert refused(early, ANN, Contest(value=6)) == "no_contest_now"


def test_contesting_the_last_empty_place_fills_the_dial_by_itself() -> None:
    start = table(ann=[5, 7], bea=[12, 12, 1], cid=[12, 12, 2], dial=range(1, 12), passes=2)
    events, after = play(start, ANN, Contest(value=12))
    assert [type(e) for e in events] == [ValueContested, TilesPlaced, DialRefilled]
    assert after.sets[ANN] == [12] and values(after.hands[ANN]) == [5, 7]
    assert after.current == BEA and len(after.pile) == 11


def test_after_three_passes_the_first_to_pass_must_place() -> None:
    start = table(ann=[6, 2, 9, 9, 9], bea=[6, 6, 2, 2, 11], cid=[6, 2, 10, 12], dial=[3, 4, 5])
    state = start
    for seat in (ANN, BEA, CID):
        _, state = play(state, seat, Pass())
    assert state.passes == 3 and state.current == ANN
    assert refused(state, ANN, Pass()) == "too_many_passes"
    assert refused(state, ANN, DiscardSet(value=9)) == "forced_to_place"
    assert GAME.legal(state, ANN) == [
        Place(direction="clockwise", length=1),
        Place(direction="counterclockwise", length=1),
    ]


def test_a_forced_player_who_cannot_place_is_skipped() -> None:
    # The dial waits for a 12. Ann has none, and contesting would empty Bea's hand.
    start = table(ann=[8, 9], bea=[12, 12], cid=[12, 12, 1, 2], dial=range(1, 12))
    state = msgspec.structs.replace(start, current=CID, passes=2)
    events, after = play(state, CID, Pass())
    assert events == [TurnPassed(seat=CID), TurnPassed(seat=ANN, automatic=True)]
    assert after.current == BEA
    assert GAME.legal(after, BEA) == [
        Place(direction="clockwise", length=1),
        Place(direction="counterclockwise", length=1),
    ]


# --- scoring -----------------------------------------------------------------------------


def test_emptying_a_hand_scores_a_point_per_set_and_the_next_player_starts_round_two() -> None:
    start = table(ann=[6], bea=[1, 2], cid=[7], dial=[5], sets=[[3, 4], [8], []], scores=(1, 2, 0))
    events, after = play(start, ANN, Place(direction="clockwise", length=1))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points == (2, 0, 0) and ended.totals == (3, 2, 0) and not ended.game_over
    assert isinstance(events[-1], RoundDealt) and events[-1].first == BEA
    assert after.round == 2 and after.current == BEA and after.scores == [3, 2, 0]
    assert all(len(hand) == 12 for hand in after.hands) and len(after.pile) == 11
    # The last tiles of round one were dealt again: their ids are hidden now.
    shown = GAME.redact(events[0], BEA)
    assert isinstance(shown, TilesPlaced) and shown.tiles is None


def test_the_first_to_reach_the_target_wins_seven_by_default_or_thirteen() -> None:
    seven = table(ann=[6], bea=[1], cid=[2], dial=[5], sets=[[3, 4], [], []], scores=(5, 6, 0))
    _, after = play(seven, ANN, Place(direction="clockwise", length=1))
    assert after.phase == "over"
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (7, 6, 0) and outcome.ranks == (1, 2, 3)
    thirteen = msgspec.structs.replace(seven, options=Options(target=13))
    _, after = play(thirteen, ANN, Place(direction="clockwise", length=1))
    assert after.phase == "turn" and after.round == 2 and GAME.outcome(after) is None


def test_one_round_scores_everyones_sets_and_three_for_emptying_a_hand() -> None:
    # Ann empties her hand with no set: 3 points, tied with Bea's three sets; Ann ranks first.
    start = table(ann=[6], bea=[1], cid=[2], dial=[5], sets=[[], [3, 4, 7], [8]], mode="one_round")
    _, after = play(start, ANN, Place(direction="clockwise", length=1))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (3, 3, 1) and outcome.ranks == (1, 2, 3)


# --- hidden information ------------------------------------------------------------------


def test_hands_and_the_draw_pile_are_hidden_from_the_other_seats() -> None:
    start = table(ann=[6, 9], bea=[1, 2], cid=[7], dial=[5], pile=[8, 3])
    bea_view = msgspec.to_builtins(GAME.view(start, BEA))
    assert bea_view["hand"] == ["ez-01a", "ez-02a"]
    text = msgspec.json.encode(bea_view).decode()
    for secret in ("ez-06a", "ez-09a", "ez-07a", "ez-08a", "ez-03a"):
        assert secret not in text
    events, _ = play(start, ANN, Draw())
    seen = GAME.redact(events[0], BEA)
    assert seen == TileDrawn(seat=ANN, tile=None)
    assert GAME.describe(seen, BEA, ["Ann", "Bea", "Cid"]) == "Ann drew a tile from the pile."
