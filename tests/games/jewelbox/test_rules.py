"""Jewel Box: the conformance kit, then the rulebook's tricky cases as short stories."""

from __future__ import annotations

from itertools import count

import msgspec
import pytest

from domain.games.jewelbox import GAME
from domain.games.jewelbox.beetles import BEETLES, FAMILY_OF, Tool
from domain.games.jewelbox.box import GRIDS
from domain.games.jewelbox.commands import (
    Command,
    EndTurn,
    PlaceBeetle,
    RollDie,
    TakeBeetle,
    UseForceps,
    UseMagnifier,
)
from domain.games.jewelbox.events import (
    BeetleCollected,
    BeetlesSwapped,
    DieRolled,
    Event,
    GameEnded,
    LogFilled,
    TurnBegan,
)
from domain.games.jewelbox.scoring import jewels, ladybugs, longhorns, scarabs, weevils
from domain.games.jewelbox.state import JewelBoxOptions, Phase, Table, WeevilRule
from domain.games.jewelbox.view import JewelBoxView
from domain.kernel import Rejected, Rng
from tests.conformance.kit import run_conformance
from tests.support import stories


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA = 0, 1
LETTER = {"S": "scarab", "W": "weevil", "L": "ladybug", "H": "longhorn", "J": "jewel"}


def layout(*rows: str) -> list[str | None]:
    """A box from rows of letters: S scarab, W weevil, L ladybug, H longhorn, J jewel, . empty."""
    numbers = {family: count(1) for family in LETTER.values()}
    return [
        None if ch == "." else f"jb-{LETTER[ch]}-{next(numbers[LETTER[ch]]):02d}"
        for row in rows
        for ch in row
    ]


def table(
    ann: list[str | None] | None = None,
    *,
    seats: int = 2,
    side: int = 4,
    phase: Phase = "collect",
    tools: tuple[Tool, ...] = ("magnifier", "forceps", "either"),
    holding: str | None = None,
    options: JewelBoxOptions | None = None,
) -> Table:
    """Ann to play, her box as given; the log holds scarabs 11 to 15."""
    boxes: list[list[str | None]] = [[None] * (side * side) for _ in range(seats)]
    if ann is not None:
        boxes[ANN] = ann
    log: list[str | None] = [f"jb-scarab-{n}" for n in range(11, 16)]
    placed = {b for box in boxes for b in box if b}
    supply = sorted(b for b in BEETLES if b not in placed and b not in log and b != holding)
    return Table(
        seats=seats,
        options=options or JewelBoxOptions(box_side=side),
        side=side,
        supply=supply,
        boxes=boxes,
        tools=[list(tools)] + [["magnifier", "forceps", "either"]] * (seats - 1),
        log=log,
        phase=phase,
        player=ANN,
        holding=holding,
    )


def play(state: Table, command: Command, seed: int = 1) -> tuple[Table, list[Event]]:
    return stories.play(GAME, state, ANN, command, Rng(seed, 1))


def refused(state: Table, command: Command) -> str:
    return stories.refused(GAME, state, ANN, command, Rng(1, 1))


def seed_rolling(face: int) -> int:
    """A seed whose die roll shows `face`."""
    return next(s for s in range(200) if Rng(s, 1).roll(6) == face)


def test_a_roll_collects_the_beetle_on_that_log_space_which_is_refilled_face_up() -> None:
    state = table()
    # Ann rolls a 3: the beetle on log space 3 is hers, and a face-down one replaces it.
    state, events = play(state, RollDie(), seed=seed_rolling(3))
    assert events[0] == DieRolled(seat=ANN, die="jb-die", face=3)
    assert events[1] == BeetleCollected(seat=ANN, beetle="jb-scarab-13", space=3)
    assert isinstance(events[2], LogFilled) and events[2].space == 3
    assert state.holding == "jb-scarab-13" and state.log[2] == events[2].beetle
    assert events[2].beetle not in state.supply


