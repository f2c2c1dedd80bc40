"""Beyond: the conformance kit, then the page's sentences as short stories."""

from __future__ import annotations

import msgspec

from domain.games.beyond import GAME
from domain.games.beyond.cards import NIAN_SHOU, Spirit
from domain.games.beyond.commands import (
    Capture,
    ChooseCard,
    Command,
    Enchant,
    EndTurn,
    PlaceCards,
    Protect,
    RevealCard,
    SummonAzureDragon,
    SummonMetalTiger,
    SummonTurtleSnake,
    SummonVermilionBird,
    SummonYellowUnicorn,
    TakeCards,
)
from domain.games.beyond.events import (
    CardCaptured,
    CardRevealed,
    CardsPlaced,
    CardsTaken,
    CardsTurnedUp,
    Compensated,
    EndTriggered,
    Event,
    GameEnded,
    HandDealt,
    NianShouGained,
    PileRebuilt,
    RevealSkipped,
    ScoreSheet,
    SpiritEnchanted,
    SpiritProtected,
    SpiritSummoned,
    TurnBegan,
)
from domain.games.beyond.scoring import score_sheet
from domain.games.beyond.state import Area, Options, Phase, State
from domain.games.beyond.view import view
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA = 0, 1


def c(colour: str, number: int) -> str:
    """A spirit card by colour and number: 01-08 are Yin, 09-16 Yang."""
    return f"by-{colour}-{number:02d}"


BLUE_YIN, BLUE_YANG = c("blue", 1), c("blue", 9)
RED_YIN, RED_YANG = c("red", 1), c("red", 9)
GREEN_YIN, GREEN_YANG = c("green", 1), c("green", 9)


def table(
    *,
    ann: Area | None = None,
    bea: Area | None = None,
    pile: tuple[str, ...] = (),
    discard: tuple[str, ...] = (),
    revealed: tuple[str, ...] = (),
    collected: tuple[str, ...] = (),
    phase: Phase = "act",
    player: int = ANN,
    advanced: bool = False,
    nian_supply: tuple[str, ...] = NIAN_SHOU,
    lotus_supply: int = 26,
    second_pile: bool = False,
    ending: bool = False,
) -> State:
    """Ann and Bea at the table, Ann to play; the pile is given top card last."""
    return State(
        seats=2,
        options=Options(advanced=advanced),
        pile=list(pile),
        areas=[ann or Area(lotus=2), bea or Area(lotus=2)],
        hands=[[], []],
        nian_supply=list(nian_supply),
        lotus_supply=lotus_supply,
        discard=list(discard),
        second_pile=second_pile,
        phase=phase,
        player=player,
        revealed=list(revealed),
        collected=list(collected),
        ending=ending,
    )


def play(state: State, command: Command, *outcomes: object) -> tuple[State, list[Event]]:
    return stories.play(GAME, state, state.player, command, Rigged(*outcomes))


def refused(state: State, command: Command) -> str:
    return stories.refused(GAME, state, state.player, command)


# --- setup ---------------------------------------------------------------------------------


def test_each_player_gets_a_stock_two_lotus_and_four_cards_placed_before_the_first_turn() -> None:
    state = GAME.initial(Options(), 2)
    events, state = GAME.settle(state, GAME.start(state, Rng(3, 0)))
    dealt = [e for e in events if isinstance(e, HandDealt)]
    assert [len(e.cards or ()) for e in dealt] == [4, 4]
    assert state.phase == "opening" and state.player == ANN
    assert [a.lotus for a in state.areas] == [2, 2] and state.lotus_supply == 26
    assert len(state.pile) == 80 - 8 and state.nian_supply == list(NIAN_SHOU)
    # Bea cannot see Ann's hand; Ann sees her own.
    ann_hand = state.hands[ANN]
    assert set(ann_hand) <= GAME.hidden(state, BEA) and not set(ann_hand) & GAME.hidden(state, ANN)
    assert GAME.redact(dealt[0], BEA) == HandDealt(seat=ANN, cards=None)
    assert view(state, BEA).hand == state.hands[BEA] and view(state, None).hand == []
    # Ann places her hand as in phase 2, then Bea, then Ann's first turn begins.
    capture = (sorted(ann_hand)[0],)
    state, _ = play(state, PlaceCards(capture=capture))
    assert state.areas[ANN].stock == list(capture) and len(state.areas[ANN].spirits) == 3
    assert state.phase == "opening" and state.player == BEA
    state, events = play(state, PlaceCards())
    assert events[-1] == TurnBegan(seat=ANN) and state.phase == "reveal"


