"""Gallery Gambit: the conformance kit, then the page's scoring and the house rules."""

from __future__ import annotations

import msgspec

from domain.games.gallerygambit import GAME
from domain.games.gallerygambit.cards import CARDS
from domain.games.gallerygambit.commands import Command, HangCard, TakeCard
from domain.games.gallerygambit.events import (
    CardHung,
    CardTaken,
    Event,
    GameEnded,
    HandDealt,
    MarketFilled,
    TurnBegan,
)
from domain.games.gallerygambit.scoring import wall_score
from domain.games.gallerygambit.state import GalleryOptions, Table, initial
from domain.games.gallerygambit.view import redact, view
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA = 0, 1


def c(name: str) -> str:
    """A card from "oil-3" style names."""
    suit, number = name.split("-")
    return f"gg-{suit}-{int(number):02d}"


def cards(*names: str) -> list[str]:
    return [c(n) for n in names]


def table(
    ann_hand: list[str] | None = None,
    ann_walls: list[list[str]] | None = None,
    bea_walls: list[list[str]] | None = None,
    market: list[str] | None = None,
    **fields: object,
) -> Table:
    """Ann to take; the deck holds every card not shown."""
    state = initial(GalleryOptions(), 2)
    hands = [ann_hand or [], []]
    walls = [ann_walls or [[], [], []], bea_walls or [[], [], []]]
    shown = set(market or []) | {x for h in hands for x in h}
    shown |= {x for seat in walls for wall in seat for x in wall}
    state = msgspec.structs.replace(
        state,
        hands=hands,
        walls=walls,
        market=market or [],
        deck=[x for x in sorted(CARDS) if x not in shown],
        phase="take",
        player=ANN,
    )
    return msgspec.structs.replace(state, **fields)


def play(state: Table, command: Command, *outcomes: str) -> tuple[Table, list[Event]]:
    return stories.play(GAME, state, state.player, command, Rigged(*outcomes))


def refused(state: Table, command: Command) -> str:
    return stories.refused(GAME, state, state.player, command)


# --- the page's scoring ----------------------------------------------------------------------


def test_matching_suit_in_a_run_scores_two_each() -> None:
    assert wall_score(cards("ink-4", "ink-6", "ink-5"), "same_number").points == 6


def test_cards_of_the_same_number_score_two_each() -> None:
    sheet = wall_score(cards("oil-7", "ink-7", "clay-7", "silk-7"), "same_number")
    assert (sheet.category, sheet.points) == ("same_group", 8)


def test_a_plain_run_scores_one_each() -> None:
    sheet = wall_score(cards("oil-1", "ink-2", "oil-3", "silk-4"), "same_number")
    assert (sheet.category, sheet.points) == ("plain_run", 4)


def test_just_the_same_suit_scores_one_each() -> None:
    sheet = wall_score(cards("glass-1", "glass-5", "glass-9"), "same_number")
    assert (sheet.category, sheet.points) == ("same_suit", 3)


def test_read_literally_the_first_line_scores_a_one_suit_wall_two_each() -> None:
    sheet = wall_score(cards("glass-1", "glass-5", "glass-9"), "same_suit")
    assert (sheet.category, sheet.points) == ("same_group", 6)
    # A set of one number then scores nothing.
    assert wall_score(cards("oil-7", "ink-7", "clay-7"), "same_suit").points == 0


def test_a_wall_scores_by_the_best_line_only_and_a_mixed_wall_scores_nothing() -> None:
    assert wall_score(cards("ink-4", "ink-5", "ink-6"), "same_number").category == "suited_run"
    assert wall_score(cards("ink-4", "ink-5", "ink-6"), "same_suit").category == "suited_run"
    assert wall_score(cards("ink-4", "oil-5", "ink-7"), "same_number").points == 0
    assert wall_score(cards("oil-9", "ink-10", "clay-1"), "same_number").points == 0, "no wrap"


# --- setup and the turn ----------------------------------------------------------------------


def test_setup_deals_two_cards_each_and_lays_four_face_up() -> None:
    state = initial(GalleryOptions(), 3)
    events, state = GAME.settle(state, GAME.start(state, Rng(5, 0)))
    dealt = [e for e in events if isinstance(e, HandDealt)]
    assert [len(e.cards) for e in dealt] == [2, 2, 2]
    assert len([e for e in events if isinstance(e, MarketFilled)]) == 4
    assert events[-1] == TurnBegan(seat=0, take=True)
    # Bea sees Ann's deal as two unknown cards.
    assert redact(dealt[0], 1) == HandDealt(seat=0, cards=(None, None))
    assert len(state.deck) == 50 - 6 - 4