def test_a_six_lets_you_take_any_of_the_five_face_up_beetles() -> None:
    state, events = play(table(), RollDie(), seed=seed_rolling(6))
    assert events == [DieRolled(seat=ANN, die="jb-die", face=6)]
    assert list(GAME.legal(state, ANN)) == [TakeBeetle(beetle=b) for b in table().log if b]
    assert refused(state, RollDie()) == "choose_a_beetle"
    state, _ = play(state, TakeBeetle(beetle="jb-scarab-15"))
    assert state.holding == "jb-scarab-15" and state.phase == "place"


def test_the_first_beetle_goes_anywhere_and_later_ones_must_touch_one_orthogonally() -> None:
    state = table(holding="jb-jewel-09", phase="place")
    assert len(list(GAME.legal(state, ANN))) == 16
    # With a beetle in the corner, a diagonal cell is refused; a side-by-side one is fine.
    state = table(layout("S...", "....", "....", "...."), holding="jb-jewel-09", phase="place")
    assert refused(state, PlaceBeetle(row=1, col=1)) == "must_touch_a_beetle"
    assert refused(state, PlaceBeetle(row=0, col=0)) == "cell_taken"
    assert refused(state, PlaceBeetle(row=0, col=4)) == "outside_the_box"
    assert set(GAME.legal(state, ANN)) == {PlaceBeetle(row=0, col=1), PlaceBeetle(row=1, col=0)}


def test_a_box_is_seen_as_rows_whose_row_and_col_are_those_placing_names() -> None:
    state = table(layout("S...", "....", "....", "...."), holding="jb-jewel-09", phase="place")
    state, _ = play(state, PlaceBeetle(row=1, col=0))
    shown = GAME.view(state, BEA)
    assert isinstance(shown, JewelBoxView)
    box = shown.boxes[ANN]
    assert len(box) == 4 and all(len(row) == 4 for row in box)
    assert box[0][0] == "jb-scarab-01" and box[1][0] == "jb-jewel-09"


def test_the_magnifying_glass_takes_a_face_down_beetle_instead_of_rolling() -> None:
    state = table(layout("S...", "....", "....", "...."))
    before = len(state.supply)
    state, events = play(state, UseMagnifier(token="magnifier", beetle=None))
    collected = events[-1]
    assert isinstance(collected, BeetleCollected) and collected.space is None
    assert len(state.supply) == before - 1 and state.holding == collected.beetle
    assert state.tools[ANN] == ["forceps", "either"]
    # One tool per turn: the forceps wait for another turn, so placing ends the turn.
    state, events = play(state, PlaceBeetle(row=0, col=1))
    assert events[-1] == TurnBegan(seat=BEA)


def test_only_one_tool_may_be_used_per_turn() -> None:
    state = table(layout("SW..", "....", "....", "...."))
    # Ann swaps with the forceps before collecting; the magnifier is then closed to her.
    state, events = play(
        state, UseForceps(token="forceps", beetles=("jb-scarab-01", "jb-weevil-01"))
    )
    assert events[-1] == BeetlesSwapped(seat=ANN, beetles=("jb-scarab-01", "jb-weevil-01"))
    assert state.boxes[ANN][:2] == ["jb-weevil-01", "jb-scarab-01"]
    assert refused(state, UseMagnifier(token="magnifier", beetle=None)) == "one_tool_per_turn"
    assert list(GAME.legal(state, ANN)) == [RollDie()]


def test_the_either_token_serves_as_magnifying_glass_or_forceps_and_tools_are_single_use() -> None:
    state = table(layout("SW..", "....", "....", "...."), tools=("either",))
    assert UseMagnifier(token="either", beetle="jb-scarab-11") in GAME.legal(state, ANN)
    assert UseForceps(token="either", beetles=("jb-scarab-01", "jb-weevil-01")) in set(
        GAME.legal(state, ANN)
    )
    assert refused(state, UseMagnifier(token="magnifier", beetle=None)) == "token_used"
    assert refused(state, UseForceps(token="magnifier", beetles=("a", "b"))) == "wrong_token"


