"""Abrachadabra: the conformance kit, then the page's sentences as short stories."""

from __future__ import annotations

from domain.games.abrachadabra import GAME
from domain.games.abrachadabra.cards import CARDS, PILE_OF, PILES
from domain.games.abrachadabra.commands import (
    Command,
    DrawCard,
    KeepCard,
    KeepStudying,
    TakeDiploma,
    UsePotion,
)
from domain.games.abrachadabra.events import (
    CardDrawn,
    CardKept,
    DiplomaTaken,
    Event,
    ExamBegan,
    ExamLost,
    ExamScored,
    FeatherTaken,
    GameEnded,
    PlayerConceded,
    StudiesStopped,
    TurnBegan,
    VisionSeen,
)
from domain.games.abrachadabra.rules import legal
from domain.games.abrachadabra.state import (
    AbrachadabraOptions,
    KnownTop,
    Phase,
    Standing,
    Student,
    Table,
)
from domain.games.abrachadabra.view import view
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA, CID = 0, 1, 2

# A few cards by what they show.
R1 = ["ab-burrow-01-rabbit1", "ab-burrow-02-rabbit1", "ab-burrow-03-rabbit1"]
R2 = ["ab-burrow-10-rabbit2", "ab-burrow-11-rabbit2", "ab-burrow-12-rabbit2"]
R3 = ["ab-moonlight-06-rabbit3", "ab-moonlight-07-rabbit3", "ab-moonlight-08-rabbit3"]
CATS = ["ab-moonlight-10-cat", "ab-moonlight-11-cat", "ab-moonlight-12-cat"]
WOOL = "ab-cauldron-08-wool"
POTION = "ab-cauldron-12-potion"
GRIMOIRE = "ab-library-13-grimoire"


def table(
    ann: list[str],
    bea: list[str] | None = None,
    cid: list[str] | None = None,
    *,
    standings: tuple[Standing, Standing, Standing] = ("studying", "studying", "studying"),
    diplomas: list[int] | None = None,
    piles: dict[str, list[str]] | None = None,
    tops: dict[str, KnownTop] | None = None,
    points: tuple[int, int, int] = (0, 0, 0),
    feather: int | None = None,
    player: int = ANN,
    phase: Phase = "draw",
    ends_at_22: bool = False,
) -> Table:
    """A day exam at a three-seat table, Ann to play; every card not in front of someone
    is in its own pile."""
    cards = [ann, bea or [], cid or []]
    laid = {c for row in cards for c in row}
    if piles is None:
        piles = {p: sorted(c for c in CARDS if PILE_OF[c] == p and c not in laid) for p in PILES}
    return Table(
        seats=3,
        options=AbrachadabraOptions(ends_at_22=ends_at_22),
        phase=phase,
        exam=1,
        time="day",
        first=ANN,
        player=player,
        students=[
            Student(cards=list(row), standing=standing, points=score)
            for row, standing, score in zip(cards, standings, points, strict=True)
        ],
        diplomas=[4, 5, 6, 7, 8] if diplomas is None else diplomas,
        piles=piles,
        tops=tops or {},
        feather=feather,
    )


def empty_piles() -> dict[str, list[str]]:
    return {p: [] for p in PILES}


def play(
    state: Table, command: Command, *outcomes: str, seat: int = ANN
) -> tuple[Table, list[Event]]:
    """`seat` sends `command`; the unknown top cards come out as `outcomes`."""
    return stories.play(GAME, state, seat, command, Rigged(*outcomes))


def refused(state: Table, command: Command, seat: int = ANN) -> str:
    return stories.refused(GAME, state, seat, command)


# --- drawing ---------------------------------------------------------------------------------


def test_a_card_is_drawn_from_one_of_the_four_piles_and_laid_face_up() -> None:
    # Ann draws from the library; the card lies in front of her, seen by everyone.
    state = table([])
    after, events = play(state, DrawCard(pile="library"), "ab-library-10-cat")
    assert events[0] == CardDrawn(seat=ANN, pile="library", card="ab-library-10-cat")
    assert GAME.redact(events[0], BEA) == events[0]
    assert after.students[ANN].cards == ["ab-library-10-cat"]
    assert "ab-library-10-cat" not in after.piles["library"]
    assert "ab-library-10-cat" in view(after, CID).players[ANN].cards
    # Then it is Bea's turn.
    assert events[-1] == TurnBegan(seat=BEA)