# --- phase 1: reveal and collect -----------------------------------------------------------


def test_cards_are_revealed_one_by_one_from_the_draw_pile() -> None:
    state = table(phase="reveal", pile=(RED_YIN, BLUE_YIN))
    state, events = play(state, RevealCard())
    assert events == [CardRevealed(seat=ANN, card=BLUE_YIN)]
    assert state.revealed == [BLUE_YIN] and state.pile == [RED_YIN]


def test_while_all_spirits_differ_you_may_keep_going_or_stop_and_take_all() -> None:
    state = table(phase="reveal", pile=(GREEN_YIN,), revealed=(BLUE_YIN, RED_YIN))
    assert RevealCard() in list(GAME.legal(state, ANN))
    after, events = play(state, TakeCards())
    assert events == [CardsTaken(seat=ANN, cards=(BLUE_YIN, RED_YIN), lotus_paid=0, discarded=())]
    assert after.phase == "place" and after.collected == [BLUE_YIN, RED_YIN]
    # No Lotus is needed to take them all.
    assert refused(state, TakeCards(extra=(BLUE_YIN,))) == "no_extras_needed"


def test_a_duplicate_stops_the_reveal_and_only_the_last_card_is_taken() -> None:
    state = table(phase="reveal", pile=(c("blue", 2),), revealed=(BLUE_YIN, RED_YIN))
    state, _ = play(state, RevealCard())
    # Blue came up a second time: no more revealing.
    assert refused(state, RevealCard()) == "duplicate_revealed"
    state, events = play(state, TakeCards())
    assert events == [
        CardsTaken(seat=ANN, cards=(c("blue", 2),), lotus_paid=0, discarded=(BLUE_YIN, RED_YIN))
    ]
    assert state.collected == [c("blue", 2)] and state.discard == [BLUE_YIN, RED_YIN]


def test_the_first_two_cards_the_same_spirit_gain_a_nian_shou_card() -> None:
    state = table(phase="reveal", pile=(c("red", 2),), revealed=(RED_YIN,))
    state, events = play(state, RevealCard())
    assert events[-1] == NianShouGained(seat=ANN, card="by-nian-1")
    assert state.areas[ANN].nian_shou == ["by-nian-1"] and "by-nian-1" not in state.nian_supply


def test_a_later_duplicate_gains_no_nian_shou_card() -> None:
    state = table(phase="reveal", pile=(c("red", 2),), revealed=(RED_YIN, BLUE_YIN))
    _, events = play(state, RevealCard())
    assert not any(isinstance(e, NianShouGained) for e in events)


def test_a_first_two_duplicate_with_no_nian_shou_left_gains_nothing() -> None:
    state = table(phase="reveal", pile=(c("red", 2),), revealed=(RED_YIN,), nian_supply=())
    _, events = play(state, RevealCard())
    assert events == [CardRevealed(seat=ANN, card=c("red", 2))]


def test_lotus_tokens_take_extra_revealed_cards_one_token_a_card() -> None:
    revealed = (BLUE_YIN, RED_YIN, GREEN_YIN, c("blue", 2))
    state = table(phase="reveal", revealed=revealed)
    after, events = play(state, TakeCards(extra=(GREEN_YIN, RED_YIN)))
    assert events == [
        CardsTaken(
            seat=ANN, cards=(c("blue", 2), GREEN_YIN, RED_YIN), lotus_paid=2, discarded=(BLUE_YIN,)
        )
    ]
    # The tokens go to the supply.
    assert after.areas[ANN].lotus == 0 and after.lotus_supply == state.lotus_supply + 2
    # Three extras cost three tokens; Ann has two.
    three = tuple(sorted((BLUE_YIN, RED_YIN, GREEN_YIN)))
    assert refused(state, TakeCards(extra=three)) == "not_enough_lotus"
    assert refused(state, TakeCards(extra=(c("blue", 2),))) == "card_not_revealed"
    assert refused(state, TakeCards(extra=(RED_YIN, GREEN_YIN))) == "cards_not_sorted"