def test_the_forceps_may_be_used_after_placing_then_the_die_passes() -> None:
    state = table(layout("SW..", "....", "....", "...."), holding="jb-jewel-09", phase="place")
    state, events = play(state, PlaceBeetle(row=0, col=2))
    # The forceps are still unused: Ann may swap now, or pass the die.
    assert state.phase == "after" and EndTurn() in GAME.legal(state, ANN)
    swap = UseForceps(token="forceps", beetles=("jb-jewel-09", "jb-scarab-01"))
    state, events = play(state, swap)
    assert state.boxes[ANN][:3] == ["jb-jewel-09", "jb-weevil-01", "jb-scarab-01"]
    assert events[-1] == TurnBegan(seat=BEA)


def test_a_scarab_scores_when_its_neighbours_are_all_of_different_families() -> None:
    grid = GRIDS[4]
    box = layout("S...", "HW..", "LSJ.", ".H..")
    # Corner scarab (0,0): longhorn below -> scores 2. Middle scarab (2,1): W, L, J, H -> 3.
    assert scarabs(box, grid, "all_different") == 2 + 3
    # Two neighbours of one family spoil it; a scarab neighbour spoils it in both readings.
    repeated = layout("....", ".W..", "LSL.", ".H..")
    assert scarabs(repeated, grid, "all_different") == 0
    assert scarabs(repeated, grid, "no_scarab") == 3
    touching = layout("SS..", "....", "....", "....")
    assert scarabs(touching, grid, "no_scarab") == 0


def test_weevils_score_as_a_group_joined_horizontally_or_vertically() -> None:
    grid = GRIDS[4]
    assert weevils(layout("WW..", "....", "....", "...."), grid) == 3
    assert weevils(layout("WWW.", "....", "....", "...."), grid) == 6
    assert weevils(layout("WWWW", "....", "....", "...."), grid) == 10
    # An L of three is a group of three: 6.
    assert weevils(layout("WW..", ".W..", "....", "...."), grid) == 6
    # An L of four is a group of four: 10; so is a square.
    assert weevils(layout("WWW.", "..W.", "....", "...."), grid) == 10
    assert weevils(layout("WW..", "WW..", "....", "...."), grid) == 10
    # Weevils touching only at a corner are two lone weevils.
    assert weevils(layout("W...", ".W..", "....", "...."), grid) == 0


def test_a_group_of_five_or_more_weevils_scores_as_its_best_split_into_groups_of_two_to_four() -> (
    None
):
    grid = GRIDS[4]
    # A T of five: a group of four and one weevil left over (10), not a three and a two (9).
    assert weevils(layout("WWW.", ".W..", ".W..", "...."), grid) == 10
    # Six in two rows: a group of four and a pair (13) beat two threes (12).
    assert weevils(layout("WWW.", "WWW.", "....", "...."), grid) == 13
    # A line of five in the 5x5 box is no group of five either: 10.
    assert weevils(layout("WWWWW", ".....", ".....", ".....", "....."), GRIDS[5]) == 10


def test_the_lines_option_scores_straight_lines_only_and_each_weevil_counts_once() -> None:
    grid = GRIDS[4]
    assert weevils(layout("WW..", "....", "....", "...."), grid, "lines") == 3
    assert weevils(layout("WWW.", "....", "....", "...."), grid, "lines") == 6
    assert weevils(layout("WWWW", "....", "....", "...."), grid, "lines") == 10
    # A bent group is no line of three: the best is one pair (3); an L of four, 6.
    assert weevils(layout("WW..", ".W..", "....", "...."), grid, "lines") == 3
    assert weevils(layout("WWW.", "..W.", "....", "...."), grid, "lines") == 6
    # A T: the top row of three, then the stem's other two weevils as a pair: 6 + 3.
    assert weevils(layout("WWW.", ".W..", ".W..", "...."), grid, "lines") == 9
    # A cross: the centre joins one line only, the ends left over score nothing.
    assert weevils(layout(".W..", "WWW.", ".W..", "...."), grid, "lines") == 6
    # A line of five (5x5 box) scores 15.
    assert weevils(layout("WWWWW", ".....", ".....", ".....", "....."), GRIDS[5], "lines") == 15