def test_an_empty_pile_cannot_be_drawn_from() -> None:
    piles = empty_piles()
    piles["burrow"] = [R1[0]]
    state = table([], piles=piles)
    assert refused(state, DrawCard(pile="moonlight")) == "pile_empty"
    assert legal(state, ANN) == [DrawCard(pile="burrow")]


def test_only_the_student_whose_turn_it_is_plays() -> None:
    assert refused(table([]), DrawCard(pile="burrow"), seat=BEA) == "not_your_turn"


# --- diplomas --------------------------------------------------------------------------------


def test_exactly_the_rabbits_of_an_available_diploma_let_you_take_it_and_end_your_exam() -> None:
    # Ann has three rabbits; she draws a one-rabbit card: four, the day's 4 diploma.
    state = table([R1[0], R2[0]])
    after, events = play(state, DrawCard(pile="burrow"), R1[1])
    assert after.phase == "diploma" and after.player == ANN
    assert legal(after, ANN) == [TakeDiploma(value=4), KeepStudying()]
    # She takes it: her exam is over, the diploma leaves the offer, Bea plays.
    after, events = play(after, TakeDiploma(value=4))
    assert events == [DiplomaTaken(seat=ANN, value=4), TurnBegan(seat=BEA)]
    assert after.students[ANN].standing == "graduated"
    assert after.diplomas == [5, 6, 7, 8]
    # Her turns are skipped from now on.
    after, events = play(after, DrawCard(pile="burrow"), R1[2], seat=BEA)
    after, events = play(after, DrawCard(pile="burrow"), R2[1], seat=CID)
    assert events[-1] == TurnBegan(seat=BEA)


def test_taking_the_diploma_is_a_choice_and_studying_on_keeps_you_in_the_exam() -> None:
    state = table([R1[0], R2[0]])
    after, _ = play(state, DrawCard(pile="burrow"), R1[1])
    after, events = play(after, KeepStudying())
    assert events == [TurnBegan(seat=BEA)]
    assert after.students[ANN].standing == "studying" and after.diplomas == [4, 5, 6, 7, 8]


def test_a_rabbit_count_matching_no_diploma_gives_no_choice() -> None:
    # Night diplomas are 3, 5, 7, 9, 11: four rabbits match none.
    state = table([R1[0], R2[0]], diplomas=[3, 5, 7, 9, 11])
    after, events = play(state, DrawCard(pile="burrow"), R1[1])
    assert events[-1] == TurnBegan(seat=BEA)
    assert refused(table([R2[0], R2[1]]), TakeDiploma(value=4)) == "no_diploma_due"


def test_a_taken_diploma_is_gone_for_the_others_in_that_exam() -> None:
    # Bea already took the 5; Ann reaches five rabbits: no choice to make.
    state = table([R2[0], R2[1]], diplomas=[4, 6, 7, 8])
    _, events = play(state, DrawCard(pile="burrow"), R1[0])
    assert events[-1] == TurnBegan(seat=BEA)


def test_the_diploma_taken_must_be_the_one_the_rabbits_match() -> None:
    state = table([R1[0], R2[0], R1[1]], phase="diploma")
    assert refused(state, TakeDiploma(value=5)) == "diploma_not_matched"
    assert refused(state, DrawCard(pile="burrow")) == "decide_on_the_diploma"


# --- rabbits, black cats, wool balls ----------------------------------------------------------


def test_more_rabbits_than_the_biggest_diploma_lose_the_exam() -> None:
    # Ann has seven rabbits; a three-rabbit card makes ten, above the day's 8.
    state = table([R3[0], R2[0], R2[1]])
    after, events = play(state, DrawCard(pile="moonlight"), R3[1])
    assert events[1] == ExamLost(seat=ANN, reason="rabbits")
    assert after.students[ANN].standing == "lost"
    assert events[-1] == TurnBegan(seat=BEA)


