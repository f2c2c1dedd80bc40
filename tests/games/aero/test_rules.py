"""Aero: the conformance kit, then the rulebook's tricky cases as short stories."""

from __future__ import annotations

from domain.games.aero import GAME
from domain.games.aero.commands import Arrest, Command, FlipCriminal, RollDice, SetAside
from domain.games.aero.dice import ALL_DICE, BANDIT_DICE, CRIMINALS, NUMBER_DICE
from domain.games.aero.events import (
    CriminalArrested,
    CriminalFlipped,
    DiceRolled,
    DiceSetAside,
    Event,
    GameEnded,
    TurnBegan,
)
from domain.games.aero.state import AeroOptions, Dealt, Phase, Table
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA = 0, 1


def table(
    bandits: tuple[str, str, str, str] | None = None,
    numbers: tuple[str, str, str, str] | None = None,
    *,
    kept: tuple[str, ...] | None = None,
    done: dict[int, list[str]] | None = None,
    seats: int = 2,
    player: int = ANN,
    options: AeroOptions | None = None,
) -> Table:
    """A table where `player` has rolled `bandits` + `numbers` and set aside `kept`."""
    faces = {}
    if bandits and numbers:
        faces = dict(zip(BANDIT_DICE + NUMBER_DICE, bandits + numbers, strict=True))
    dealt: list[list[Dealt]] = [[] for _ in range(seats)]
    for seat, criminals in (done or {}).items():
        dealt[seat] = [Dealt(criminal=c, arrested=True, points=1) for c in criminals]
    if kept is None:
        kept = ALL_DICE if faces else ()
    phase: Phase = "roll" if not faces else "arrest" if len(kept) == 8 else "set_aside"
    return Table(
        seats=seats,
        options=options or AeroOptions(),
        phase=phase,
        player=player,
        turn=len(dealt[player]) + 1,
        faces=faces,
        kept=list(kept),
        dealt=dealt,
    )


def play(
    state: Table, command: Command, seat: int = ANN, rng: Rng | None = None
) -> tuple[Table, list[Event]]:
    return stories.play(GAME, state, seat, command, rng or Rng(7, state.turn))


def refused(state: Table, command: Command, seat: int = ANN) -> str:
    return stories.refused(GAME, state, seat, command)


CLOWN, FLY = "clown", "fly"


def test_the_pages_example_scores_three_clowns_times_the_lowest_number() -> None:
    # Ann ends her rolling with Clown, Clown, Clown, Fly and 2, 2, 4, 5.
    state = table((CLOWN, CLOWN, CLOWN, FLY), ("2", "2", "4", "5"))
    # Arresting the Clown scores 3 x 2; the Fly would have scored 1 x 2.
    _, events = play(state, Arrest(criminal=CLOWN))
    assert events[0] == CriminalArrested(seat=ANN, criminal=CLOWN, count=3, value=2, points=6)
    _, events = play(state, Arrest(criminal=FLY))
    assert events[0] == CriminalArrested(seat=ANN, criminal=FLY, count=1, value=2, points=2)


def test_a_snake_eye_counts_as_one_unless_all_four_number_dice_show_it() -> None:
    # Three snake eyes and a 5: the lowest number is 1.
    state = table((CLOWN, CLOWN, FLY, FLY), ("eye", "eye", "eye", "5"))
    _, events = play(state, Arrest(criminal=CLOWN))
    assert events[0] == CriminalArrested(seat=ANN, criminal=CLOWN, count=2, value=1, points=2)


def test_four_snake_eyes_are_worth_seven() -> None:
    # All four number dice show the snake eye: each counts 7, so two Clowns score 14.
    state = table((CLOWN, CLOWN, FLY, FLY), ("eye", "eye", "eye", "eye"))
    _, events = play(state, Arrest(criminal=CLOWN))
    assert events[0] == CriminalArrested(seat=ANN, criminal=CLOWN, count=2, value=7, points=14)