def test_the_weevil_option_decides_the_final_score_sheet() -> None:
    # Ann's last beetle closes an L of three weevils; Bea's box is already full.
    ann = layout("WWHH", "H.HH", "HHHH", "HHHH")
    full = layout("LLLL", "LLLL", "LLLL", "LLLS")
    scored: list[tuple[WeevilRule, int]] = [("connected", 6), ("lines", 3)]
    for rule, points in scored:
        options = JewelBoxOptions(box_side=4, weevil_groups=rule)
        state = table(ann, holding="jb-weevil-09", phase="place", tools=(), options=options)
        state.boxes[BEA] = full
        _, events = play(state, PlaceBeetle(row=1, col=1))
        end = events[-1]
        assert isinstance(end, GameEnded) and end.sheets[ANN].weevil == points


def test_ladybugs_score_by_how_many_touch_no_other_ladybug() -> None:
    grid = GRIDS[4]
    assert ladybugs(layout("L.L.", "....", "L.L.", "...."), grid) == 8
    # Two touching ladybugs are not lone; the other three are.
    assert ladybugs(layout("LL.L", "....", "L.L.", "...."), grid) == 4
    assert ladybugs(layout("L...", "....", "....", "...."), grid) == 0


def test_longhorns_score_two_each_if_even_one_each_if_odd() -> None:
    assert longhorns(layout("HHHH", "....", "....", "....")) == 8
    assert longhorns(layout("HHH.", "....", "....", "....")) == 3


def test_jewels_score_five_per_pair_and_nothing_in_a_group_of_three() -> None:
    grid = GRIDS[4]
    assert jewels(layout("JJ.J", "...J", "....", "J..."), grid) == 10
    assert jewels(layout("JJJ.", "....", "....", "...."), grid) == 0


def test_the_game_ends_when_every_box_is_full_and_unused_tools_score_two() -> None:
    # Ann fills her last cell and has no tools left; Bea's box is full, her tools unused.
    ann = layout("HHHH", "HHHH", "HHHH", "HHH.")
    state = table(ann, holding="jb-jewel-01", phase="place", tools=())
    full = layout("LLLL", "LLLL", "LLLL", "LLLS")
    state.boxes[BEA] = full
    state, events = play(state, PlaceBeetle(row=3, col=3))
    end = events[-1]
    assert isinstance(end, GameEnded)
    assert end.sheets[ANN].longhorn == 15 and end.sheets[ANN].tools == 0
    assert end.sheets[BEA].tools == 6 and end.sheets[BEA].ladybug == 0
    assert end.sheets[BEA].total == 6
    assert GAME.to_act(state) == frozenset()


def test_two_players_use_a_five_by_five_box_and_three_a_four_by_four() -> None:
    two = GAME.initial(JewelBoxOptions(), 2)
    three = GAME.initial(JewelBoxOptions(), 3)
    assert two.side == 5 and len(two.boxes[0]) == 25
    assert three.side == 4 and len(three.boxes[0]) == 16
    assert GAME.check_options is not None
    with pytest.raises(Rejected):
        GAME.check_options(JewelBoxOptions(box_side=5), 3)


def test_face_down_beetles_never_show_in_a_view() -> None:
    state = table()
    shown = msgspec.json.encode(GAME.view(state, BEA)).decode()
    assert not any(b in shown for b in GAME.hidden(state, BEA))
    assert all(FAMILY_OF[b] for b in state.supply)