def test_the_biggest_diploma_is_the_biggest_still_offered() -> None:
    # ASSUMPTION: the 8 is taken; eight rabbits are now more than the biggest, the 7.
    state = table([R3[0], R2[0], R2[1]], diplomas=[4, 5, 6, 7])
    _, events = play(state, DrawCard(pile="burrow"), R1[0])
    assert events[1] == ExamLost(seat=ANN, reason="rabbits")


def test_a_third_black_cat_loses_the_exam() -> None:
    state = table([CATS[0], CATS[1]])
    _, events = play(state, DrawCard(pile="moonlight"), CATS[2])
    assert events[1] == ExamLost(seat=ANN, reason="cats")


def test_a_wool_ball_takes_up_one_cat_so_a_third_cat_is_safe() -> None:
    state = table([CATS[0], CATS[1], WOOL])
    after, events = play(state, DrawCard(pile="moonlight"), CATS[2])
    assert events == [
        CardDrawn(seat=ANN, pile="moonlight", card=CATS[2]),
        TurnBegan(seat=BEA),
    ]
    assert view(after, None).players[ANN].loose_cats == 2


def test_losing_comes_before_the_diploma() -> None:
    # ASSUMPTION: a third loose cat loses the exam even if the rabbits match a diploma.
    state = table([CATS[0], CATS[1], R2[0], R1[0]])
    _, events = play(state, DrawCard(pile="library"), "ab-library-10-cat")
    assert events[1] == ExamLost(seat=ANN, reason="cats")


def test_there_is_no_leaving_an_exam_without_a_diploma() -> None:
    # ASSUMPTION: on your turn you draw (or drink); there is no stopping.
    assert all(isinstance(c, DrawCard) for c in legal(table([R1[0]]), ANN))


# --- vision potions --------------------------------------------------------------------------


def test_a_vision_potion_shows_two_top_cards_to_its_drinker_alone() -> None:
    state = table([POTION])
    assert UsePotion(potion=POTION, pile="moonlight") in legal(state, ANN)
    after, events = play(state, UsePotion(potion=POTION, pile="moonlight"), CATS[0], R3[0])
    seen = VisionSeen(seat=ANN, potion=POTION, pile="moonlight", count=2, cards=(CATS[0], R3[0]))
    assert events == [seen]
    # Only Ann learns the cards; the potion is spent.
    assert GAME.redact(seen, BEA) == VisionSeen(
        seat=ANN, potion=POTION, pile="moonlight", count=2, cards=None
    )
    assert after.students[ANN].cards == []
    assert view(after, ANN).vision == [CATS[0], R3[0]]
    assert view(after, BEA).vision is None
    assert CATS[0] in GAME.hidden(after, BEA) and CATS[0] not in GAME.hidden(after, ANN)
    assert legal(after, ANN) == [KeepCard(card=CATS[0]), KeepCard(card=R3[0])]


def test_keeping_one_card_puts_the_other_back_on_top_where_the_drinker_knows_it() -> None:
    state = table([POTION])
    after, _ = play(state, UsePotion(potion=POTION, pile="moonlight"), CATS[0], R3[0])
    after, events = play(after, KeepCard(card=R3[0]))
    assert events[0] == CardKept(seat=ANN, pile="moonlight", card=R3[0])
    assert after.students[ANN].cards == [R3[0]]
    # The cat is back on the moonlight pile, its top, and Ann alone knows it.
    assert CATS[0] in after.piles["moonlight"]
    assert view(after, ANN).piles[1].top_known == CATS[0]
    assert view(after, BEA).piles[1].top_known is None
    assert CATS[0] not in GAME.hidden(after, ANN) and CATS[0] in GAME.hidden(after, BEA)
    # Bea draws from that pile: the cat comes, without any chance.
    after, events = play(after, DrawCard(pile="moonlight"), seat=BEA)
    assert events[0] == CardDrawn(seat=BEA, pile="moonlight", card=CATS[0])
    assert after.tops == {}


def test_a_kept_card_has_its_effect_as_a_drawn_one_does() -> None:
    state = table([POTION, R2[0], R1[0]])
    after, _ = play(state, UsePotion(potion=POTION, pile="burrow"), R1[1], R1[2])
    after, _ = play(after, KeepCard(card=R1[1]))
    assert after.phase == "diploma"
    assert legal(after, ANN)[0] == TakeDiploma(value=4)


