"""3-13: the conformance kit, then the rulebook's tricky cases told as short stories."""

from __future__ import annotations

import itertools
import random
from typing import Any

from domain.games.threethirteen import GAME
from domain.games.threethirteen.cards import (
    DECK,
    NATURALS,
    is_wild,
    joker_id,
    natural_id,
    penalty,
    rank_of,
    suit_of,
)
from domain.games.threethirteen.commands import (
    DealRound,
    Discard,
    DrawFromDeck,
    GoOut,
    TakeDiscard,
)
from domain.games.threethirteen.events import RoundDealt, RoundScored, StockReshuffled
from domain.games.threethirteen.melds import (
    best_melding,
    hand_melds_fully,
    least_deadwood,
    melds_fully,
)
from domain.games.threethirteen.state import Options, State
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


# --- a tiny table builder ------------------------------------------------------------------


def c(short: str) -> str:
    """A card by its face: "7h", "Qs", "10d", "Ah"; a trailing ' is the second deck's copy;
    "J1".."J4" are the jokers."""
    if short.startswith("J") and short[1:].isdigit():
        return joker_id(int(short[1:]))
    copy = "b" if short.endswith("'") else "a"
    face, suit = short.rstrip("'")[:-1], short.rstrip("'")[-1]
    rank = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(face) or int(face)
    return natural_id(suit, rank, copy)


def cards(text: str) -> list[str]:
    return [c(word) for word in text.split()]


def table(
    *hands: str,
    round: int = 5,
    turn: int = 0,
    phase: str = "draw",
    stock: str | None = None,
    discard: str = "2c'",
    **options: Any,
) -> State:
    """A round in play with the given hands; the draw pile holds the rest unless given."""
    held = [cards(h) for h in hands]
    pile = cards(discard)
    if stock is None:
        used = {x for h in held for x in h} | set(pile)
        rest = [x for x in DECK if x not in used]
    else:
        rest = cards(stock)
    state = GAME.initial(Options(**options), len(hands))
    state.phase = phase  # type: ignore[assignment]
    state.round = round
    state.starter = 0
    state.turn = turn
    state.hands = held
    state.known = [[] for _ in hands]
    state.stock = rest
    state.discard = pile
    return state


def play(state: State, seat: int, command: Any, seed: int = 0) -> State:
    return stories.play(GAME, state, seat, command, Rng(seed, 1))[0]


def refused(state: State, seat: int, command: Any) -> str:
    return stories.refused(GAME, state, seat, command, Rng(0, 0))


def points(hand: str, round: int = 5, wild_melds: bool = True) -> int:
    return best_melding(cards(hand), round + 2, wild_melds).points


# --- melds ---------------------------------------------------------------------------------


def test_a_run_may_take_the_ace_low_or_high_but_not_around_the_corner() -> None:
    # Round 5: sevens are wild, aces are not.
    assert hand_melds_fully(cards("Ah 2h 3h"), 7)
    assert hand_melds_fully(cards("Qh Kh Ah"), 7)
    assert not hand_melds_fully(cards("Kh Ah 2h"), 7)
    assert points("Kh Ah 2h") == 13 + 15 + 2
    # A full thirteen-card run is the longest there is: A to K, or 2 to A.
    assert hand_melds_fully(cards("Ah 2h 3h 4h 5h 6h 8h 9h 10h Jh Qh Kh J1"), 7)


def test_the_wild_rank_changes_with_the_round() -> None:
    # The 3 of clubs is wild in round 1 only; from round 2 it is a plain 3.
    assert hand_melds_fully(cards("5h 5s 3c"), 3)
    assert not hand_melds_fully(cards("5h 5s 3c"), 4)
    assert points("5h 9s 3c", round=1) == 5 + 9 + 50
    assert points("5h 9s 3c", round=2) == 5 + 9 + 3
    # And the Kings of round 11 stand in a set of fours.
    assert hand_melds_fully(cards("4h 4s Kd"), 13)