def test_five_different_spirits_revealed_must_be_taken() -> None:
    five = (BLUE_YIN, RED_YIN, GREEN_YIN, c("purple", 1), c("yellow", 1))
    state = table(phase="reveal", pile=(c("blue", 3),), revealed=five)
    assert refused(state, RevealCard()) == "five_revealed"
    assert list(GAME.legal(state, ANN)) == [TakeCards()]


def test_an_empty_first_pile_is_rebuilt_from_the_shuffled_discard() -> None:
    state = table(phase="reveal", discard=(RED_YIN, BLUE_YIN))
    state, events = play(state, RevealCard())
    assert isinstance(events[0], PileRebuilt) and sorted(events[0].cards or ()) == [
        BLUE_YIN,
        RED_YIN,
    ]
    assert state.second_pile and state.discard == [] and len(state.revealed) == 1
    # The second pile's order is secret.
    assert GAME.redact(events[0], ANN) == PileRebuilt(cards=None)


def test_a_turn_with_no_card_left_to_reveal_starts_at_phase_three() -> None:
    # The second pile is gone and the end is triggered; Ann ends her turn, Bea plays on.
    state = table(second_pile=True, ending=True)
    after, events = play(state, EndTurn())
    assert events == [TurnBegan(seat=BEA), RevealSkipped(seat=BEA)]
    assert after.phase == "act" and after.player == BEA


# --- phase 2: place collected cards --------------------------------------------------------


def test_collected_cards_go_spirit_side_into_the_play_area_or_capture_side_on_the_stock() -> None:
    state = table(phase="place", collected=(BLUE_YIN, RED_YANG))
    after, events = play(state, PlaceCards(capture=(RED_YANG,)))
    assert events == [CardsPlaced(seat=ANN, spirit_side=(BLUE_YIN,), capture_side=(RED_YANG,))]
    assert after.areas[ANN].spirits == [BLUE_YIN] and after.areas[ANN].stock == [RED_YANG]
    assert after.phase == "act"
    assert refused(state, PlaceCards(capture=(GREEN_YIN,))) == "card_not_collected"


def test_the_stock_holds_at_most_four_capture_cards() -> None:
    full = Area(lotus=2, stock=[c("purple", 1), c("purple", 2), c("purple", 3)])
    state = table(ann=full, phase="place", collected=(BLUE_YIN, RED_YANG))
    assert refused(state, PlaceCards(capture=(BLUE_YIN, RED_YANG))) == "stock_full"
    assert list(GAME.legal(state, ANN)) == [
        PlaceCards(capture=()),
        PlaceCards(capture=(BLUE_YIN,)),
        PlaceCards(capture=(RED_YANG,)),
    ]


# --- phase 3: enchant ----------------------------------------------------------------------


def blues(*numbers: int) -> list[str]:
    return [c("blue", n) for n in numbers]


def test_four_cards_of_a_spirit_enchant_it() -> None:
    area = Area(lotus=2, spirits=[*blues(1, 2, 9, 10, 11), RED_YIN])
    state = table(ann=area)
    assert Enchant(spirit="turtle_snake", yin=2) in list(GAME.legal(state, ANN))
    after, events = play(state, Enchant(spirit="turtle_snake", yin=2))
    assert events == [
        SpiritEnchanted(
            seat=ANN, spirit="turtle_snake", cards=tuple(blues(1, 2, 9, 10)), tokens_to_supply=0
        )
    ]
    assert after.areas[ANN].enchanted == {"turtle_snake": blues(1, 2, 9, 10)}
    assert after.areas[ANN].spirits == [c("blue", 11), RED_YIN]
    # Three Yin blues are not there, and the Turtle Snake is enchanted once.
    assert refused(state, Enchant(spirit="turtle_snake", yin=3)) == "pattern_incomplete"
    assert refused(after, Enchant(spirit="turtle_snake", yin=1)) == "already_enchanted"
    assert refused(state, Enchant(spirit="vermilion_bird", yin=1)) == "pattern_incomplete"