def test_a_potion_is_drunk_instead_of_drawing_and_must_be_your_own() -> None:
    assert refused(table([], [POTION]), UsePotion(potion=POTION, pile="burrow")) == (
        "no_such_potion"
    )
    state, _ = play(table([POTION]), UsePotion(potion=POTION, pile="burrow"), R1[0], R1[1])
    assert refused(state, DrawCard(pile="burrow")) == "keep_a_card_first"
    assert refused(state, KeepCard(card=R1[2])) == "card_not_seen"
    assert refused(table([]), KeepCard(card=R1[0])) == "no_vision"


def test_a_vision_of_a_one_card_pile_shows_that_card() -> None:
    piles = empty_piles()
    piles["burrow"] = [R1[0]]
    state = table([POTION], piles=piles)
    after, events = play(state, UsePotion(potion=POTION, pile="burrow"), R1[0])
    assert events[0] == VisionSeen(seat=ANN, potion=POTION, pile="burrow", count=1, cards=(R1[0],))
    assert legal(after, ANN) == [KeepCard(card=R1[0])]


def test_a_second_vision_sees_the_known_top_and_one_more() -> None:
    tops = {"moonlight": KnownTop(CATS[0], [BEA])}
    state = table([POTION], tops=tops)
    after, events = play(state, UsePotion(potion=POTION, pile="moonlight"), R3[0])
    assert events[0].cards == (CATS[0], R3[0])  # type: ignore[union-attr]
    # Ann keeps the three rabbits: the cat stays on top, known to both who saw it.
    after, _ = play(after, KeepCard(card=R3[0]))
    assert after.tops["moonlight"] == KnownTop(CATS[0], [ANN, BEA])


# --- the grimoire and the feather ------------------------------------------------------------


def test_drawing_the_grimoire_takes_the_feather() -> None:
    after, events = play(table([]), DrawCard(pile="library"), GRIMOIRE)
    assert events[1] == FeatherTaken(seat=ANN, stolen_from=None)
    assert after.feather == ANN and view(after, None).players[ANN].feather


def test_the_feather_is_stolen_by_the_next_grimoire_even_from_a_graduate() -> None:
    # Bea holds the feather and has her diploma; Ann draws a grimoire.
    state = table(
        [], ["ab-library-14-grimoire"], feather=BEA, standings=("studying", "graduated", "studying")
    )
    after, events = play(state, DrawCard(pile="library"), GRIMOIRE)
    assert events[1] == FeatherTaken(seat=ANN, stolen_from=BEA)
    assert after.feather == ANN
    # The grimoire card itself stays with Bea: only the feather changes hands.
    assert after.students[BEA].cards == ["ab-library-14-grimoire"]


def test_a_grimoire_drawn_by_the_feathers_holder_changes_nothing() -> None:
    _, events = play(
        table(["ab-library-14-grimoire"], feather=ANN), DrawCard(pile="library"), GRIMOIRE
    )
    assert not any(isinstance(e, FeatherTaken) for e in events)


# --- the end of an exam ----------------------------------------------------------------------


def last_card_of_the_exam() -> Table:
    """Bea has the 6 diploma, Cid lost; Ann, last in, has the 4 diploma within one rabbit."""
    state = table(
        [R2[0], R1[0], CATS[0], CATS[1], WOOL],
        [R2[1], R2[2], R1[1], "ab-library-10-cat"],
        [R3[0], R3[1], R3[2]],
        standings=("studying", "graduated", "lost"),
        diplomas=[4, 5, 7, 8],
        points=(10, 4, 20),
        feather=ANN,
    )
    state.students[BEA].diploma = 6
    return state


