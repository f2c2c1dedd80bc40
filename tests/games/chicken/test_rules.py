"""Chicken!: the conformance kit, then the rules page told as short stories.

Every story starts from a rigged table and rigged dice: `Rigged("chicken", "fox")` makes
the next rolls (in table order: whites, yellows, oranges, Blue, Mother Hen) and the next
Seed Bag draws come out as written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import msgspec
from msgspec.structs import replace

from domain import match as m
from domain.games.chicken import GAME
from domain.games.chicken.commands import (
    ChickenOut,
    Command,
    CountChickens,
    GoForIt,
    HatchFromBag,
    HatchFromCoop,
    Reroll,
)
from domain.games.chicken.dice import ALL_DICE, ORDER, WHITE_DICE, DieId, Face
from domain.games.chicken.events import (
    Busted,
    ChickenedOut,
    ChickensCounted,
    CoopRefilled,
    DicePassed,
    DiceReturned,
    DiceRolled,
    DieHatched,
    EggsUnhatched,
    Event,
    GameWon,
    PlayerConceded,
    Roll,
)
from domain.games.chicken.state import InPlay, Options, Phase, State, initial
from domain.games.chicken.view import TableView
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged

T = TypeVar("T")
WHITES: dict[DieId, Face | None] = {die: None for die in WHITE_DICE}


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


# --- a tiny table ---------------------------------------------------------------------------


def table(
    *,
    scores: Sequence[int] = (0, 0),
    holder: int = 0,
    dice: Mapping[DieId, Face | None] = WHITES,
    coop: Sequence[DieId] | None = None,
    eggspansion: bool = False,
    phase: Phase = "choosing",
    rerolled: bool = False,
    eggs_to_hatch: int = 0,
) -> State:
    """A table where `holder` has `dice` in front of them. The Coop holds every other
    coloured die unless given; with the Eggspansion the Seed Bag holds the rest."""
    base = initial(Options(eggspansion=eggspansion), len(scores))
    coloured = [d for d in ALL_DICE if d not in WHITE_DICE and d not in dice]
    if eggspansion:
        coop = list(coop or [])
        bag = [d for d in coloured if d not in coop]
    else:
        coop, bag = (list(coop) if coop is not None else coloured), []
    return replace(
        base,
        scores=list(scores),
        holder=holder,
        dice=[InPlay(die=d, face=dice[d]) for d in sorted(dice, key=ORDER.__getitem__)],
        coop=coop,
        seed_bag=bag,
        phase=phase,
        rerolled=rerolled,
        eggs_to_hatch=eggs_to_hatch,
    )


def play(state: State, command: Command, *outcomes: str) -> tuple[State, list[Event]]:
    """The holder sends `command`; the dice and draws come out as `outcomes`."""
    return stories.play(GAME, state, state.holder, command, Rigged(*outcomes))


def refused(state: State, command: Command) -> str:
    return stories.refused(GAME, state, state.holder, command, Rigged(), listed=False)


def faces(state: State) -> dict[DieId, Face | None]:
    return {d.die: d.face for d in state.dice}


def seen(state: State, seat: int | None) -> TableView:
    """The table as `seat` sees it (GAME.view, typed as the view it returns)."""
    shown = GAME.view(state, seat)
    assert isinstance(shown, TableView)
    return shown


# --- Go For It! / Chicken Out! --------------------------------------------------------------


def test_chickening_out_on_the_starting_space_costs_nothing() -> None:
    # Ann is still on the starting space and was passed a yellow die.
    state = table(scores=(0, 3), dice={**WHITES, "ch-yellow-1": None})
    # She chickens out: the yellow die goes home, only the whites are rolled.
    after, events = play(state, ChickenOut(), "chicken", "blank", "blank", "blank")
    assert events[0] == ChickenedOut(seat=0, points_lost=0)
    assert after.scores == [0, 3]
    assert "ch-yellow-1" in after.coop
    assert list(faces(after)) == list(WHITE_DICE)


def test_a_farmer_knocked_back_to_the_start_chickens_out_without_going_below_it() -> None:
    # Bea scored once and was knocked back to 0: she left the starting space, but no space
    # lies behind it.
    state = table(scores=(0, 3), holder=0, dice=WHITES)
    state = replace(state, scores=[0, 3])
    # She chickens out: her token cannot move back, so she stays at 0.
    after, events = play(state, ChickenOut(), "chicken", "blank", "blank", "blank")
    assert events[0] == ChickenedOut(seat=0, points_lost=0)
    assert after.scores[0] == 0


def test_chickening_out_off_the_starting_space_costs_a_point() -> None:
    # Ann has 5 points and was passed a yellow and an orange die.
    state = table(scores=(5, 0), dice={**WHITES, "ch-yellow-1": None, "ch-orange-1": None})
    after, events = play(state, ChickenOut(), "blank", "blank", "blank", "blank")
    # She drops to 4 and both coloured dice return to the Coop.
    assert after.scores == [4, 0]
    assert DiceReturned(seat=0, dice=("ch-yellow-1", "ch-orange-1"), to="coop") in events
    assert {"ch-yellow-1", "ch-orange-1"} <= set(after.coop)


def test_a_score_never_drops_below_zero() -> None:
    # Ann chickens out from 1 point, back to the starting space.
    state = table(scores=(1, 0))
    state, _ = play(state, ChickenOut(), "blank", "blank", "blank", "blank")
    state, _ = play(state, CountChickens())
    assert state.scores == [0, 0]
    # Bea rolls blanks and counts nothing; the dice come back to Ann.
    state, _ = play(state, GoForIt(), "blank", "blank", "blank", "blank")
    state, _ = play(state, CountChickens())
    # Chickening out again from 0 costs nothing: no negative score.
    state, events = play(state, ChickenOut(), "blank", "blank", "blank", "blank")
    assert events[0] == ChickenedOut(seat=0, points_lost=0)
    assert state.scores == [0, 0]


# --- busting --------------------------------------------------------------------------------


def test_three_foxes_bust_score_nothing_and_pass_only_the_whites() -> None:
    # Ann goes for it with a yellow and an orange die passed to her.
    state = table(scores=(7, 0), dice={**WHITES, "ch-yellow-1": None, "ch-orange-1": None})
    rolls = ("fox", "fox", "chicken", "egg", "chicken", "fox")
    after, events = play(state, GoForIt(), *rolls)
    # Three foxes: bust. The chickens score nothing and the egg hatches nothing.
    assert Busted(seat=0, foxes=3, barks=0) in events
    assert not any(isinstance(e, DieHatched | ChickensCounted) for e in events)
    assert after.scores == [7, 0]
    # The coloured dice go home; Bea gets only the 4 white dice, unrolled.
    assert {"ch-yellow-1", "ch-orange-1"} <= set(after.coop)
    assert events[-1] == DicePassed(seat=0, to=1, dice=WHITE_DICE)
    assert after.holder == 1 and faces(after) == WHITES


# --- hatching -------------------------------------------------------------------------------


def test_eggs_hatch_yellow_dice_before_orange_ones() -> None:
    # One yellow die is left in the Coop, behind two orange ones.
    state = table(coop=["ch-yellow-4", "ch-orange-1", "ch-orange-2"])
    after, events = play(state, GoForIt(), "egg", "egg", "blank", "blank")
    hatched = [e.die for e in events if isinstance(e, DieHatched)]
    assert hatched == ["ch-yellow-4", "ch-orange-1"]
    assert after.coop == ["ch-orange-2"]


def test_an_egg_hatches_nothing_when_the_coop_is_empty() -> None:
    state = table(coop=[])
    after, events = play(state, GoForIt(), "egg", "chicken", "blank", "blank")
    assert EggsUnhatched(seat=0, eggs=1) in events
    assert list(faces(after)) == list(WHITE_DICE)
    assert after.phase == "deciding"


def test_newly_hatched_dice_count_as_blank_and_all_dice_pass_on() -> None:
    # Ann rolls an egg and a chicken: a yellow die hatches, unrolled.
    state = table()
    state, _ = play(state, GoForIt(), "egg", "chicken", "blank", "blank")
    assert faces(state)["ch-yellow-1"] is None
    middle = seen(state, 1).middle
    assert [(d.die, d.face) for d in middle if d.colour == "yellow"] == [
        ("ch-yellow-1", "unrolled")
    ]
    # Counting scores only the chicken, and the hatched die goes to Bea with the whites.
    state, events = play(state, CountChickens())
    assert ChickensCounted(seat=0, points=1, score=1) in events
    assert events[-1] == DicePassed(seat=0, to=1, dice=(*WHITE_DICE, "ch-yellow-1"))
    # Bea goes for it and rolls all five.
    state, events = play(state, GoForIt(), "blank", "blank", "blank", "blank", "chicken")
    assert len(next(e for e in events if isinstance(e, DiceRolled)).rolls) == 5


# --- the reroll -----------------------------------------------------------------------------


def test_set_aside_dice_are_not_rerolled() -> None:
    # A chicken and a fox are set aside; an egg, a blank and a hatched die are in the middle.
    dice: dict[DieId, Face | None] = {
        "ch-white-1": "chicken",
        "ch-white-2": "fox",
        "ch-white-3": "egg",
        "ch-white-4": "blank",
        "ch-yellow-1": None,
    }
    state = table(dice=dice, phase="deciding")
    _, events = play(state, Reroll(), "blank", "chicken", "chicken")
    rolled = next(e for e in events if isinstance(e, DiceRolled))
    assert [r.die for r in rolled.rolls] == ["ch-white-3", "ch-white-4", "ch-yellow-1"]
    assert rolled.reroll


def test_there_is_only_one_reroll_and_then_the_chickens_are_counted() -> None:
    dice: dict[DieId, Face | None] = {**WHITES, "ch-white-1": "chicken", "ch-white-2": "egg"}
    state = table(dice={k: v or "blank" for k, v in dice.items()}, phase="deciding")
    # The reroll shows an egg: the die it hatches is not rolled, the turn is counted at once.
    after, events = play(state, Reroll(), "egg", "chicken", "blank")
    assert [type(e).__name__ for e in events] == [
        "DiceRolled",
        "DieHatched",
        "ChickensCounted",
        "DicePassed",
    ]
    assert ChickensCounted(seat=0, points=2, score=2) in events
    assert after.holder == 1
    # With the Eggspansion the farmer picks the hatch first, but may not reroll again.
    expansion = table(
        dice={**WHITES, "ch-white-1": "egg"},
        eggspansion=True,
        coop=["ch-orange-1"],
        phase="hatching",
        rerolled=True,
        eggs_to_hatch=1,
    )
    assert refused(expansion, Reroll()) == "already_rerolled"
    assert Reroll() not in GAME.legal(expansion, 0)
    _, events = play(expansion, HatchFromCoop(die="ch-orange-1"))
    assert isinstance(events[-1], DicePassed)


def test_nothing_to_reroll_when_every_die_is_set_aside() -> None:
    dice: dict[DieId, Face | None] = dict.fromkeys(WHITE_DICE, "chicken")
    state = table(dice=dice, phase="deciding")
    assert GAME.legal(state, 0) == [CountChickens()]
    assert refused(state, Reroll()) == "nothing_to_reroll"


# --- counting and winning -------------------------------------------------------------------


def test_a_double_chicken_is_worth_two_points() -> None:
    dice: dict[DieId, Face | None] = {
        **WHITES,
        "ch-white-1": "chicken",
        "ch-orange-1": "double_chicken",
    }
    state = table(dice=dice, phase="deciding")
    _, events = play(state, CountChickens())
    assert ChickensCounted(seat=0, points=3, score=3) in events


def test_ending_a_turn_with_25_points_wins_at_once() -> None:
    # Ann has 23, Bea 24: Ann counts 3 and wins; Bea gets no last turn.
    dice: dict[DieId, Face | None] = {
        **WHITES,
        "ch-white-1": "chicken",
        "ch-orange-1": "double_chicken",
    }
    state = table(scores=(23, 24, 10), dice=dice, phase="deciding")
    after, events = play(state, CountChickens())
    assert events[-1] == GameWon(seat=0, reason="goal")
    assert not any(isinstance(e, DicePassed) for e in events)
    assert GAME.to_act(after) == frozenset()
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.ranks == (1, 2, 3) and outcome.scores == (26, 24, 10)


# --- the Eggspansion ------------------------------------------------------------------------


def test_a_bark_cancels_one_fox() -> None:
    state = table(dice={**WHITES, "ch-dog": None}, eggspansion=True, coop=["ch-yellow-1"])
    # Three foxes and a Bark!: only two foxes count, no bust.
    after, events = play(state, GoForIt(), "fox", "fox", "fox", "blank", "bark")
    assert not any(isinstance(e, Busted) for e in events)
    assert seen(after, 0).foxes == 2
    # Four foxes and a Bark! still bust.
    refill = ("ch-yellow-2", "ch-yellow-3", "ch-orange-1", "ch-dog")
    _, events = play(state, GoForIt(), "fox", "fox", "fox", "fox", "bark", *refill)
    assert Busted(seat=0, foxes=4, barks=1) in events


def test_happy_dog_scores_but_stays_in_the_middle_to_be_rerolled() -> None:
    dice: dict[DieId, Face | None] = {**WHITES, "ch-white-1": "chicken", "ch-dog": "happy_dog"}
    state = table(
        dice={k: v or "blank" for k, v in dice.items()}, eggspansion=True, phase="deciding"
    )
    _, counted = play(state, CountChickens())
    assert ChickensCounted(seat=0, points=2, score=2) in counted
    _, rerolled = play(state, Reroll(), "blank", "blank", "blank", "bark")
    rolled = next(e for e in rerolled if isinstance(e, DiceRolled))
    assert Roll(die="ch-dog", face="bark") in rolled.rolls


def test_a_chick_hatches_a_die_and_scores_a_point() -> None:
    state = table(dice={**WHITES, "ch-hen": None}, eggspansion=True, coop=["ch-yellow-1"])
    state, _ = play(state, GoForIt(), "chicken", "blank", "blank", "blank", "chick")
    # The Chick is an egg: one die to hatch, and it stays in the middle.
    assert state.phase == "hatching" and state.eggs_to_hatch == 1
    assert "ch-hen" in [d.die for d in seen(state, 0).middle]
    state, _ = play(state, HatchFromCoop(die="ch-yellow-1"))
    # ... and a point: chicken + chick.
    _, events = play(state, CountChickens())
    assert ChickensCounted(seat=0, points=2, score=2) in events


def test_each_egg_hatches_a_coop_die_or_a_seed_bag_draw_as_the_farmer_chooses() -> None:
    state = table(eggspansion=True, coop=["ch-yellow-1", "ch-orange-1", "ch-dog"])
    state, _ = play(state, GoForIt(), "egg", "egg", "blank", "blank")
    # Two eggs: every Coop die, or a blind draw, is on offer.
    assert GAME.legal(state, 0) == [
        HatchFromCoop(die="ch-yellow-1"),
        HatchFromCoop(die="ch-orange-1"),
        HatchFromCoop(die="ch-dog"),
        HatchFromBag(),
    ]
    assert refused(state, CountChickens()) == "eggs_to_hatch"
    assert refused(state, HatchFromCoop(die="ch-hen")) == "die_not_in_coop"
    # Ann takes Blue the Dog from the Coop, then draws Mother Hen from the bag.
    state, events = play(state, HatchFromCoop(die="ch-dog"))
    assert events == [DieHatched(seat=0, die="ch-dog", source="coop")]
    state, events = play(state, HatchFromBag(), "ch-hen")
    assert events == [DieHatched(seat=0, die="ch-hen", source="bag")]
    assert state.coop == ["ch-yellow-1", "ch-orange-1"] and "ch-hen" not in state.seed_bag
    assert state.phase == "deciding"


def test_a_bust_with_the_eggspansion_refills_the_coop_to_five() -> None:
    # The Coop is down to two dice; Ann holds a yellow die and Blue.
    state = table(
        dice={**WHITES, "ch-yellow-1": None, "ch-dog": None},
        eggspansion=True,
        coop=["ch-yellow-2", "ch-orange-1"],
    )
    draws = ("ch-dog", "ch-orange-3", "ch-hen")
    after, events = play(
        state, GoForIt(), "fox", "fox", "fox", "blank", "chicken", "happy_dog", *draws
    )
    # Her coloured dice go into the bag, three are drawn out, and only the whites pass on.
    assert DiceReturned(seat=0, dice=("ch-yellow-1", "ch-dog"), to="bag") in events
    assert CoopRefilled(dice=draws) in events
    assert after.coop == ["ch-yellow-2", "ch-orange-1", "ch-orange-3", "ch-dog", "ch-hen"]
    assert events[-1] == DicePassed(seat=0, to=1, dice=WHITE_DICE)


# --- leaving the table ----------------------------------------------------------------------


def _table(edition: int) -> tuple[list[Any], Any]:
    """A three-farmer match of that table edition, started, and its `send`."""
    box: list[Any] = [None]

    def send(command: Any) -> list[Any]:
        events = m.decide(box[0], command, edition=edition)
        box[0] = m.fold(events, box[0])
        return events

    send(m.CreateMatch(game="chicken", seats=3))
    for player in ("ann", "bea", "cid"):
        send(m.JoinMatch(player=player))
    send(m.StartMatch(player="ann", seed=11))
    return box, send


def test_a_farmer_who_concedes_is_played_by_a_bot_and_ranks_last() -> None:
    box, send = _table(m.EDITION)
    holder = box[0].game_state.holder
    names = ("ann", "bea", "cid")
    # The farmer holding the dice leaves: a bot rolls for them until the dice move on.
    events = send(m.Concede(player=names[holder]))
    assert m.BotPlayed(seat=holder) in events
    assert box[0].game_state.holder != holder
    moves = 0
    while box[0].status == "playing":
        state = box[0]
        acting = sorted(GAME.to_act(state.game_state))
        assert holder not in acting, "the bot moves within the decision that hands it the dice"
        seat = acting[0]
        send(
            m.PlayMove(
                player=names[seat],
                move=msgspec.Raw(
                    msgspec.json.encode(sorted(GAME.legal(state.game_state, seat), key=repr)[0])
                ),
            )
        )
        moves += 1
        assert moves < GAME.max_moves
    outcome = box[0].outcome
    assert outcome is not None and outcome.ranks[holder] == 3


def test_before_edition_2_a_farmer_who_concedes_is_skipped_and_the_last_farmer_wins() -> None:
    box, send = _table(0)
    holder = box[0].game_state.holder
    names = ("ann", "bea", "cid")
    # The farmer holding the dice leaves: the whites go on to the next farmer.
    events = send(m.Concede(player=names[holder]))
    passed = events[-1]
    assert isinstance(passed, DicePassed) and passed.dice == WHITE_DICE
    assert passed.to == (holder + 1) % 3
    # Another leaves out of turn: the last farmer wins at once.
    other = (holder + 2) % 3
    events = send(m.Concede(player=names[other]))
    assert PlayerConceded(seat=other) in events
    assert GameWon(seat=passed.to, reason="last_player") in events
    state = box[0]
    assert state.status == "finished" and state.outcome is not None
    assert state.outcome.winners == (passed.to,)


# --- the commentary -------------------------------------------------------------------------


def test_the_history_reads_like_a_table_commentator() -> None:
    names = ["Ann", "Bea"]
    shown: tuple[Face, ...] = ("chicken", "chicken", "egg", "fox")
    rolls = tuple(Roll(die=d, face=f) for d, f in zip(WHITE_DICE, shown, strict=True))
    assert (
        GAME.describe(DiceRolled(seat=1, rolls=rolls, reroll=False), 0, names)
        == "Bea rolled: chicken, chicken, egg, fox (white)."
    )
    assert GAME.describe(DieHatched(seat=1, die="ch-yellow-3", source="coop"), 0, names) == (
        "Bea hatched a yellow die from the Coop."
    )
    assert GAME.describe(Busted(seat=0, foxes=3, barks=0), 0, names) == (
        "You busted with 3 foxes and scored nothing this turn."
    )
    passed = DicePassed(seat=0, to=1, dice=(*WHITE_DICE, "ch-orange-2"))
    assert GAME.describe(passed, 1, names) == "Ann passed 4 white dice and an orange die to you."
    # Every event of a played match reads as a sentence for every reader.
    encoded = msgspec.json.encode(GameWon(seat=1, reason="goal"))
    assert GAME.describe(msgspec.json.decode(encoded, type=GameWon), None, names) == (
        "Bea reached 25 points and won the game!"
    )