def test_enchanting_waits_for_phase_three() -> None:
    state = table(ann=Area(lotus=2, spirits=blues(1, 2, 3, 4)), phase="reveal", pile=(RED_YIN,))
    assert refused(state, Enchant(spirit="turtle_snake", yin=4)) == "not_phase_three"


# --- phase 3: capture and compensate -------------------------------------------------------


def test_a_yin_card_captures_a_yang_protected_spirit() -> None:
    state = table(ann=Area(lotus=2, stock=[RED_YIN]), bea=Area(lotus=2, spirits=[BLUE_YANG]))
    after, events = play(state, Capture(target=BLUE_YANG, using=(RED_YIN,)))
    assert events == [
        CardCaptured(seat=ANN, victim=BEA, card=BLUE_YANG, using=(RED_YIN,), token_back=False),
        Compensated(seat=BEA, lotus=1),
    ]
    # The captured card goes to Ann's play area, the capture card to the discard pile.
    assert after.areas[ANN].spirits == [BLUE_YANG] and after.areas[ANN].stock == []
    assert after.discard == [RED_YIN]
    # Bea gains a token from the supply for the card lost.
    assert after.areas[BEA].lotus == 3 and after.lotus_supply == state.lotus_supply - 1


def test_a_yang_card_captures_a_yin_protected_spirit_and_not_a_yang_one() -> None:
    bea = Area(lotus=2, spirits=[BLUE_YIN, GREEN_YANG])
    state = table(ann=Area(lotus=2, stock=[RED_YANG]), bea=bea)
    after, _ = play(state, Capture(target=BLUE_YIN, using=(RED_YANG,)))
    assert after.areas[ANN].spirits == [BLUE_YIN]
    assert refused(state, Capture(target=GREEN_YANG, using=(RED_YANG,))) == "wrong_symbol"


def test_yin_and_yang_together_capture_a_nian_shou_card() -> None:
    ann = Area(lotus=2, stock=[RED_YIN, RED_YANG])
    state = table(ann=ann, bea=Area(lotus=2, nian_shou=["by-nian-1"]))
    assert refused(state, Capture(target="by-nian-1", using=(RED_YIN,))) == "needs_yin_and_yang"
    after, events = play(state, Capture(target="by-nian-1", using=(RED_YIN, RED_YANG)))
    assert after.areas[ANN].nian_shou == ["by-nian-1"] and after.areas[BEA].nian_shou == []
    assert events[-1] == Compensated(seat=BEA, lotus=1)
    assert after.discard == [RED_YIN, RED_YANG]


def test_enchanted_spirits_and_your_own_cards_cannot_be_captured() -> None:
    bea = Area(lotus=2, enchanted={"turtle_snake": blues(9, 10, 11, 12)})
    state = table(ann=Area(lotus=2, stock=[RED_YIN], spirits=[GREEN_YANG]), bea=bea)
    assert refused(state, Capture(target=c("blue", 9), using=(RED_YIN,))) == "no_such_target"
    assert refused(state, Capture(target=GREEN_YANG, using=(RED_YIN,))) == "no_such_target"
    assert refused(state, Capture(target=BLUE_YANG, using=(RED_YANG,))) == "not_on_your_stock"


def test_with_the_supply_empty_no_compensation_is_paid() -> None:
    state = table(
        ann=Area(lotus=2, stock=[RED_YIN]), bea=Area(lotus=2, spirits=[BLUE_YANG]), lotus_supply=0
    )
    _, events = play(state, Capture(target=BLUE_YANG, using=(RED_YIN,)))
    assert not any(isinstance(e, Compensated) for e in events)


# --- the end -------------------------------------------------------------------------------


def three_enchanted() -> dict[str, list[str]]:
    return {
        "turtle_snake": blues(1, 2, 3, 4),
        "vermilion_bird": [c("red", n) for n in (1, 2, 3, 4)],
        "azure_dragon": [c("green", n) for n in (1, 2, 3, 4)],
    }


