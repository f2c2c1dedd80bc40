"""Five Pairs: the conformance kit, then the rules page's cases told as short stories."""

from __future__ import annotations

from typing import Any

from domain.games.fivepairs import GAME
from domain.games.fivepairs.cards import COMMON_AREA_START, DECK, card_id
from domain.games.fivepairs.commands import DealRound, Discard, DrawTwo, MakePair
from domain.games.fivepairs.events import CardsDrawn, RoundDealt
from domain.games.fivepairs.state import Options, State
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


# --- a tiny table builder ------------------------------------------------------------------

COLOUR = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "p": "purple"}


def c(short: str) -> str:
    """A card by colour letter and number: "r7" is a red 7; "r7'" its second copy."""
    copy = "b" if short.endswith("'") else "a"
    return card_id(COLOUR[short[0]], int(short[1:].rstrip("'")), copy)


def cards(text: str) -> list[str]:
    return [c(word) for word in text.split()]


def table(
    *hands: str,
    common: str = "",
    deck: str | None = None,
    turn: int = 0,
    pairs: tuple[int, ...] = (),
    **options: Any,
) -> State:
    """A round in play; `pairs` gives how many pairs each seat has already made."""
    held = [cards(h) for h in hands]
    middle = cards(common)
    used = {x for h in held for x in h} | set(middle)
    state = GAME.initial(Options(**options), len(hands))
    state.phase = "play"
    state.round = 1
    state.turn = turn
    state.hands = held
    state.common = middle
    state.deck = [x for x in DECK if x not in used] if deck is None else cards(deck)
    for seat, made in enumerate(pairs):
        state.pairs[seat] = [(c("p1"), c("p2"))] * made  # stand-ins for earlier pairs
    return state


def play(state: State, seat: int, command: Any) -> State:
    return stories.play(GAME, state, seat, command, Rng(0, 1))[0]


def refused(state: State, seat: int, command: Any) -> str:
    return stories.refused(GAME, state, seat, command, Rng(0, 1))


def pair(state: State, seat: int, hand_card: str, common_card: str) -> State:
    return play(state, seat, MakePair(hand_card=c(hand_card), common_card=c(common_card)))


# --- the stories ---------------------------------------------------------------------------


def test_the_guessed_deck_and_common_area_are_data_in_one_module() -> None:
    assert len(DECK) == len(set(DECK)) == 90
    state = GAME.initial(Options(), 4)
    events, _ = GAME.settle(state, GAME.start(state, Rng(1, 1)))
    dealt = events[0]
    assert isinstance(dealt, RoundDealt)
    assert len(dealt.common) == COMMON_AREA_START
    assert all(len(h or ()) == 2 for h in dealt.hands)


def test_a_pair_matches_by_number_or_by_colour() -> None:
    state = table("r4 g9", "y1 y2", common="b4 g2 p7")
    moves = set(GAME.legal(state, 0))
    # The red 4 pairs with the blue 4 (number), the green 9 with the green 2 (colour).
    assert moves == {
        MakePair(hand_card=c("r4"), common_card=c("b4")),
        MakePair(hand_card=c("g9"), common_card=c("g2")),
        DrawTwo(),
    }
    assert refused(state, 0, MakePair(hand_card=c("r4"), common_card=c("p7"))) == (
        "cards_do_not_match"
    )


def test_a_pair_scores_the_sum_of_its_numbers() -> None:
    state = pair(table("r4 g9", "y1 y2", common="b4 g2"), 0, "g9", "g2")
    assert state.round_points == [11, 0]
    assert state.pairs[0] == [(c("g9"), c("g2"))]


def test_matching_colour_and_number_scores_double() -> None:
    state = pair(table("r7 g9", "y1 y2", common="r7' g2"), 0, "r7", "r7'")
    assert state.round_points == [28, 0]


def test_the_hand_is_drawn_back_up_to_two_at_the_end_of_the_turn() -> None:
    state = table("r4 g9", "y1 y2", common="b4", deck="p5 p6")
    state = pair(state, 0, "r4", "b4")
    # Ann paired, so she refilled from the top of the deck; now it is Bea's turn.
    assert sorted(state.hands[0]) == sorted(cards("g9 p6"))
    assert GAME.to_act(state) == {1}


def test_a_pair_of_threes_gives_another_turn_and_may_chain() -> None:
    state = table("r3 g3", "y1 y2", common="b3 p3' y9 b1", deck="p5 p6 p8 p9 y7")
    state = pair(state, 0, "r3", "b3")
    assert GAME.to_act(state) == {0}
    state = pair(state, 0, "g3", "p3'")
    assert GAME.to_act(state) == {0}
    # Paired by colour, a 3 earns nothing more.
    state.hands[0] = cards("y3 p8")
    state = pair(state, 0, "y3", "y9")
    assert GAME.to_act(state) == {1}


def test_not_pairing_draws_two_then_discards_one_to_the_common_area() -> None:
    state = table("r4 g9", "y1 y2", common="b4", deck="p1 p5 p6")
    state = play(state, 0, DrawTwo())
    assert sorted(state.hands[0]) == sorted(cards("r4 g9 p6 p5"))
    # Now she must discard; pairing is over for this turn.
    assert refused(state, 0, MakePair(hand_card=c("r4"), common_card=c("b4"))) == "must_discard"
    assert set(GAME.legal(state, 0)) == {Discard(card=x) for x in state.hands[0]}
    state = play(state, 0, Discard(card=c("r4")))
    assert c("r4") in state.common and len(state.hands[0]) == 3
    assert GAME.to_act(state) == {1}