def test_jokers_are_wild_in_every_round() -> None:
    for round_number in range(1, 12):
        assert hand_melds_fully(cards("9h 10h J2"), round_number + 2)
        assert hand_melds_fully(cards("Qd Qc J4"), round_number + 2)


def test_the_search_puts_a_card_in_the_set_or_the_run_whichever_leaves_least() -> None:
    # The longest run 4-7 of hearts would strand the two other sevens (14 points);
    # 4-5-6 of hearts with the three sevens melds everything.
    # (Round 9: Jacks are wild.)
    assert points("4h 5h 6h 7h 7s 7d", round=9) == 0
    # Here the 7 of hearts is worth more in the run: 7-8-9 leaves 7s 7d (14), the set 8h 9h (17).
    assert points("7h 8h 9h 7s 7d", round=9) == 14
    # A wild fills the gap of a run or completes a set, wherever it saves the most.
    assert points("3h 5h Kd Ks J1", round=9) == 3 + 5
    assert points("3h 5h 9d 10s J1", round=9) == 9 + 10


def test_an_unusable_wild_costs_fifty_points() -> None:
    # A lone joker beside two cards that make no meld with it.
    assert points("5h Ks J1") == 5 + 13 + 50
    # With two natural partners it makes a set, and costs nothing.
    assert points("5h 5s J1") == 0
    # Aces cost 15, the court cards 11, 12 and 13.
    assert points("Ah Jc Qd Ks") == 15 + 11 + 12 + 13


def test_three_wilds_alone_make_a_meld_unless_the_option_forbids_it() -> None:
    # The 7 of hearts is wild in round 5.
    assert points("J1 J2 7h", round=5) == 0
    assert points("J1 J2 7h", round=5, wild_melds=False) == 150
    # With a natural card to stand beside, they make a set either way.
    assert points("J1 J2 7h 2c", round=5, wild_melds=False) == 0


def test_the_melding_search_finds_the_minimum_a_brute_force_finds() -> None:
    pool = cards("Ah Ah' 2h 3h 4h Qh Kh 2s 2s' 3s Ks As 7d J1 J2 J3")
    rng = random.Random(13)
    for _ in range(250):
        hand = rng.sample(pool, rng.randint(3, 8))
        wild_rank = rng.choice([3, 7, 13])
        melding = best_melding(hand, wild_rank)
        assert melding.points == _brute_force(hand, wild_rank)
        # The melds and the leftovers are the hand, and the leftovers cost what was said.
        laid = [x for m in melding.melds for x in m] + list(melding.deadwood)
        assert sorted(laid) == sorted(hand)
        assert all(_is_meld(list(m), wild_rank) for m in melding.melds)
        assert sum(_cost(x, wild_rank) for x in melding.deadwood) == melding.points


def test_thirteen_card_hands_are_scored_by_visiting_a_few_hundred_positions() -> None:
    # The search's work, counted (not timed): the positions its two memos had to work out.
    rng = random.Random(5)
    for _ in range(50):
        least_deadwood.cache_clear()
        melds_fully.cache_clear()
        hand = rng.sample(DECK, 14)
        for card in hand:
            hand_melds_fully([x for x in hand if x != card], 13)
        best_melding(hand[:13], 13)
        visited = least_deadwood.cache_info().misses + melds_fully.cache_info().misses
        assert visited < 1000, visited


# --- the turn --------------------------------------------------------------------------------


def test_a_turn_is_a_draw_then_a_discard() -> None:
    state = table("5h 6h 9c 9d 2s Ks 4d", "3c 3d 3s 8h 8s 10d Jd")
    # Ann must draw before she discards.
    assert refused(state, 0, Discard(card=c("Ks"))) == "draw_first"
    assert set(GAME.legal(state, 0)) == {DrawFromDeck(), TakeDiscard()}
    # She takes the 2 of clubs from the discard pile, so everyone knows it is in her hand.
    state = play(state, 0, TakeDiscard())
    assert c("2c'") not in GAME.hidden(state, 1)
    assert refused(state, 0, DrawFromDeck()) == "already_drawn"
    # She discards; it is Bea's turn.
    state = play(state, 0, Discard(card=c("Ks")))
    assert GAME.to_act(state) == {1}
    assert state.discard[-1] == c("Ks")


