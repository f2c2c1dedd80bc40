"""62 Soleils d'été: the conformance kit, then the page's sentences as short stories."""

from __future__ import annotations

from domain import match as m
from domain.games.soixantedeuxsoleilsdete import GAME
from domain.games.soixantedeuxsoleilsdete.commands import (
    ChooseSun,
    Command,
    CopyByCrab,
    NoCopy,
    SkipBonus,
    SunOnly,
    WriteBonus,
    WriteNumber,
)
from domain.games.soixantedeuxsoleilsdete.events import (
    BonusDeclined,
    CopyDeclined,
    DiceAllotted,
    DiceRolled,
    Event,
    GameEnded,
    NumberWritten,
    PlayerLeft,
    SunAdded,
    SunBonusWon,
    ZoneCompleted,
)
from domain.games.soixantedeuxsoleilsdete.rules import legal, stage
from domain.games.soixantedeuxsoleilsdete.state import Sheet, SoleilsOptions, Table
from domain.games.soixantedeuxsoleilsdete.view import view
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Match, Rigged


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA, CID = 0, 1, 2


def table(
    dice: tuple[int, int, int],
    ann: dict[str, int] | None = None,
    *,
    seats: int = 2,
    round: int = 3,
    total: int = 0,
    done: tuple[int, ...] = (),
    koi_free: bool = False,
) -> Table:
    """Round `round` at a table of `seats`; Ann's sheet holds `ann` and `total` suns; the
    others have written this roll already when listed in `done`."""
    sheets = []
    for seat in range(seats):
        suns = [1] * (round - 1)
        sheet = Sheet(
            values=dict(ann or {}) if seat == ANN else {},
            suns=suns + ([1] if seat in done else []),
            total=total if seat == ANN else sum(suns),
            allotted=seat in done,
        )
        sheets.append(sheet)
    return Table(
        seats=seats,
        options=SoleilsOptions(koi_free_direction=koi_free),
        round=round,
        dice=dice,
        sheets=sheets,
    )


def play(
    state: Table, command: Command, *outcomes: int, seat: int = ANN
) -> tuple[Table, list[Event]]:
    """`seat` sends `command`; the next dice, if rolled, come out as `outcomes`."""
    return stories.play(GAME, state, seat, command, Rigged(*outcomes))


def refused(state: Table, command: Command, seat: int = ANN) -> str:
    return stories.refused(GAME, state, seat, command)


# --- the round -------------------------------------------------------------------------------


def test_three_dice_are_rolled_and_every_player_writes_the_same_roll_at_once() -> None:
    state = GAME.initial(SoleilsOptions(), 3)
    events, after = GAME.settle(state, GAME.start(state, Rigged(4, 2, 5)))
    assert events == [DiceRolled(round=1, dice=(4, 2, 5))]
    assert GAME.to_act(after) == frozenset({ANN, BEA, CID})


def test_the_pearls_die_picks_the_slot_another_is_written_and_the_third_goes_to_the_sun() -> None:
    state = table((4, 2, 5), round=1)
    # bottle2's pearl is 4: Ann writes the 2 there; the 5 goes to the sun row.
    after, events = play(state, WriteNumber(slot="bottle2", value=2))
    assert events == [
        DiceAllotted(seat=ANN, pearl=4, value=2, sun=5),
        NumberWritten(
            seat=ANN, slot="bottle2", value=2, how="dice", pearl=False, crab=False, hat=False
        ),
        SunAdded(seat=ANN, value=5, total=5, chosen=False),
    ]
    assert after.sheets[ANN].suns == [5]
    # Ann is done with the roll; Bea still writes it, and may not be hurried.
    assert GAME.to_act(after) == frozenset({BEA})
    assert refused(after, WriteNumber(slot="bottle1", value=2)) == "not_your_turn"
    # Once Bea has written, the dice roll again.
    after, events = play(after, WriteNumber(slot="gull3", value=4), 6, 6, 1, seat=BEA)
    assert events[-1] == DiceRolled(round=2, dice=(6, 6, 1))
    assert GAME.to_act(after) == frozenset({ANN, BEA})