def test_the_drawn_option_limits_the_discard_to_the_two_cards_just_drawn() -> None:
    state = table("r4 g9", "y1 y2", common="b4", deck="p1 p5 p6", discard_from="drawn")
    state = play(state, 0, DrawTwo())
    assert set(GAME.legal(state, 0)) == {Discard(card=c("p5")), Discard(card=c("p6"))}
    assert refused(state, 0, Discard(card=c("r4"))) == "card_not_discardable"


def test_the_first_fourth_pair_takes_the_token_five_side_up() -> None:
    state = table("r4 g9", "y1 b2", common="b4 y5 y6", pairs=(3, 3))
    state = pair(state, 0, "r4", "b4")
    assert state.token_holder == 0 and not state.token_flipped
    # Bea's fourth pair comes second: Ann keeps the token.
    state = pair(state, 1, "y1", "y5")
    assert state.token_holder == 0


def test_the_token_holder_making_a_fifth_pair_flips_it_to_fifteen() -> None:
    state = table("r4 g9", "y1 b2", common="b4 y5", pairs=(4, 2))
    state.token_holder = 0
    state.round_points = [30, 10]
    state = pair(state, 0, "r4", "b4")
    # A fifth pair ends the round at once.
    assert state.phase == "round_over"
    assert state.token_flipped
    assert state.totals == [30 + 8 + 15, 10]


def test_a_fifth_pair_by_another_player_ends_the_round_and_the_holder_keeps_five() -> None:
    state = table("r4 g9", "y1 b2", common="y5", pairs=(4, 4), turn=1)
    state.token_holder = 0
    state = pair(state, 1, "y1", "y5")
    assert state.phase == "round_over"
    assert state.totals == [5, 6]


def test_the_game_ends_after_a_round_in_which_someone_passes_two_hundred() -> None:
    state = table("r4 g9", "y1 b2", common="b4", pairs=(4, 0))
    state.token_holder = 0
    state.totals = [180, 196]
    state.round_points = [0, 10]
    # Ann ends the round: 180 + 8 + 15 = 203; Bea 196 + 10 = 206. The highest total wins.
    state = pair(state, 0, "r4", "b4")
    assert state.phase == "game_over"
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (203, 206) and outcome.ranks == (2, 1)


def test_exactly_two_hundred_is_not_more_than_two_hundred() -> None:
    for before, phase in ((177, "round_over"), (178, "game_over")):
        state = table("r4 g9", "y1 b2", common="b4", pairs=(4, 0))
        state.token_holder = 0
        state.totals = [before, 0]
        state = pair(state, 0, "r4", "b4")  # 8 points, and the token flipped to 15
        assert state.totals[0] == before + 23 and state.phase == phase


def test_the_next_round_is_dealt_by_the_player_right_of_its_starter() -> None:
    state = table("r4 g9", "y1 b2", "p1 p2", common="b4", pairs=(4, 0, 0))
    state = pair(state, 0, "r4", "b4")
    # Ann started round 1, so Bea starts round 2 and Ann, on Bea's right, deals it.
    assert GAME.to_act(state) == {0} and GAME.legal(state, 0) == [DealRound()]
    state, (dealt,) = stories.play(GAME, state, 0, DealRound(), Rng(4, 4))
    assert isinstance(dealt, RoundDealt) and dealt.round == 2 and dealt.starter == 1
    assert state.pairs == [[], [], []] and state.token_holder is None


def test_with_the_deck_empty_a_player_who_cannot_pair_is_passed_over() -> None:
    state = table("r4 r5", "y1 y2", "g1 g2", common="b4 g7", deck="")
    state = pair(state, 0, "r4", "b4")
    # Bea's yellows match nothing left (g7); Cid's greens do.
    assert GAME.to_act(state) == {2}
    assert DrawTwo() not in GAME.legal(state, 2)


def test_with_the_deck_empty_and_nobody_able_to_pair_the_round_ends() -> None:
    state = table("r4 r5", "y1 y2", common="b4", deck="")
    state = pair(state, 0, "r4", "b4")
    assert state.phase == "round_over"
    assert state.history == [[8, 0]]


def test_hands_and_the_deck_are_hidden() -> None:
    state = table("r4 g9", "y1 y2", common="b4", deck="p1 p5 p6")
    assert GAME.hidden(state, 0) == frozenset(cards("y1 y2 p1 p5 p6"))
    _, drawn = stories.play(GAME, state, 0, DrawTwo(), Rng(0, 0))
    assert isinstance(drawn[0], CardsDrawn)
    assert GAME.redact(drawn[0], 1) == CardsDrawn(seat=0, cards=None, count=2, refill=False)
    assert GAME.redact(drawn[0], 0) == drawn[0]


def test_before_edition_2_a_conceding_player_is_passed_over() -> None:
    """The game's own concede, the rule of matches created before table edition 2."""
    state = table("r4 g9", "y1 y2", "p1 p2", common="b4")
    conceded = GAME.concede(state, 0, Rng(0, 0))
    assert conceded is not None
    _, state = GAME.settle(state, conceded)
    assert GAME.to_act(state) == {1}
    assert GAME.concede(state, 1, Rng(0, 0)) is None
