"""Trek Twelve: the conformance kit, then the rulebook's tricky cases as stories."""

from __future__ import annotations

from typing import Any

from domain import match as m
from domain.games.trektwelve import GAME
from domain.games.trektwelve.board import neighbours
from domain.games.trektwelve.commands import WriteNumber
from domain.games.trektwelve.events import (
    DiceRolled,
    Event,
    NumberWritten,
    TrekFinished,
    TrekkerLeft,
)
from domain.games.trektwelve.maps import MAPS
from domain.games.trektwelve.scoring import score
from domain.games.trektwelve.state import Options, Sheet, State
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Match


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


def table(
    *sheets: dict[int, int],
    ropes: tuple[tuple[int, int], ...] = (),
    frowns: tuple[int, ...] = (),
    ticks: dict[str, int] | None = None,
    dice: tuple[int, int] = (2, 3),
    roll: int = 5,
    map: str = "dunai",
) -> State:
    """A rigged trek: one dict {circle: number} per trekker; ropes (lower, upper) and
    ticks apply to the first trekker's sheet."""
    state = GAME.initial(Options(map=map), max(1, len(sheets)))  # type: ignore[arg-type]
    built = []
    for i, numbers in enumerate(sheets):
        sheet: Sheet = state.sheets[i]
        for circle, number in numbers.items():
            sheet.numbers[circle] = number
        if i == 0:
            for circle in frowns:
                sheet.frowns[circle] = True
            for lower, upper in ropes:
                sheet.up[lower] = upper
                sheet.down[upper] = lower
            sheet.ticks = dict(ticks or {})
        built.append(sheet)
    state.sheets = built
    state.roll = roll
    state.dice = dice
    return state


def played(state: State, seat: int, **kw: Any) -> tuple[State, list[Event]]:
    """`seat` writes the roll as told: the table after it and the events."""
    return stories.play(GAME, state, seat, WriteNumber(**kw))


def write(state: State, seat: int, **kw: Any) -> list[Event]:
    return played(state, seat, **kw)[1]


def rejected(state: State, seat: int, **kw: Any) -> str:
    return stories.refused(GAME, state, seat, WriteNumber(**kw))


def test_every_map_is_symmetric_connected_and_has_nineteen_circles() -> None:
    for trek in MAPS.values():
        around = neighbours(trek.name)
        assert len(around) == trek.circles == 19
        seen, todo = {0}, [0]
        while todo:
            for n in around[todo.pop()]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert len(seen) == 19, trek.name


def test_the_five_options_are_lower_higher_difference_sum_and_product() -> None:
    # The dice show 4 (0-5 die) and 6 (1-6 die).
    state = table({}, dice=(4, 6))
    numbers = {
        o: [e for e in write(state, 0, option=o, circle=9) if isinstance(e, NumberWritten)][0]
        for o in ("lower", "higher", "difference", "sum", "product")
    }
    assert {o: e.number for o, e in numbers.items()} == {
        "lower": 4,
        "higher": 6,
        "difference": 2,
        "sum": 10,
        "product": 24,
    }


def test_the_first_number_goes_anywhere_later_ones_touch_a_filled_circle() -> None:
    # An empty sheet: all 19 circles are open to the first number.
    state = table({})
    assert {c.circle for c in GAME.legal(state, 0)} == set(range(19))
    # Ann has filled circle 18 (whose only neighbour is 17).
    state = table({18: 1})
    assert {c.circle for c in GAME.legal(state, 0)} == {17}
    assert rejected(state, 0, option="sum", circle=0) == "not_next_to_a_filled_circle"


def test_an_option_with_four_ticked_boxes_is_closed() -> None:
    state = table({18: 1}, ticks={"sum": 4})
    assert rejected(state, 0, option="sum", circle=17) == "option_closed"
    assert {c.option for c in GAME.legal(state, 0)} == {"lower", "higher", "difference", "product"}


def test_a_number_above_twelve_becomes_a_lonely_frown() -> None:
    # The dice show 5 and 6: the product, 30, cannot be written.
    state = table({18: 1}, dice=(5, 6))
    after, [written, *_] = played(state, 0, option="product", circle=17)
    assert isinstance(written, NumberWritten) and written.frown
    sheet = after.sheets[0]
    assert sheet.filled(17) and sheet.numbers[17] is None
    # The frown counts as a lonely circle at the end: -3, like the lone 1.
    assert score(sheet, MAPS["dunai"]).lonely == (17, 18)


def test_thick_circles_of_dhaulagiri_take_at_most_six() -> None:
    # Dhaulagiri: circle 0 is thick; Ann's 5 sits in its neighbour, circle 1.
    state = table({1: 5}, dice=(3, 4), map="dhaulagiri")
    higher = write(state, 0, option="higher", circle=0, up=1)[0]
    assert isinstance(higher, NumberWritten) and not higher.frown
    summed = write(state, 0, option="sum", circle=0)[0]
    assert isinstance(summed, NumberWritten) and summed.frown and summed.number == 7
    # In an ordinary circle 7 is fine.
    ordinary = write(state, 0, option="sum", circle=3)[0]
    assert isinstance(ordinary, NumberWritten) and not ordinary.frown


def test_a_new_number_is_roped_to_its_consecutive_neighbour_at_once() -> None:
    # Circle 1 holds 4; writing 5 (sum of 2 and 3) next to it must draw the rope.
    state = table({1: 4})
    assert rejected(state, 0, option="sum", circle=0) == "rope_required"
    assert rejected(state, 0, option="sum", circle=0, down=2) == "no_such_rope"
    assert [c for c in GAME.legal(state, 0) if c.option == "sum"] == [
        WriteNumber(option="sum", circle=0, down=1)
    ]