def test_taking_a_face_up_card_refills_the_market_from_the_deck() -> None:
    state = table(market=cards("oil-1", "ink-2", "clay-3", "silk-4"))
    after, events = play(state, TakeCard(card=c("ink-2")), c("glass-9"))
    assert events == [
        CardTaken(seat=ANN, card=c("ink-2"), from_deck=False),
        MarketFilled(card=c("glass-9")),
    ]
    assert after.hands[ANN] == [c("ink-2")]
    assert after.phase == "hang"
    # Everyone saw it taken: Bea's view names it in Ann's hand.
    assert view(after, BEA).hands[ANN] == [c("ink-2")]


def test_gambling_on_the_deck_takes_an_unseen_card_only_its_taker_learns() -> None:
    state = table(market=cards("oil-1"))
    after, events = play(state, TakeCard(), c("silk-6"))
    assert events == [CardTaken(seat=ANN, card=c("silk-6"), from_deck=True)]
    assert redact(events[0], BEA) == CardTaken(seat=ANN, card=None, from_deck=True)
    assert c("silk-6") not in msgspec.json.encode(view(after, BEA)).decode()
    assert view(after, ANN).hands[ANN] == [c("silk-6")]
    assert view(after, BEA).hands[ANN] == [None]


def test_an_empty_deck_leaves_only_the_face_up_cards() -> None:
    state = table(market=cards("oil-1"), deck=[])
    assert refused(state, TakeCard()) == "deck_empty"
    assert list(GAME.legal(state, ANN)) == [TakeCard(card=c("oil-1"))]


def test_a_card_not_on_offer_cannot_be_taken_and_one_take_per_turn() -> None:
    state = table(market=cards("oil-1"))
    assert refused(state, TakeCard(card=c("ink-9"))) == "card_not_on_offer"
    assert refused(state, HangCard(card=c("oil-1"), wall=0)) == "take_first"
    after, _ = play(
        state, TakeCard(card=c("oil-1")), c("ink-9"), c("ink-8"), c("ink-7"), c("ink-6")
    )
    assert refused(after, TakeCard()) == "already_taken"


def test_hanging_a_card_from_hand_on_a_free_wall_ends_the_turn() -> None:
    full = cards("oil-1", "oil-2", "oil-3")
    state = table(ann_hand=cards("ink-5", "ink-6"), ann_walls=[full, [], []], phase="hang")
    assert refused(state, HangCard(card=c("ink-5"), wall=0)) == "wall_full"
    assert refused(state, HangCard(card=c("ink-9"), wall=1)) == "card_not_in_hand"
    assert refused(state, HangCard(card=c("ink-5"), wall=3)) == "no_such_wall"
    after, events = play(state, HangCard(card=c("ink-5"), wall=2))
    assert events == [CardHung(seat=ANN, card=c("ink-5"), wall=2), TurnBegan(seat=BEA, take=True)]
    assert after.walls[ANN][2] == [c("ink-5")] and after.hands[ANN] == [c("ink-6")]


def test_with_nothing_left_to_take_a_player_only_hangs() -> None:
    state = table(ann_hand=cards("ink-5"), phase="hang", player=BEA, deck=[], market=[])
    state = msgspec.structs.replace(state, hands=[[], cards("ink-5")])
    _, events = play(state, HangCard(card=c("ink-5"), wall=0))
    assert events[-1] == TurnBegan(seat=ANN, take=False)


def _full_gallery(suit: str, start: int) -> list[list[str]]:
    """Walls of 3, 3 and 4 cards of one suit, numbers from `start`."""
    numbers = iter(range(start, start + 10))
    return [[c(f"{suit}-{next(numbers)}") for _ in range(size)] for size in (3, 3, 4)]


def test_the_game_ends_when_every_gallery_is_full() -> None:
    ann = _full_gallery("oil", 1)
    bea = _full_gallery("ink", 1)
    last = bea[2].pop()
    state = table(ann_walls=ann, bea_walls=bea, phase="hang", player=BEA)
    state = msgspec.structs.replace(state, hands=[[], [last]])
    after, events = play(state, HangCard(card=last, wall=2))
    assert isinstance(events[-1], GameEnded)
    # Both galleries are suited runs: 20 points each; the tie goes to the higher numbers.
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (20, 20)
    assert outcome.ranks == (1, 1), "equal totals and equal numbers share the win"


def test_equal_totals_go_to_the_higher_numbers_hung() -> None:
    ann = [
        cards("oil-8", "oil-9", "oil-10"),
        cards("ink-1", "ink-5", "ink-9"),
        cards("clay-1", "glass-3", "silk-5", "oil-7"),
    ]
    bea = [
        cards("ink-2", "ink-3", "ink-4"),
        cards("clay-2", "clay-6", "clay-8"),
        cards("glass-1", "silk-3", "oil-5", "ink-7"),
    ]
    last = bea[2].pop()
    state = table(ann_walls=ann, bea_walls=bea, phase="hang", player=BEA)
    state = msgspec.structs.replace(state, hands=[[], [last]])
    after, _ = play(state, HangCard(card=last, wall=2))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (9, 9)
    assert outcome.ranks == (1, 2)