def test_three_enchanted_spirits_end_the_game_once_the_round_is_played_out() -> None:
    # Ann, the first player, has enchanted her third spirit: Bea still plays her turn.
    state = table(ann=Area(lotus=2, enchanted=three_enchanted()), pile=(RED_YIN,))
    state, events = play(state, EndTurn())
    assert events == [EndTriggered(reason="three_spirits"), TurnBegan(seat=BEA)]
    # Bea's turn is the last of the round.
    state = msgspec.structs.replace(state, phase="act")
    state, events = stories.play(GAME, state, BEA, EndTurn())
    assert isinstance(events[-1], GameEnded) and events[-1].nian_shou_winner is None
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (ANN,)


def test_the_second_pile_running_out_ends_the_game_after_the_round() -> None:
    state = table(second_pile=True, player=BEA)
    _, events = stories.play(GAME, state, BEA, EndTurn())
    assert events[0] == EndTriggered(reason="pile_exhausted") and isinstance(events[-1], GameEnded)


def test_the_first_pile_running_out_does_not_end_the_game() -> None:
    state = table(discard=(RED_YIN,), player=BEA)
    _, events = stories.play(GAME, state, BEA, EndTurn())
    assert events == [TurnBegan(seat=ANN)]


def test_holding_all_six_nian_shou_wins_at_once() -> None:
    ann = Area(lotus=2, stock=[RED_YIN, RED_YANG], nian_shou=list(NIAN_SHOU[:5]))
    bea = Area(lotus=2, nian_shou=[NIAN_SHOU[5]], enchanted=three_enchanted())
    state = table(ann=ann, bea=bea, nian_supply=())
    after, events = play(state, Capture(target=NIAN_SHOU[5], using=(RED_YIN, RED_YANG)))
    assert isinstance(events[-1], GameEnded) and events[-1].nian_shou_winner == ANN
    outcome = GAME.outcome(after)
    # Bea has more energy points (her three spirits), but Ann wins outright.
    assert outcome is not None and outcome.winners == (ANN,)
    assert outcome.scores[BEA] > outcome.scores[ANN]


def test_scoring_counts_patterns_spare_cards_nian_shou_capture_cards_and_tokens() -> None:
    area = Area(
        lotus=3,
        spirits=[BLUE_YIN, RED_YIN],
        stock=[GREEN_YIN],
        enchanted={"yellow_unicorn": [c("yellow", n) for n in (1, 2, 3, 4)], **three_enchanted()},
        nian_shou=["by-nian-1", "by-nian-2"],
    )
    assert score_sheet(area) == ScoreSheet(
        enchanted=12 + 6 + 6 + 9,
        spare_spirits=2,
        nian_shou=2,
        capture_cards=1,
        lotus=3,
        total=33 + 2 + 2 + 1 + 3,
        face_up_spirits=2,
    )
    tiger = Area(enchanted={"metal_tiger": [c("purple", n) for n in (1, 2, 3, 4)]})
    assert score_sheet(tiger).total == 9


def test_every_lotus_token_in_a_players_area_scores_a_point() -> None:
    # Two in the reserve, one protecting a card, one on a summoned spirit.
    area = Area(lotus=2, spirits=[BLUE_YIN], protected=[BLUE_YIN], summoned=["turtle_snake"])
    assert score_sheet(area).lotus == 4


def test_a_tie_goes_to_the_player_with_fewer_face_up_spirit_cards() -> None:
    # Ann: 2 spare spirits and 1 token; Bea: 1 spare spirit and 2 tokens.
    state = table(
        ann=Area(lotus=1, spirits=[BLUE_YIN, RED_YIN]),
        bea=Area(lotus=2, spirits=[GREEN_YIN]),
        second_pile=True,
        player=BEA,
    )
    after, _ = stories.play(GAME, state, BEA, EndTurn())
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (3, 3) and outcome.winners == (BEA,)


# --- advanced mode: protection tokens ------------------------------------------------------