def test_the_exam_is_scored_once_nobody_is_left_and_a_night_exam_follows() -> None:
    state, _ = play(last_card_of_the_exam(), DrawCard(pile="burrow"), R1[2])
    after, events = play(state, TakeDiploma(value=4))
    # Ann: diploma 4, two black cats (one taken up by the wool ball still counts), the
    # feather 3 = 9. Bea: 6 + one cat = 7. Cid lost: nothing.
    assert events[1] == ExamScored(exam=1, points=(9, 7, 0), totals=(19, 11, 20))
    # The next exam is by night, opened by the next seat, with full piles.
    assert events[2] == ExamBegan(exam=2, time="night", first=BEA, diplomas=(3, 5, 7, 9, 11))
    assert events[3] == TurnBegan(seat=BEA)
    assert after.feather is None and after.students[ANN].cards == []
    assert sum(len(p) for p in after.piles.values()) == len(CARDS)


def test_the_feather_gives_nothing_to_a_student_who_lost() -> None:
    state = table([CATS[0], CATS[1]], standings=("studying", "graduated", "lost"), feather=ANN)
    state.students[BEA].diploma = 5
    _, events = play(state, DrawCard(pile="moonlight"), CATS[2])
    assert events[1] == ExamLost(seat=ANN, reason="cats")
    assert events[2] == ExamScored(exam=1, points=(0, 5, 0), totals=(0, 5, 0))


def test_with_every_pile_empty_the_students_still_in_stop_unbeaten() -> None:
    # ASSUMPTION: Ann draws the last card; she and Cid stop without a diploma.
    piles = empty_piles()
    piles["moonlight"] = [CATS[0]]
    state = table([R1[0]], [], [R1[1], "ab-library-10-cat"], piles=piles, feather=CID)
    state.students[BEA].standing = "lost"
    _, events = play(state, DrawCard(pile="moonlight"), CATS[0])
    assert events[1:4] == [
        StudiesStopped(seat=ANN),
        StudiesStopped(seat=CID),
        ExamScored(exam=1, points=(1, 0, 4), totals=(1, 0, 4)),
    ]


# --- the end of the game ---------------------------------------------------------------------


def test_the_game_ends_when_a_student_has_more_than_22_points() -> None:
    state = last_card_of_the_exam()
    state.students[CID].points = 22  # exactly 22: not yet more than 22
    state, _ = play(state, DrawCard(pile="burrow"), R1[2])
    after, events = play(state, TakeDiploma(value=4))
    assert isinstance(events[-1], TurnBegan)  # a new exam, 22 is not enough
    state = last_card_of_the_exam()
    state.students[ANN].points = 14  # 14 + 9 = 23
    state, _ = play(state, DrawCard(pile="burrow"), R1[2])
    after, events = play(state, TakeDiploma(value=4))
    assert events[-1] == GameEnded(totals=(23, 11, 20))
    # Most points wins.
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.ranks == (1, 3, 2)
    assert GAME.to_act(after) == frozenset()


def test_option_ends_at_22_ends_the_game_at_exactly_22_points() -> None:
    state = last_card_of_the_exam()
    state.options = AbrachadabraOptions(ends_at_22=True)
    state.students[CID].points = 22
    state, _ = play(state, DrawCard(pile="burrow"), R1[2])
    after, events = play(state, TakeDiploma(value=4))
    assert events[-1] == GameEnded(totals=(19, 11, 22))


def test_equal_points_share_the_rank() -> None:
    state = table([], phase="over", points=(25, 25, 3))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 1, 3)


def test_the_first_exam_is_by_day_and_seat_1_draws_first() -> None:
    state = GAME.initial(AbrachadabraOptions(), 2)
    events, after = GAME.settle(state, GAME.start(state, Rigged()))
    assert events == [
        ExamBegan(exam=1, time="day", first=ANN, diplomas=(4, 5, 6, 7, 8)),
        TurnBegan(seat=ANN),
    ]
    assert GAME.hidden(after, ANN) == frozenset(CARDS)


def test_before_edition_2_a_student_who_leaves_is_skipped_and_ranks_last() -> None:
    """The game's own concede, the rule of matches created before table edition 2."""
    state = table([R1[0]])
    events, after = GAME.settle(state, GAME.concede(state, ANN, Rigged()))  # type: ignore[arg-type]
    assert events == [PlayerConceded(seat=ANN), TurnBegan(seat=BEA)]
    after.phase = "over"
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.ranks[ANN] == 3