def test_going_out_needs_the_rest_of_the_hand_fully_melded() -> None:
    # Round 5 (sevens wild): Ann has drawn a joker to her seven cards.
    state = table("5h 6h 8h 9c 9d 9s Kd J1", "3c 3d 3s 8c 8s 10d Jd", phase="discard")
    # Only without the King does the rest meld: 5-6-(joker)-8 of hearts and three 9s.
    goes = {m.discard for m in GAME.legal(state, 0) if isinstance(m, GoOut)}
    assert goes == {c("Kd")}
    assert refused(state, 0, GoOut(discard=c("9c"))) == "hand_not_melded"
    state = play(state, 0, GoOut(discard=c("Kd")))
    assert state.went_out == 0 and state.hands[0] == []
    assert sorted(x for m in state.laid_down for x in m) == sorted(cards("5h 6h 8h 9c 9d 9s J1"))


def test_going_out_gives_every_other_player_exactly_one_more_turn() -> None:
    state = table(
        "5h 6h 7h Kd",
        "3c 3d 3s' 3h 8h",
        "9c 10c 2d Qs",
        round=2,
        phase="discard",
        turn=1,
        stock="2s Jd",
    )
    # Bea goes out with 3-3-3 (the fours are wild this round, so the 3s are plain).
    state = play(state, 1, GoOut(discard=c("8h")))
    # Cid takes his final turn ...
    assert GAME.to_act(state) == {2}
    assert refused(play(state, 2, DrawFromDeck()), 2, GoOut(discard=c("Qs"))) == "someone_went_out"
    state = play(play(state, 2, TakeDiscard()), 2, Discard(card=c("Qs")))
    # ... then Ann takes hers, and the round is scored without Bea playing again.
    assert GAME.to_act(state) == {0}
    state = play(play(state, 0, DrawFromDeck()), 0, Discard(card=c("Kd")))
    assert state.phase == "round_over"
    # Ann's 5-6-7 of hearts is a run, her Jack of diamonds is not; Cid melded nothing.
    assert state.round_points[-1] == [11, 0, 9 + 10 + 2 + 8]


def test_the_lowest_total_after_the_last_round_wins() -> None:
    # The last round (Kings wild); Ann and Cid have 40, Bea 60.
    state = table(
        "5h 6h 7h Qd",
        "3c 3d 3s' 3h 8h",
        "9c 10c 2d Qs",
        round=11,
        turn=1,
        phase="discard",
        stock="2s Jd",
    )
    state.totals = [40, 60, 40]
    # Bea goes out; Cid draws the Jack and keeps 32 points; Ann draws the 2 and keeps 2.
    state = play(state, 1, GoOut(discard=c("8h")))
    state = play(play(state, 2, DrawFromDeck()), 2, Discard(card=c("Qs")))
    state = play(play(state, 0, DrawFromDeck()), 0, Discard(card=c("Qd")))
    assert state.phase == "game_over"
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (42, 60, 72)
    assert outcome.ranks == (1, 2, 3)


def test_an_empty_draw_pile_is_rebuilt_from_the_discard_pile_but_its_top_card() -> None:
    state = table("5h 6h 9c", "3c 3d 8h", round=1, stock="", discard="2c Qs 7d")
    state, events = stories.play(GAME, state, 0, DrawFromDeck(), Rng(0, 0))
    assert isinstance(events[0], StockReshuffled)
    assert sorted(events[0].cards or ()) == sorted(cards("2c Qs"))
    # Nobody sees the new order.
    assert GAME.redact(events[0], 0) == StockReshuffled(cards=None, size=2)
    assert state.discard == [c("7d")] and len(state.stock) == 1