def test_a_protection_token_makes_a_spirit_need_yin_and_yang() -> None:
    state = table(ann=Area(lotus=2, spirits=[BLUE_YANG]), advanced=True)
    state, events = play(state, Protect(card=BLUE_YANG))
    assert events == [SpiritProtected(seat=ANN, card=BLUE_YANG)]
    assert state.areas[ANN].protected == [BLUE_YANG] and state.areas[ANN].lotus == 1
    # Bea's single Yin card no longer takes it; Yin + Yang do, and the token goes home.
    bea = Area(lotus=2, stock=[RED_YIN, RED_YANG])
    state = msgspec.structs.replace(state, areas=[state.areas[ANN], bea], player=BEA)
    assert refused(state, Capture(target=BLUE_YANG, using=(RED_YIN,))) == "needs_yin_and_yang"
    after, events = play(state, Capture(target=BLUE_YANG, using=(RED_YIN, RED_YANG)))
    assert events[0] == CardCaptured(
        seat=BEA, victim=ANN, card=BLUE_YANG, using=(RED_YIN, RED_YANG), token_back=True
    )
    # Ann gets her token back, and one more in compensation.
    assert after.areas[ANN].lotus == 1 + 1 + 1 and after.areas[ANN].protected == []


def test_enchanting_uses_unprotected_cards_first() -> None:
    area = Area(lotus=0, spirits=blues(1, 2, 3, 4, 5), protected=blues(1))
    state = table(ann=area, advanced=True)
    after, events = play(state, Enchant(spirit="turtle_snake", yin=4))
    assert events[0] == SpiritEnchanted(
        seat=ANN, spirit="turtle_snake", cards=tuple(blues(2, 3, 4, 5)), tokens_to_supply=0
    )
    assert after.areas[ANN].spirits == blues(1) and after.areas[ANN].protected == blues(1)


def test_protection_tokens_on_an_enchanted_pattern_return_to_the_supply() -> None:
    area = Area(lotus=0, spirits=blues(1, 2, 3, 4), protected=blues(1, 2))
    state = table(ann=area, advanced=True)
    after, events = play(state, Enchant(spirit="turtle_snake", yin=4))
    assert events[0] == SpiritEnchanted(
        seat=ANN, spirit="turtle_snake", cards=tuple(blues(1, 2, 3, 4)), tokens_to_supply=2
    )
    assert after.lotus_supply == state.lotus_supply + 2 and after.areas[ANN].protected == []


def test_protection_belongs_to_the_advanced_mode() -> None:
    state = table(ann=Area(lotus=2, spirits=[BLUE_YANG]))
    assert refused(state, Protect(card=BLUE_YANG)) == "advanced_mode_only"
    state = table(ann=Area(lotus=0, spirits=[BLUE_YANG]), advanced=True)
    assert refused(state, Protect(card=BLUE_YANG)) == "no_lotus"
    assert refused(state, Protect(card=RED_YIN)) == "not_your_spirit"


# --- advanced mode: spirit summoning -------------------------------------------------------


def enchanted(*spirits: Spirit) -> dict[str, list[str]]:
    colours = {"turtle_snake": "blue", "vermilion_bird": "red", "azure_dragon": "green"}
    colours |= {"metal_tiger": "purple", "yellow_unicorn": "yellow"}
    return {s: [c(colours[s], n) for n in (13, 14, 15, 16)] for s in spirits}


def test_turtle_snake_chooses_one_of_the_top_four_cards() -> None:
    pile = (c("red", 5), c("red", 6), GREEN_YIN, RED_YIN, BLUE_YIN)
    state = table(ann=Area(lotus=1, enchanted=enchanted("turtle_snake")), pile=pile, advanced=True)
    state, events = play(state, SummonTurtleSnake())
    assert events == [
        SpiritSummoned(seat=ANN, spirit="turtle_snake"),
        CardsTurnedUp(seat=ANN, cards=(BLUE_YIN, RED_YIN, GREEN_YIN, c("red", 6))),
    ]
    assert refused(state, EndTurn()) == "choose_a_card"
    state, events = play(state, ChooseCard(card=GREEN_YIN))
    assert state.areas[ANN].spirits == [GREEN_YIN] and state.pile == [c("red", 5)]
    assert sorted(state.discard) == sorted([BLUE_YIN, RED_YIN, c("red", 6)])
    # Once per enchanted spirit.
    assert refused(state, SummonTurtleSnake()) == "already_summoned"