def test_the_number_dice_run_from_one_snake_eye_to_six() -> None:
    # Ann throws: each bandit die lands on its first face, each number die on its last.
    state, events = play(table(), RollDice(), rng=Rigged(0, 0, 0, 0, 5, 5, 5, 5))
    (rolled,) = events
    assert isinstance(rolled, DiceRolled)
    assert [d.face for d in rolled.dice] == [CLOWN] * 4 + ["6"] * 4
    # Four clowns and four sixes: 4 x 6.
    state, _ = play(state, SetAside(dice=tuple(sorted(ALL_DICE))))
    _, events = play(state, Arrest(criminal=CLOWN))
    assert events[0] == CriminalArrested(seat=ANN, criminal=CLOWN, count=4, value=6, points=24)


def test_the_newer_pages_number_dice_are_an_option_with_no_six() -> None:
    # The same throw with the BGA faces: the last face of every number die is a 5.
    bga = table(options=AeroOptions(number_dice="bga"))
    _, events = play(bga, RollDice(), rng=Rigged(0, 0, 0, 0, 5, 5, 5, 5))
    (rolled,) = events
    assert isinstance(rolled, DiceRolled)
    assert [d.face for d in rolled.dice] == [CLOWN] * 4 + ["5"] * 4
    # Their first two faces: the blue dice show two snake eyes, the black dice one.
    _, events = play(bga, RollDice(), rng=Rigged(0, 0, 0, 0, 1, 1, 1, 1))
    assert isinstance(events[0], DiceRolled)
    assert [d.face for d in events[0].dice][4:] == ["eye", "eye", "2", "2"]


def test_every_roll_is_recorded_with_each_die_and_its_face() -> None:
    # Ann opens her turn with a throw of all eight dice.
    state, events = play(table(), RollDice())
    (rolled,) = events
    assert isinstance(rolled, DiceRolled)
    assert [d.die for d in rolled.dice] == list(ALL_DICE)
    assert state.phase == "set_aside" and state.faces == {d.die: d.face for d in rolled.dice}


def test_at_least_one_die_must_be_set_aside_after_each_roll() -> None:
    state, _ = play(table(), RollDice())
    assert refused(state, SetAside(dice=())) == "set_aside_at_least_one"
    # A die named twice or out of order is not a canonical split.
    assert refused(state, SetAside(dice=("aero-blue-1", "aero-bandit-1"))) == "dice_not_sorted"
    assert refused(state, SetAside(dice=("aero-blue-1", "aero-blue-1"))) == "dice_not_sorted"


def test_set_aside_dice_are_never_rerolled() -> None:
    state, _ = play(table(), RollDice())
    # Ann splits two dice; only the six others are thrown again.
    kept = ("aero-bandit-1", "aero-blue-1")
    state, events = play(state, SetAside(dice=kept))
    assert events[0] == DiceSetAside(seat=ANN, dice=kept)
    assert isinstance(events[1], DiceRolled)
    assert {d.die for d in events[1].dice} == set(ALL_DICE) - set(kept)
    # A die once set aside cannot be split again.
    assert refused(state, SetAside(dice=("aero-bandit-1",))) == "die_already_set_aside"
    splits = [c for c in GAME.legal(state, ANN) if isinstance(c, SetAside)]
    assert splits and all("aero-bandit-1" not in c.dice for c in splits)


def test_setting_aside_every_remaining_die_ends_the_rolling() -> None:
    state, _ = play(table(), RollDice())
    state, events = play(state, SetAside(dice=tuple(sorted(ALL_DICE))))
    # No reroll follows: Ann must now arrest (or flip) a criminal.
    assert events == [DiceSetAside(seat=ANN, dice=tuple(sorted(ALL_DICE)))]
    assert state.phase == "arrest"
    assert refused(state, RollDice()) == "already_rolled"