def test_the_end_round_variant_ends_the_round_when_the_draw_pile_runs_out() -> None:
    state = table("5h 6h 9c", "3c 3d 8h", round=1, stock="Ks", empty_stock="end_round")
    state = play(play(state, 0, DrawFromDeck()), 0, Discard(card=c("9c")))
    assert state.phase == "round_over" and state.went_out is None
    assert state.round_points[-1] == [5 + 6 + 13, 0]  # Bea's 3c 3d are wild in round 1


def test_the_starting_player_rotates_left_and_the_dealer_sits_to_the_right() -> None:
    state = table("5h 6h 9c", "3c 3d 8h", "2h 2d 2s", round=1, stock="Ks")
    state.phase = "round_over"
    state.starter = 2
    assert GAME.to_act(state) == {2} and GAME.legal(state, 2) == [DealRound()]
    _, events = stories.play(GAME, state, 2, DealRound(), Rng(3, 9))
    assert isinstance(events[0], RoundDealt)
    assert events[0].starter == 0 and events[0].round == 2
    assert all(len(h or ()) == 4 for h in events[0].hands)


def test_hands_are_hidden_until_the_round_is_scored() -> None:
    state = table("5h 6h 9c", "3c 3d 8h", round=1, stock="Ks Qd Jd 10s")
    assert set(cards("3c 3d 8h Ks Qd Jd 10s")) == GAME.hidden(state, 0)
    state = play(play(state, 0, DrawFromDeck()), 0, Discard(card=c("9c")))
    _, drawn = stories.play(GAME, state, 1, DrawFromDeck(), Rng(0, 0))
    assert GAME.redact(drawn[0], 0).card is None  # type: ignore[union-attr]
    _, scored = stories.play(
        GAME, play(state, 1, DrawFromDeck()), 1, GoOut(discard=c("8h")), Rng(0, 0)
    )
    assert not any(isinstance(e, RoundScored) for e in scored)


def test_before_edition_2_a_conceding_player_is_skipped() -> None:
    """The game's own concede, the rule of matches created before table edition 2."""
    state = table("5h 6h 9c", "3c 3d 8h", "2h 2d 2s", round=1)
    conceded = GAME.concede(state, 0, Rng(0, 0))
    assert conceded is not None
    _, state = GAME.settle(state, conceded)
    assert GAME.to_act(state) == {1}
    # With two players left, one more concession ends the match.
    assert GAME.concede(state, 1, Rng(0, 0)) is None


# --- a brute force for the search ----------------------------------------------------------


def _is_meld(group: list[str], wild_rank: int) -> bool:
    if len(group) < 3:
        return False
    codes = [NATURALS[x] for x in group if not is_wild(x, wild_rank)]
    if not codes or len({rank_of(x) for x in codes}) == 1:
        return True
    ranks = [rank_of(x) for x in codes]
    if len({suit_of(x) for x in codes}) != 1 or len(set(ranks)) != len(ranks):
        return False
    if len(group) > 13:
        return False
    for high in (False, True):
        spread = [14 if high and r == 1 else r for r in ranks]
        if max(spread) - min(spread) + 1 <= len(group):
            return True
    return False


def _cost(card: str, wild_rank: int) -> int:
    return 50 if is_wild(card, wild_rank) else penalty(NATURALS[card])


def _brute_force(hand: list[str], wild_rank: int) -> int:
    def best(rest: list[str]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        out = _cost(first, wild_rank) + best(others)
        for k in range(2, len(others) + 1):
            for picked in itertools.combinations(range(len(others)), k):
                if _is_meld([first, *(others[i] for i in picked)], wild_rank):
                    left = [o for i, o in enumerate(others) if i not in picked]
                    out = min(out, best(left))
        return out

    return best(hand)