def test_double_azure_dragon_picks_one_of_the_top_two_cards() -> None:
    pile = (GREEN_YIN, RED_YIN, BLUE_YIN)
    state = table(ann=Area(lotus=1, enchanted=enchanted("azure_dragon")), pile=pile, advanced=True)
    state, events = play(state, SummonAzureDragon())
    assert events[-1] == CardsTurnedUp(seat=ANN, cards=(BLUE_YIN, RED_YIN))
    assert list(GAME.legal(state, ANN)) == [ChooseCard(card=BLUE_YIN), ChooseCard(card=RED_YIN)]
    state, _ = play(state, ChooseCard(card=RED_YIN))
    assert state.areas[ANN].spirits == [RED_YIN] and state.discard == [BLUE_YIN]


def test_vermilion_bird_takes_a_capture_card_from_the_discard_pile() -> None:
    area = Area(lotus=1, enchanted=enchanted("vermilion_bird"))
    state = table(ann=area, discard=(BLUE_YIN, GREEN_YANG), advanced=True)
    after, _ = play(state, SummonVermilionBird(card=GREEN_YANG))
    assert after.areas[ANN].stock == [GREEN_YANG] and after.discard == [BLUE_YIN]
    assert after.areas[ANN].lotus == 0 and after.areas[ANN].summoned == ["vermilion_bird"]
    assert refused(state, SummonVermilionBird(card=RED_YIN)) == "not_in_discard"
    full = msgspec.structs.replace(area, stock=[c("purple", n) for n in (1, 2, 3, 4)])
    state = table(ann=full, discard=(BLUE_YIN,), advanced=True)
    assert refused(state, SummonVermilionBird(card=BLUE_YIN)) == "stock_full"


def test_double_metal_tiger_takes_a_nian_shou_card_if_any_are_left() -> None:
    area = Area(lotus=1, enchanted=enchanted("metal_tiger"))
    after, _ = play(table(ann=area, advanced=True), SummonMetalTiger())
    assert after.areas[ANN].nian_shou == ["by-nian-1"]
    empty = table(ann=area, advanced=True, nian_supply=())
    assert refused(empty, SummonMetalTiger()) == "no_nian_shou_left"


def test_yellow_unicorn_reclaims_a_lotus_from_another_pattern() -> None:
    area = Area(
        lotus=1, enchanted=enchanted("yellow_unicorn", "metal_tiger"), summoned=["metal_tiger"]
    )
    state = table(ann=area, advanced=True)
    assert refused(state, SummonYellowUnicorn(pattern="turtle_snake")) == "no_lotus_there"
    after, _ = play(state, SummonYellowUnicorn(pattern="metal_tiger"))
    assert after.areas[ANN].summoned == ["yellow_unicorn"] and after.areas[ANN].lotus == 1
    # The Metal Tiger may be summoned again.
    assert SummonMetalTiger() in list(GAME.legal(after, ANN))


def test_summoning_needs_an_enchanted_spirit_a_lotus_and_the_advanced_mode() -> None:
    state = table(ann=Area(lotus=1), advanced=True, nian_supply=NIAN_SHOU)
    assert refused(state, SummonMetalTiger()) == "not_enchanted"
    area = Area(lotus=0, enchanted=enchanted("metal_tiger"))
    assert refused(table(ann=area, advanced=True), SummonMetalTiger()) == "no_lotus"
    area = Area(lotus=1, enchanted=enchanted("metal_tiger"))
    assert refused(table(ann=area), SummonMetalTiger()) == "advanced_mode_only"


# --- leaving -------------------------------------------------------------------------------


def test_before_edition_2_a_player_who_concedes_mid_reveal_discards_the_revealed_cards() -> None:
    """The game's own concede, the rule of matches created before table edition 2."""
    three = GAME.initial(Options(), 3)
    state = msgspec.structs.replace(
        three,
        pile=[BLUE_YIN],
        phase="reveal",
        revealed=[RED_YIN],
        player=BEA,
    )
    decided = GAME.concede(state, BEA, Rng(1, 1))
    assert decided is not None
    _, after = GAME.settle(state, decided)
    assert after.conceded == [BEA] and after.discard == [RED_YIN] and after.player == 2