def test_the_slot_needs_a_die_showing_its_pearl_and_the_value_another_die() -> None:
    state = table((3, 5, 6))
    assert refused(state, WriteNumber(slot="bottle2", value=5)) == "pearl_not_rolled"
    # gull2's pearl 3 takes the only 3: no 3 is left to write.
    assert refused(state, WriteNumber(slot="gull2", value=3)) == "value_not_rolled"
    assert WriteNumber(slot="gull2", value=6) in legal(state, ANN)
    assert refused(table((3, 5, 6), {"gull2": 1}), WriteNumber(slot="gull2", value=6)) == (
        "slot_filled"
    )


def test_with_no_valid_slot_any_die_goes_to_the_sun_alone() -> None:
    # Every slot with a pearl of 1 is written: three 1s fit nowhere.
    full = {"cabin1-top": 2, "koi2-4": 2, "gull1": 2, "boat2-2": 2}
    state = table((1, 1, 1), full)
    assert legal(state, ANN) == [SunOnly(die=1)]
    after, events = play(state, SunOnly(die=1))
    assert events == [
        DiceAllotted(seat=ANN, pearl=None, value=None, sun=1),
        SunAdded(seat=ANN, value=1, total=1, chosen=False),
    ]
    # With a slot open to the dice, the sun-only step is refused.
    assert refused(table((4, 2, 5)), SunOnly(die=5)) == "slot_available"
    assert refused(state, SunOnly(die=4)) == "no_such_die"


# --- suns ------------------------------------------------------------------------------------


def test_an_exact_12_in_the_sun_row_wins_its_bonus_and_passing_it_wins_nothing() -> None:
    # Ann has 10 suns; the leftover 2 makes exactly 12: a shellfish.
    after, events = play(table((4, 5, 2), total=10), WriteNumber(slot="bottle2", value=5))
    assert events[-1] == SunBonusWon(seat=ANN, threshold=12, starfish=0, shellfish=1, number=False)
    assert after.sheets[ANN].shellfish == 1
    # From 11, the same 2 makes 13: no bonus.
    _, events = play(table((4, 5, 2), total=11), WriteNumber(slot="bottle2", value=5))
    assert not any(isinstance(e, SunBonusWon) for e in events)


def test_a_bonus_number_goes_in_an_empty_slot_of_the_players_choice() -> None:
    after, events = play(table((4, 5, 2), total=20), WriteNumber(slot="bottle2", value=5))
    assert events[-1] == SunBonusWon(seat=ANN, threshold=22, starfish=0, shellfish=0, number=True)
    assert stage(after, ANN) == "bonus"
    assert WriteBonus(slot="gull3", value=5) in legal(after, ANN)
    # The bonus number obeys the zone: bottles already hold 5.
    assert refused(after, WriteBonus(slot="bottle1", value=3)) == "bottles_alike"
    assert refused(after, WriteBonus(slot="gull3", value=7)) == "not_a_die_value"
    # Ann writes 5 on gull3's pearl 5: the pearl pays too.
    after, events = play(after, WriteBonus(slot="gull3", value=5))
    assert events[0] == NumberWritten(
        seat=ANN, slot="gull3", value=5, how="bonus", pearl=True, crab=False, hat=False
    )
    assert after.sheets[ANN].starfish == 1 and stage(after, ANN) == "done"


def test_a_bonus_number_may_be_left_and_its_sun_hat_chooses_nothing() -> None:
    after, _ = play(table((4, 5, 2), total=20), WriteNumber(slot="bottle2", value=5))
    left, events = play(after, SkipBonus())
    assert events == [BonusDeclined(seat=ANN)] and stage(left, ANN) == "done"
    # koi1-1 has a sun hat, but the sun is written already this round.
    hatted, events = play(after, WriteBonus(slot="koi1-1", value=1))
    assert events[0].hat is False  # type: ignore[union-attr]
    assert stage(hatted, ANN) == "done"


# --- bonuses ---------------------------------------------------------------------------------


def test_a_value_equal_to_the_pearl_scribbles_it_for_a_starfish() -> None:
    after, events = play(table((4, 4, 1)), WriteNumber(slot="bottle2", value=4))
    assert events[1].pearl is True  # type: ignore[union-attr]
    assert after.sheets[ANN].starfish == 1