def test_between_two_equal_neighbours_the_trekker_chooses_the_rope() -> None:
    # Circles 6 and 7 both hold 4 and both touch circle 8; a 5 in circle 8 ropes to one.
    state = table({6: 4, 7: 4})
    sums = [c for c in GAME.legal(state, 0) if c.option == "sum" and c.circle == 8]
    assert sums == [
        WriteNumber(option="sum", circle=8, down=6),
        WriteNumber(option="sum", circle=8, down=7),
    ]


def test_a_number_between_two_paths_merges_them_into_one() -> None:
    # Path 3-4 in circles 2-3 and path 6-7 in circles 4-5; circle 10 touches 3 and 4.
    state = table({2: 3, 3: 4, 4: 6, 5: 7}, ropes=((2, 3), (4, 5)))
    after, _ = played(state, 0, option="sum", circle=10, down=3, up=4)
    [path] = score(after.sheets[0], MAPS["dunai"]).paths
    # One path 3-4-5-6-7: highest number 7 plus 4 links.
    assert path.circles == (2, 3, 4, 5, 10) and path.points == 11


def test_a_circle_already_roped_upward_takes_no_second_upward_rope() -> None:
    # 4 in circle 6 is already roped up to a 5 in circle 2; a new 5 in circle 8 stays free.
    state = table({6: 4, 2: 5}, ropes=((6, 2),))
    assert rejected(state, 0, option="sum", circle=8, down=6) == "no_such_rope"
    assert WriteNumber(option="sum", circle=8) in list(GAME.legal(state, 0))


def test_paths_and_zones_score_and_two_sixes_make_seven() -> None:
    # Path 1-2-3 in circles 1, 0, 2 and a zone of two 6s in circles 15 and 16.
    state = table({1: 1, 0: 2, 2: 3, 15: 6, 16: 6}, ropes=((1, 0), (0, 2)))
    result = score(state.sheets[0], MAPS["dunai"])
    assert [p.points for p in result.paths] == [3 + 2]
    assert [z.points for z in result.zones] == [7]
    # The three-circle path earns the size bonus 1; a two-circle zone earns none.
    assert result.longest_path_bonus == 1 and result.biggest_zone_bonus == 0
    assert result.total == 5 + 7 + 1


def test_a_circle_may_be_in_a_path_and_a_zone_and_the_biggest_zone_bonus_counts() -> None:
    # Five 8s in a zone (circles 6, 7, 8, 9, 10); circle 2 holds 7 roped up to circle 8.
    state = table({6: 8, 7: 8, 8: 8, 9: 8, 10: 8, 2: 7}, ropes=((2, 8),))
    result = score(state.sheets[0], MAPS["dunai"])
    assert [z.points for z in result.zones] == [8 + 4]
    assert result.biggest_zone_bonus == 6
    assert [p.points for p in result.paths] == [8 + 1]
    assert result.lonely == ()


def test_everybody_writes_the_same_roll_and_the_dice_roll_when_all_have() -> None:
    state = table({18: 1}, {0: 1})
    assert GAME.to_act(state) == frozenset({0, 1})
    state, [ann] = played(state, 0, option="sum", circle=17)
    assert isinstance(ann, NumberWritten)
    # Bea has not written yet: only she may act, and the dice wait for her.
    assert GAME.to_act(state) == frozenset({1})
    assert rejected(state, 0, option="lower", circle=16) == "already_written"
    # Bea's 2 next to her 1 is roped to it.
    bea = write(state, 1, option="lower", circle=1, down=0)
    assert isinstance(bea[-1], DiceRolled) and bea[-1].roll == 6


def test_the_trek_ends_after_the_nineteenth_roll_is_written() -> None:
    numbers = {c: 2 * c for c in range(18)}
    state = table(numbers, roll=19, dice=(0, 1))
    state, events = played(state, 0, option="higher", circle=18)
    assert isinstance(events[-1], TrekFinished)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (score(state.sheets[0], MAPS["dunai"]).total,)


def test_before_edition_2_a_trekker_who_leaves_does_not_hold_up_the_roll() -> None:
    """The game's own concede, the rule of matches created before table edition 2."""
    state = table({18: 1}, {0: 1}, {5: 1})
    state, _ = played(state, 0, option="sum", circle=17)
    state, _ = played(state, 1, option="sum", circle=1)
    conceded = GAME.concede(state, 2, Rng(7, 1))
    assert conceded is not None
    events, _ = GAME.settle(state, conceded)
    assert isinstance(events[0], TrekkerLeft) and isinstance(events[1], DiceRolled)


def test_a_trekker_who_leaves_is_played_by_a_bot_that_writes_each_roll_with_the_others() -> None:
    # Table edition 2: everyone writes the first roll at once; trekker 2 leaves before
    # writing it, and a bot writes it for them in that decision.
    t = Match("trektwelve", 3, seed=0)
    assert t.acting() == [0, 1, 2]
    events = t.concede(1)
    assert events[1] == m.BotPlayed(seat=1) and isinstance(events[2], NumberWritten)
    assert t.acting() == [0, 2]
    left_at = len(t.decisions)
    t.play_out()
    # Every later roll is written by the bot in the decision that rolled it.
    for decided in t.decisions[left_at:]:
        if any(isinstance(e, DiceRolled) for e in decided):
            assert m.BotPlayed(seat=1) in decided
    written = [e.seat for d in t.decisions for e in d if isinstance(e, NumberWritten)]
    assert written.count(1) == written.count(0) == written.count(2)
    outcome = t.now.outcome
    assert outcome is not None and outcome.ranks == (1, 3, 1)
