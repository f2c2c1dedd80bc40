"""Hypnosia: the conformance kit, then the rules page told as short stories.

Every story starts from a rigged table: `table({"hy-red-1": "outer-03"}, dice=(5, 4))`
puts only the pawns named on the board (the others are out of the game), with the dice
already thrown. `Rigged(6, 1)` makes the next throws come out as written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.games.hypnosia import GAME
from domain.games.hypnosia.board import BOARD
from domain.games.hypnosia.commands import MovePawns, RollDice
from domain.games.hypnosia.events import (
    CentreEntered,
    DiceForfeited,
    DiceRolled,
    Event,
    FirstPlayerChosen,
    GameEnded,
    PawnsCaptured,
    PawnsMoved,
    TurnPassed,
)
from domain.games.hypnosia.state import Options, State, initial
from domain.games.hypnosia.track import BRIDGE_TO, CENTRE, CIRCLE_OF
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


# --- a tiny table -----------------------------------------------------------------------------


def table(
    positions: Mapping[str, str],
    *,
    seats: int = 2,
    turn: int = 0,
    dice: Sequence[int] = (),
    centre: Sequence[str] = (),
    scores: Sequence[int] | None = None,
    colours: Sequence[str] | None = None,
    **options: bool,
) -> State:
    state = initial(Options(**options), seats)
    state.colours = list(colours) if colours is not None else state.colours
    state.positions = dict(positions)
    state.centre = list(centre)
    state.turn = turn
    state.dice = list(dice)
    state.phase = "moving" if dice else "rolling"
    state.scores = list(scores) if scores is not None else [0] * seats
    return state


def move(state: State, *pawns: str, pips: int, cross: bool = False) -> list[Event]:
    """The events of the player on turn moving `pawns` with the die showing `pips`."""
    command = MovePawns(pawns=tuple(pawns), pips=pips, cross_bridge=cross)
    return stories.play(GAME, state, state.turn, command, Rng(1, 1))[1]


def play(state: State, *pawns: str, pips: int, cross: bool = False) -> State:
    """The table after the player on turn moves `pawns` with the die showing `pips`."""
    command = MovePawns(pawns=tuple(pawns), pips=pips, cross_bridge=cross)
    return stories.play(GAME, state, state.turn, command, Rng(1, 1))[0]


def refusal(state: State, *pawns: str, pips: int, cross: bool = False) -> str:
    command = MovePawns(pawns=tuple(pawns), pips=pips, cross_bridge=cross)
    return stories.refused(GAME, state, state.turn, command, Rng(1, 1))


def throw(state: State, *faces: int) -> tuple[State, list[Event]]:
    """The player on turn throws the dice, which show `faces`."""
    return stories.play(GAME, state, state.turn, RollDice(), Rigged(*faces))


RED, YELLOW = "hy-red-", "hy-yellow-"


# --- setup and entering -----------------------------------------------------------------------


def test_the_highest_starting_throw_begins_and_a_tie_throws_again() -> None:
    # Ann and Bea both throw 6+5; they throw again: Ann 2+1, Bea 3+3.
    rng = Rigged(6, 5, 5, 6, 2, 1, 3, 3)
    events, _ = GAME.settle(initial(Options(), 2), GAME.start(initial(Options(), 2), rng))
    rng.assert_used()
    assert isinstance(events[0], FirstPlayerChosen)
    assert len(events[0].rounds) == 2
    assert events[0].seat == 1


def test_the_first_pawn_enters_with_any_die_but_the_last_needs_four_or_more() -> None:
    home = {f"{RED}{k}": f"red-start-{k}" for k in range(1, 5)}
    state = table(home, dice=(1, 3))
    # The pawn nearest the circle enters with a 1, onto the red entry space.
    assert play(state, RED + "1", pips=1).positions[RED + "1"] == "outer-00"
    # The last pawn cannot leave with a 3...
    assert refusal(state, RED + "4", pips=3) == "cannot_reach_circle"
    # ...but with a 6 it enters and burns the 2 pips left on the circle.
    assert play(table(home, dice=(6, 3)), RED + "4", pips=6).positions[RED + "4"] == "outer-02"


# --- burning the dice ------------------------------------------------------------------------


def test_a_pawn_cannot_stop_short_of_its_die() -> None:
    state = table({RED + "1": "outer-10", YELLOW + "1": "outer-30"}, dice=(5, 4))
    assert refusal(state, RED + "1", pips=3) == "no_such_die"
    assert play(state, RED + "1", pips=5).positions[RED + "1"] == "outer-15"


def test_one_pawn_may_use_both_dice_one_after_the_other() -> None:
    state = table({RED + "1": "outer-08", YELLOW + "1": "outer-30"}, dice=(5, 4))
    # Ann moves the same pawn 5, then 4: the turn passes to Bea.
    state = play(state, RED + "1", pips=5)
    events = move(state, RED + "1", pips=4)
    assert isinstance(events[0], PawnsMoved) and events[0].end == "outer-17"
    assert events[-1] == TurnPassed(seat=0, to=1)


def test_a_die_no_pawn_can_burn_is_lost() -> None:
    # Ann's only pawn is 3 behind Bea's stack: a single pawn may not end on it.
    stack = {YELLOW + "1": "outer-27", YELLOW + "2": "outer-27"}
    state = table({RED + "1": "outer-24", **stack})
    state, events = throw(state, 3, 2)
    assert events == [DiceRolled(seat=0, dice=(3, 2))]
    # The 2 is played first; from outer-26 the 3 jumps the stack to outer-29.
    assert GAME.legal(state, 0) == [MovePawns((RED + "1",), 2)]
    # Had she rolled 1 and 1, each would end on the stack: both dice are lost.
    state = table({RED + "1": "outer-26", **stack})
    _, events = throw(state, 1, 1)
    assert events[1:] == [DiceForfeited(seat=0, dice=(1, 1)), TurnPassed(seat=0, to=1)]


def test_each_die_is_used_if_it_can_be_when_its_turn_comes() -> None:
    # Ann: a pawn on her last start square, one on outer-10. Bea: stacks on 12 and 17.
    bea = {f"{YELLOW}{k}": "outer-12" if k < 3 else "outer-17" for k in range(1, 5)}
    ann = {RED + "4": "red-start-4", RED + "1": "outer-10"}
    state = table({**ann, **bea}, dice=(5, 2))
    # The 5 on outer-10 burns its pips exactly; then no pawn can burn the 2, which is lost.
    events = move(state, RED + "1", pips=5)
    assert events[-2:] == [DiceForfeited(seat=0, dice=(2,)), TurnPassed(seat=0, to=1)]


def test_with_the_both_dice_option_a_move_stranding_the_other_die_is_refused() -> None:
    bea = {f"{YELLOW}{k}": "outer-12" if k < 3 else "outer-17" for k in range(1, 5)}
    ann = {RED + "4": "red-start-4", RED + "1": "outer-10"}
    state = table({**ann, **bea}, dice=(5, 2), must_use_both_dice=True)
    # The 5 on outer-10 would leave the 2 unusable; entering with the 5 keeps it usable.
    assert refusal(state, RED + "1", pips=5) == "must_use_both_dice"
    assert GAME.legal(state, 0) == [MovePawns((RED + "4",), 5)]


def test_a_pawn_on_a_special_space_enters_the_centre_with_a_one_though_the_other_die_is_lost() -> (
    None
):
    # Ann's last pawn on a special space, dice 1 and 2: 2 then 1 would burn both dice,
    # but the page lets a 1 enter the centre and asks only that no pawn stop short.
    board = {RED + "1": "inner-03", YELLOW + "1": "outer-40"}
    state = table(board, dice=(1, 2))
    assert MovePawns((RED + "1",), 1, cross_bridge=True) in GAME.legal(state, 0)
    state, events = stories.play(GAME, state, 0, MovePawns((RED + "1",), 1, cross_bridge=True))
    assert state.centre == [RED + "1"] and state.scores == [5, 0]
    assert isinstance(events[0], CentreEntered)
    assert events[-2:] == [DiceForfeited(seat=0, dice=(2,)), TurnPassed(seat=0, to=1)]
    # Under the both-dice option the entry is refused: the pawn must go 2, then 1.
    strict = table(board, dice=(1, 2), must_use_both_dice=True)
    assert refusal(strict, RED + "1", pips=1, cross=True) == "must_use_both_dice"


# --- bridges ----------------------------------------------------------------------------------


def test_a_pawn_landing_on_a_bridge_with_the_first_die_crosses_with_the_second() -> None:
    state = table({RED + "1": "outer-02", YELLOW + "1": "outer-40"}, dice=(3, 4))
    # Ann lands on the bridge space outer-05 with the 3...
    state = play(state, RED + "1", pips=3)
    # ...and crosses with the 4: one step over the bridge, three on the middle circle.
    events = move(state, RED + "1", pips=4, cross=True)
    assert events[0] == PawnsMoved(0, (RED + "1",), 4, "outer-05", "middle-07", True)


def test_a_pawn_landing_on_a_bridge_with_the_second_die_crosses_next_turn() -> None:
    state = table({RED + "1": "outer-00", YELLOW + "1": "outer-40"}, dice=(1, 4))
    # Ann moves 1, then lands on the bridge space outer-05 with her second die.
    state = play(play(state, RED + "1", pips=1), RED + "1", pips=4)
    assert state.positions[RED + "1"] == "outer-05" and state.turn == 1
    # Bea plays her turn.
    state = play(GAME.evolve(state, DiceRolled(seat=1, dice=(2, 2))), YELLOW + "1", pips=2)
    state = play(state, YELLOW + "1", pips=2)
    # On Ann's next turn the bridge is open to the pawn.
    state = GAME.evolve(state, DiceRolled(seat=0, dice=(2, 6)))
    assert MovePawns((RED + "1",), 2, cross_bridge=True) in GAME.legal(state, 0)
    assert play(state, RED + "1", pips=2, cross=True).positions[RED + "1"] == "middle-05"


def test_a_pawn_passing_over_a_bridge_space_cannot_turn_inward() -> None:
    state = table({RED + "1": "outer-03", YELLOW + "1": "outer-40"}, dice=(4, 6))
    # The 4 passes outer-05 and ends on outer-07: the bridge was not landed on.
    assert refusal(state, RED + "1", pips=4, cross=True) == "not_on_a_bridge"
    assert play(state, RED + "1", pips=4).positions[RED + "1"] == "outer-07"


def test_no_move_leads_back_to_an_outer_circle() -> None:
    # middle-04 is where the outer bridge lands; it is no bridge back outward.
    state = table({RED + "1": "middle-04", YELLOW + "1": "outer-40"}, dice=(3, 5))
    assert refusal(state, RED + "1", pips=3, cross=True) == "not_on_a_bridge"
    ends = {
        CIRCLE_OF[play(state, *m.pawns, pips=m.pips).positions[RED + "1"]]
        for m in GAME.legal(state, 0)
        if isinstance(m, MovePawns)
    }
    assert ends == {"middle"}
    # Every bridge of the board leads inward (or into the centre).
    depth = {c.name: i for i, c in enumerate(BOARD.circles)}
    for space, over in BRIDGE_TO.items():
        assert over == CENTRE or depth[CIRCLE_OF[over]] == depth[CIRCLE_OF[space]] + 1


# --- stacks and captures ----------------------------------------------------------------------


def test_ending_on_your_own_pawn_makes_a_stack_that_moves_as_one() -> None:
    state = table(
        {RED + "1": "outer-10", RED + "2": "outer-14", YELLOW + "1": "outer-40"}, dice=(4, 3)
    )
    state = play(state, RED + "1", pips=4)
    state = play(state, RED + "1", RED + "2", pips=3)
    assert state.positions[RED + "1"] == state.positions[RED + "2"] == "outer-17"


def test_a_stack_holds_two_pawns_at_most_and_can_be_dismantled() -> None:
    stack = {RED + "1": "outer-14", RED + "2": "outer-14"}
    state = table({**stack, RED + "3": "outer-10", YELLOW + "1": "outer-40"}, dice=(4, 3))
    assert refusal(state, RED + "3", pips=4) == "stack_full"
    # Ann moves only one pawn of the stack: the other stays behind.
    state = play(state, RED + "2", pips=3)
    assert state.positions[RED + "1"] == "outer-14" and state.positions[RED + "2"] == "outer-17"


def test_a_single_pawn_captures_a_single_pawn_for_one_point_each_way() -> None:
    state = table({RED + "1": "outer-10", YELLOW + "1": "outer-13"}, dice=(3, 5), scores=(0, 5))
    events = move(state, RED + "1", pips=3)
    assert events[1] == PawnsCaptured(seat=0, victim=1, pawns=(YELLOW + "1",), space="outer-13")
    state = play(state, RED + "1", pips=3)
    assert state.scores == [1, 4]
    assert YELLOW + "1" not in state.positions


def test_a_stack_captures_a_stack_but_a_single_pawn_cannot() -> None:
    mine = {RED + "1": "outer-10", RED + "2": "outer-10"}
    theirs = {YELLOW + "1": "outer-13", YELLOW + "2": "outer-13", YELLOW + "3": "outer-40"}
    state = table({**mine, **theirs}, dice=(3, 6))
    assert refusal(state, RED + "1", pips=3) == "stack_too_strong"
    state = play(state, RED + "1", RED + "2", pips=3)
    assert state.scores == [2, -2]


def test_variant_a_stack_must_be_dismantled_before_crossing_a_bridge() -> None:
    stack = {RED + "1": "outer-05", RED + "2": "outer-05", YELLOW + "1": "outer-40"}
    state = table(stack, dice=(2, 3), stacks_cannot_cross=True)
    assert refusal(state, RED + "1", RED + "2", pips=2, cross=True) == "stack_cannot_cross"
    assert play(state, RED + "1", pips=2, cross=True).positions[RED + "1"] == "middle-05"
    # In the standard game the stack crosses together.
    standard = play(table(stack, dice=(2, 3)), RED + "1", RED + "2", pips=2, cross=True)
    assert standard.positions[RED + "2"] == "middle-05"


# --- the centre and the end -------------------------------------------------------------------


def test_only_an_exact_one_from_a_special_space_enters_the_centre() -> None:
    ann = {RED + "1": "inner-03", RED + "2": "outer-20", YELLOW + "1": "outer-40"}
    state = table(ann, dice=(2, 1))
    assert refusal(state, RED + "1", pips=2, cross=True) == "centre_needs_a_one"
    events = move(state, RED + "1", pips=1, cross=True)
    assert events[0] == CentreEntered(0, (RED + "1",), "inner-03", (5,))
    assert play(state, RED + "1", pips=1, cross=True).scores == [5, 0]


def test_a_stack_entering_with_four_pawns_in_the_centre_brings_one_and_ends_the_game() -> None:
    centre = [YELLOW + "1", YELLOW + "2", YELLOW + "3", "hy-red-4"]
    stack = {RED + "1": "inner-07", RED + "2": "inner-07", YELLOW + "4": "outer-40"}
    state = table(stack, dice=(1, 6), centre=centre, scores=(2, 12))
    events = move(state, RED + "1", RED + "2", pips=1, cross=True)
    assert events == [
        CentreEntered(0, (RED + "1",), "inner-07", (1,), left_behind=(RED + "2",)),
        GameEnded(reason="centre_full"),
    ]
    state = play(state, RED + "1", RED + "2", pips=1, cross=True)
    assert state.positions[RED + "2"] == "inner-07" and CENTRE not in state.positions.values()


def test_the_game_ends_when_no_pawn_is_left_on_the_board() -> None:
    # Ann captures Bea's last pawn: Ann's own pawns are still on the board, play goes on.
    ann = {RED + "1": "inner-02", RED + "2": "inner-20"}
    state = table({**ann, YELLOW + "1": "inner-04"}, dice=(2, 5), centre=[RED + "3"])
    state = play(state, RED + "1", pips=2)
    assert state.phase == "moving" and state.scores == [1, -1]
    # Later Ann's last pawn enters the centre: no pawn is left, the game is over.
    state = table({RED + "1": "inner-03"}, dice=(1, 4), centre=[RED + "2"], scores=(5, 0))
    assert move(state, RED + "1", pips=1, cross=True)[-1] == GameEnded(reason="board_empty")
    assert GAME.outcome(play(state, RED + "1", pips=1, cross=True)) is not None


def test_a_tie_is_broken_by_the_order_of_arrival_in_the_centre() -> None:
    # Bea's pawn arrived first (5), Ann's second (4); Ann also captured one: 5 all.
    state = table({}, centre=[YELLOW + "1", RED + "1"], scores=(5, 5))
    state.phase = "over"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (2, 1)


def test_before_edition_2_a_player_who_concedes_leaves_the_board_and_is_skipped() -> None:
    """The game's own concede, the rule of matches created before table edition 2."""
    # Three players; Bea concedes while Ann is on turn.
    state = table(
        {RED + "1": "outer-10", YELLOW + "1": "outer-30", "hy-green-1": "outer-20"},
        seats=3,
        colours=["red", "yellow", "green"],
        dice=(3, 4),
    )
    conceded = GAME.concede(state, 1, Rng(1, 1))
    assert conceded is not None
    _, state = GAME.settle(state, conceded)
    assert YELLOW + "1" not in state.positions
    # Ann finishes her turn: it passes to Cid, not Bea.
    state = play(play(state, RED + "1", pips=3), RED + "1", pips=4)
    assert state.turn == 2
    # With only two players left, another concession ends the match.
    assert GAME.concede(state, 2, Rng(1, 1)) is None