def test_a_crab_copies_the_value_into_a_neighbour_of_another_zone_with_its_bonuses() -> None:
    # cabin2-bottom (pearl 6) has a crab: Ann writes 3 there; the 1 is for the sun.
    state = table((6, 3, 1))
    after, events = play(state, WriteNumber(slot="cabin2-bottom", value=3))
    assert events[1].crab is True  # type: ignore[union-attr]
    assert stage(after, ANN) == "crab"
    assert legal(after, ANN) == [
        CopyByCrab(slot="cabin2-top"),
        CopyByCrab(slot="cabin1-bottom"),
        CopyByCrab(slot="cabin3-bottom"),
        CopyByCrab(slot="koi1-2"),
        NoCopy(),
    ]
    # She copies it below, into the koi: koi1-2's pearl is 3, so that pearl pays.
    after, events = play(after, CopyByCrab(slot="koi1-2"))
    assert events == [
        NumberWritten(
            seat=ANN, slot="koi1-2", value=3, how="crab", pearl=True, crab=False, hat=False
        ),
        SunAdded(seat=ANN, value=1, total=1, chosen=False),
    ]
    assert after.sheets[ANN].values == {"cabin2-bottom": 3, "koi1-2": 3}


def test_a_crab_copies_only_where_the_value_may_go_and_may_be_declined() -> None:
    # cabin2-top holds 5: the copied 3 may not go there.
    after, _ = play(table((6, 3, 1), {"cabin2-top": 5}), WriteNumber(slot="koi1-4", value=3))
    assert refused(after, CopyByCrab(slot="cabin2-top")) == "crab_cannot_reach"
    after, events = play(after, NoCopy())
    assert events[0] == CopyDeclined(seat=ANN) and stage(after, ANN) == "done"


def test_a_filled_sun_hat_lets_the_player_choose_the_sun_value() -> None:
    # koi1-1 (pearl 2) has a sun hat: the sun die is 1, Ann chooses 6 instead.
    after, events = play(table((2, 5, 1)), WriteNumber(slot="koi1-1", value=5))
    assert events[1].hat is True and stage(after, ANN) == "hat"  # type: ignore[union-attr]
    assert legal(after, ANN) == [ChooseSun(value=v) for v in range(1, 7)]
    after, events = play(after, ChooseSun(value=6))
    assert events == [SunAdded(seat=ANN, value=6, total=6, chosen=True)]


def test_the_most_shellfish_win_5_starfish_and_equal_most_all_win_them() -> None:
    state = table((4, 5, 2), round=20, done=(BEA,))
    state.sheets[ANN].shellfish = 2
    state.sheets[BEA].shellfish = 2
    state.sheets[ANN].starfish = 7
    after, events = play(state, WriteNumber(slot="bottle2", value=5))
    assert events[-1] == GameEnded(majority=(ANN, BEA), scores=(12, 5))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.ranks == (1, 2)


def test_without_any_shellfish_nobody_wins_the_majority() -> None:
    state = table((4, 5, 2), round=20, done=(BEA,))
    _, events = play(state, WriteNumber(slot="bottle2", value=5))
    assert events[-1] == GameEnded(majority=(), scores=(0, 0))


# --- zones -----------------------------------------------------------------------------------


def test_a_cabins_top_and_bottom_hold_the_same_value() -> None:
    state = table((4, 5, 1), {"cabin1-top": 3})
    assert refused(state, WriteNumber(slot="cabin1-bottom", value=5)) == "cabin_must_match"
    assert WriteNumber(slot="cabin1-bottom", value=5) in legal(table((4, 5, 1)), ANN)


def test_a_kois_values_keep_the_order_printed_on_it() -> None:
    # koi1 is printed ascending: after a 4 in its first slot, a 2 cannot follow.
    state = table((3, 2, 6), {"koi1-1": 4})
    assert refused(state, WriteNumber(slot="koi1-2", value=2)) == "koi_out_of_order"
    assert WriteNumber(slot="koi1-2", value=6) in legal(state, ANN)
    # koi2 is printed descending.
    state = table((4, 6, 1), {"koi2-1": 5})
    assert refused(state, WriteNumber(slot="koi2-2", value=6)) == "koi_out_of_order"
    assert WriteNumber(slot="koi2-2", value=1) in legal(state, ANN)


def test_option_koi_free_direction_lets_a_koi_run_either_way_but_strictly() -> None:
    state = table((3, 2, 6), {"koi1-1": 4}, koi_free=True)
    after, _ = play(state, WriteNumber(slot="koi1-2", value=2))
    assert after.sheets[ANN].values["koi1-2"] == 2
    # Now it runs down: a 5 further right breaks it.
    state = table((5, 5, 1), {"koi1-1": 4, "koi1-2": 2}, koi_free=True)
    assert refused(state, WriteNumber(slot="koi1-3", value=5)) == "koi_out_of_order"


