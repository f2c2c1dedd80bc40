"""Scripta: the conformance kit, then the page's three ways to win and the house turn."""

from __future__ import annotations

import msgspec

from domain.games.scripta import GAME
from domain.games.scripta.cards import CARDS
from domain.games.scripta.commands import Command, DiscardCard, DrawCard
from domain.games.scripta.events import (
    CardDiscarded,
    CardDrawn,
    ConditionMet,
    DiscardTurned,
    Event,
    GameWon,
    HandDealt,
    TurnBegan,
)
from domain.games.scripta.rules import winning
from domain.games.scripta.state import ScriptaOptions, Table, initial
from domain.games.scripta.view import redact, view
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA, CID = 0, 1, 2
INKS = ("black", "red", "blue", "green")


def hand(*numbers: int, ink: int = 0) -> list[str]:
    """Cards of these numbers, each copy in the next ink from `ink` (Bea's hands start at
    the third ink so no card is in two hands)."""
    used: dict[int, int] = {n: ink for n in numbers}
    out = []
    for n in numbers:
        out.append(f"sc-{n}-{INKS[used[n]]}")
        used[n] += 1
    return out


def table(
    ann: list[str], bea: list[str], *, discards: list[str] | None = None, **fields: object
) -> Table:
    """Ann to draw in round 1 of a two-seat game; the deck holds every card not shown."""
    state = initial(ScriptaOptions(), 2)
    shown = set(ann) | set(bea) | set(discards or [])
    state = msgspec.structs.replace(
        state,
        hands=[sorted(ann), sorted(bea)],
        discards=discards or [],
        deck=[c for c in sorted(CARDS) if c not in shown],
        phase="draw",
        player=ANN,
        round=1,
    )
    return msgspec.structs.replace(state, **fields)


def play(state: Table, command: Command, *outcomes: str) -> tuple[Table, list[Event]]:
    return stories.play(GAME, state, state.player, command, Rigged(*outcomes))


def refused(state: Table, command: Command) -> str:
    return stories.refused(GAME, state, state.player, command)


# --- the page's three ways to win ------------------------------------------------------------


def test_four_cards_of_the_same_number_win() -> None:
    assert winning(hand(3, 3, 3, 3, 1)) == "same_number"
    assert winning(hand(3, 3, 3, 1, 2)) is None


def test_a_five_number_straight_wins() -> None:
    assert winning(hand(2, 4, 3, 6, 5)) == "straight"
    assert winning(hand(1, 2, 3, 4, 6)) is None


def test_a_total_of_thirty_five_or_more_wins() -> None:
    assert winning(hand(9, 9, 8, 8, 1)) == "sum"  # 35
    assert winning(hand(9, 9, 8, 7, 1)) is None  # 34


def test_a_hand_meeting_a_way_to_win_on_discarding_wins_once_the_round_is_out() -> None:
    # Ann holds 9 9 8 7 1 (34): she draws an 8 and drops the 1, making 35.
    state = table(hand(9, 9, 8, 7, 1), hand(1, 2, 3, 5, 7, ink=2))
    state, _ = play(state, DrawCard(source="deck"), "sc-8-blue")
    after, events = play(state, DiscardCard(card="sc-1-black"))
    assert events[1] == ConditionMet(seat=ANN, win="sum", hand=tuple(after.hands[ANN]))
    # Bea still plays her turn in this round; she does not meet one, so Ann alone wins.
    assert events[-1] == TurnBegan(seat=BEA, round=1)
    after, _ = play(after, DrawCard(source="deck"), "sc-9-blue")
    done, events = play(after, DiscardCard(card="sc-1-blue"))
    assert isinstance(events[-1], GameWon)
    assert (events[-1].winners, events[-1].wins) == ((ANN,), ("sum",))
    outcome = GAME.outcome(done)
    assert outcome is not None and outcome.ranks == (1, 2)