def test_a_criminal_not_on_the_bandit_dice_cannot_be_arrested() -> None:
    state = table((CLOWN, CLOWN, CLOWN, CLOWN), ("2", "3", "4", "5"))
    assert refused(state, Arrest(criminal=FLY)) == "criminal_not_rolled"
    assert refused(state, Arrest(criminal="joker")) == "unknown_criminal"


def test_a_criminal_already_arrested_cannot_be_arrested_again() -> None:
    # Ann arrested the Clown on an earlier turn and rolls Clowns and one Fly.
    state = table((CLOWN, CLOWN, CLOWN, FLY), ("2", "3", "4", "5"), done={ANN: [CLOWN]})
    assert refused(state, Arrest(criminal=CLOWN)) == "criminal_already_dealt_with"
    assert list(GAME.legal(state, ANN)) == [Arrest(criminal=FLY)]


def test_with_no_wanted_criminal_rolled_one_must_be_flipped_for_zero() -> None:
    # Ann has arrested the Clown and the Fly, and rolls only Clowns and Flies.
    state = table((CLOWN, FLY, CLOWN, FLY), ("2", "3", "4", "5"), done={ANN: [CLOWN, FLY]})
    assert refused(state, Arrest(criminal=CLOWN)) == "criminal_already_dealt_with"
    # She chooses any of her four unarrested criminals to flip, and scores 0.
    assert list(GAME.legal(state, ANN)) == [FlipCriminal(criminal=c) for c in CRIMINALS[2:]]
    state, events = play(state, FlipCriminal(criminal="criminal-5"))
    assert events[0] == CriminalFlipped(seat=ANN, criminal="criminal-5")
    assert state.dealt[ANN][-1] == Dealt(criminal="criminal-5", arrested=False, points=0)


def test_flipping_is_refused_while_a_wanted_criminal_shows() -> None:
    state = table((CLOWN, FLY, FLY, FLY), ("2", "3", "4", "5"), done={ANN: [CLOWN]})
    assert refused(state, FlipCriminal(criminal="criminal-3")) == "must_arrest_a_rolled_criminal"


def test_arresting_before_every_die_is_set_aside_is_refused() -> None:
    state = table((CLOWN, FLY, FLY, FLY), ("2", "3", "4", "5"), kept=("aero-bandit-1",))
    assert refused(state, Arrest(criminal=CLOWN)) == "dice_still_rolling"


def test_turns_pass_in_seat_order_and_the_game_ends_after_six_turns_each() -> None:
    # Bea is on her sixth and last turn; Ann already dealt with all six criminals.
    five = list(CRIMINALS[:5])
    state = table(
        (CLOWN, CLOWN, CLOWN, "criminal-6"),
        ("3", "3", "4", "5"),
        done={ANN: list(CRIMINALS), BEA: five},
        player=BEA,
    )
    state, events = play(state, Arrest(criminal="criminal-6"), seat=BEA)
    assert events[-1] == GameEnded(scores=(6, 5 + 3))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (2, 1)
    assert GAME.to_act(state) == frozenset()


def test_after_an_arrest_the_next_seat_begins_its_turn() -> None:
    state = table((CLOWN, CLOWN, CLOWN, FLY), ("2", "2", "4", "5"))
    state, events = play(state, Arrest(criminal=CLOWN))
    assert events[-1] == TurnBegan(seat=BEA, turn=1)
    assert GAME.to_act(state) == frozenset({BEA})


def test_before_edition_2_a_conceding_players_turns_are_skipped() -> None:
    """The game's own concede, the rule of matches created before table edition 2."""
    state = table(seats=3)
    state = GAME.evolve(state, TurnBegan(seat=ANN, turn=1))
    conceded = GAME.concede(state, ANN, Rng(1, 1))
    assert conceded is not None
    events, state = GAME.settle(state, conceded)
    assert events[-1] == TurnBegan(seat=BEA, turn=1)
    assert GAME.to_act(state) == frozenset({BEA})