def test_neighbours_on_a_boat_line_differ() -> None:
    state = table((6, 5, 1), {"boat1-1": 5})
    assert refused(state, WriteNumber(slot="boat1-2", value=5)) == "boats_differ"
    # Two slots apart, the same value is fine.
    assert WriteNumber(slot="boat1-3", value=5) not in legal(state, ANN)  # no die shows 2
    assert WriteNumber(slot="boat1-3", value=5) in legal(table((2, 5, 1), {"boat1-1": 5}), ANN)


def test_every_bottle_holds_the_same_value_and_every_seagull_a_different_one() -> None:
    assert refused(table((4, 3, 1), {"bottle1": 2}), WriteNumber(slot="bottle2", value=3)) == (
        "bottles_alike"
    )
    assert refused(table((3, 5, 1), {"gull1": 5}), WriteNumber(slot="gull2", value=5)) == (
        "gulls_differ"
    )


def test_writing_the_last_slot_of_a_zone_wins_its_banner_at_once() -> None:
    state = table((6, 6, 2), {"bottle1": 6, "bottle2": 6})
    after, events = play(state, WriteNumber(slot="bottle3", value=6))
    assert events[2] == ZoneCompleted(seat=ANN, zone="bottles", starfish=3, shellfish=0)
    assert after.sheets[ANN].starfish == 3 + 1  # the banner and the pearl
    assert view(after, BEA).players[ANN].zones_completed == ["bottles"]


# --- the end ---------------------------------------------------------------------------------


def test_the_game_ends_when_the_last_sun_is_filled() -> None:
    state = table((4, 5, 2), round=20, done=(BEA,))
    after, events = play(state, WriteNumber(slot="bottle2", value=5))
    assert isinstance(events[-1], GameEnded) and after.over
    assert GAME.to_act(after) == frozenset()
    # Round 19 is not the end.
    state = table((4, 5, 2), round=19, done=(BEA,))
    _, events = play(state, WriteNumber(slot="bottle2", value=5), 1, 2, 3)
    assert events[-1] == DiceRolled(round=20, dice=(1, 2, 3))


def test_the_game_ends_once_a_sun_total_reaches_62_when_the_round_is_written() -> None:
    state = table((4, 5, 2), round=12, total=61)
    after, events = play(state, WriteNumber(slot="bottle2", value=5))
    assert events[-1] == SunAdded(seat=ANN, value=2, total=63, chosen=False)
    # Bea still writes this roll; then it is over.
    after, events = play(after, WriteNumber(slot="bottle2", value=2), seat=BEA)
    assert isinstance(events[-1], GameEnded)


def test_a_player_who_leaves_is_played_by_a_bot_that_writes_each_roll_with_the_others() -> None:
    # Table edition 2: the three write the first roll at once; Bea leaves before writing
    # it, and a bot writes it for her in that decision: nobody waits for her.
    t = Match("soixantedeuxsoleilsdete", 3, seed=1)
    assert t.acting() == [ANN, BEA, CID]
    events = t.concede(BEA)
    assert events[1] == m.BotPlayed(seat=BEA) and DiceAllotted in map(type, events)
    assert NumberWritten in map(type, events) and t.acting() == [ANN, CID]
    left_at = len(t.decisions)
    t.play_out()
    # Every later roll is written for her in the decision that rolled it.
    for decided in t.decisions[left_at:]:
        if any(isinstance(e, DiceRolled) for e in decided):
            assert m.BotPlayed(seat=BEA) in decided
    outcome = t.now.outcome
    assert outcome is not None and outcome.scores == (16, 14, 16)
    assert outcome.ranks == (1, 3, 1)


def test_before_edition_2_a_player_who_leaves_writes_no_more_and_ranks_last() -> None:
    """The game's own concede, the rule of matches created before table edition 2."""
    state = table((4, 5, 2), seats=3, done=(BEA,))
    state, _ = play(state, WriteNumber(slot="bottle2", value=5))
    events, after = GAME.settle(state, GAME.concede(state, CID, Rigged(1, 1, 1)))  # type: ignore[arg-type]
    assert events == [PlayerLeft(seat=CID), DiceRolled(round=4, dice=(1, 1, 1))]
    assert GAME.to_act(after) == frozenset({ANN, BEA})