def test_everyone_who_meets_a_way_to_win_in_the_last_round_wins_together() -> None:
    state = table(hand(9, 9, 8, 8, 2), hand(4, 5, 6, 7, 1, ink=2), phase="discard")
    state = msgspec.structs.replace(state, hands=[[*state.hands[0], "sc-1-black"], state.hands[1]])
    state, _ = play(state, DiscardCard(card="sc-2-black"))
    state, _ = play(state, DrawCard(source="deck"), "sc-8-blue")
    done, events = play(state, DiscardCard(card="sc-1-blue"))
    assert isinstance(events[-1], GameWon)
    assert (events[-1].winners, events[-1].wins) == ((ANN, BEA), ("sum", "straight"))


# --- the house turn --------------------------------------------------------------------------


def test_setup_deals_five_each_and_turns_one_card_face_up() -> None:
    state = initial(ScriptaOptions(), 3)
    events, state = GAME.settle(state, GAME.start(state, Rng(9, 0)))
    dealt = [e for e in events if isinstance(e, HandDealt)]
    assert [len(e.cards) for e in dealt] == [5, 5, 5]
    assert isinstance(events[-2], DiscardTurned) and events[-1] == TurnBegan(seat=ANN, round=1)
    assert redact(dealt[0], BEA) == HandDealt(seat=ANN, cards=(None,) * 5)
    assert len(state.deck) == 36 - 15 - 1


def test_a_deck_draw_is_secret_and_a_discard_pile_draw_is_public() -> None:
    state = table(hand(1, 2, 3, 4, 6), hand(1, 2, 3, 5, 7, ink=2), discards=hand(9))
    after, events = play(state, DrawCard(source="deck"), "sc-5-green")
    assert redact(events[0], BEA) == CardDrawn(seat=ANN, card=None, from_deck=True)
    assert "sc-5-green" not in msgspec.json.encode(view(after, BEA)).decode()
    after, events = play(state, DrawCard(source="discard"))
    assert events == [CardDrawn(seat=ANN, card="sc-9-black", from_deck=False)]
    assert "sc-9-black" in view(after, BEA).hands[ANN]
    assert after.discards == []


def test_one_draw_then_one_discard() -> None:
    state = table(hand(1, 2, 3, 4, 6), hand(1, 2, 3, 5, 7, ink=2))
    assert refused(state, DiscardCard(card="sc-1-black")) == "draw_first"
    assert refused(state, DrawCard(source="discard")) == "discard_pile_empty"
    after, _ = play(state, DrawCard(source="deck"), "sc-8-blue")
    assert refused(after, DrawCard(source="deck")) == "already_drawn"
    assert refused(after, DiscardCard(card="sc-9-black")) == "card_not_in_hand"
    after, events = play(after, DiscardCard(card="sc-8-blue"))
    assert events == [CardDiscarded(seat=ANN, card="sc-8-blue"), TurnBegan(seat=BEA, round=1)]


def test_an_empty_deck_leaves_the_discard_pile_only() -> None:
    state = table(hand(1, 2, 3, 4, 6), hand(1, 2, 3, 5, 7, ink=2), discards=hand(9), deck=[])
    assert refused(state, DrawCard(source="deck")) == "deck_empty"
    assert list(GAME.legal(state, ANN)) == [DrawCard(source="discard")]


def test_when_the_deck_runs_out_the_highest_hand_wins() -> None:
    state = table(
        hand(1, 2, 3, 4, 6), hand(1, 2, 3, 5, 9, ink=2), phase="discard", deck=["sc-7-blue"]
    )
    state = msgspec.structs.replace(state, hands=[[*state.hands[0], "sc-8-blue"], state.hands[1]])
    state = msgspec.structs.replace(state, deck=[])
    _, events = play(state, DiscardCard(card="sc-1-black"))
    assert isinstance(events[-1], GameWon)
    assert (events[-1].winners, events[-1].wins) == ((ANN,), ("highest_hand",))


def test_after_the_last_round_the_highest_hand_wins_and_equal_hands_share() -> None:
    state = table(hand(1, 2, 3, 4, 6), hand(1, 2, 3, 4, 6, ink=2), phase="discard", player=BEA)
    state = msgspec.structs.replace(
        state, round=20, hands=[state.hands[0], [*state.hands[1], "sc-5-blue"]]
    )
    _, events = play(state, DiscardCard(card="sc-5-blue"))
    assert isinstance(events[-1], GameWon)
    assert events[-1].winners == (ANN, BEA)
