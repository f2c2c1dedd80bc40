"""Easy Peasy: the conformance kit, then the rulebook's tricky cases as short stories."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from msgspec.structs import replace

from domain.games.easypeasy import GAME
from domain.games.easypeasy.cards import Arrow
from domain.games.easypeasy.commands import (
    Command,
    DrawCards,
    EndTurn,
    FlipArrow,
    NextRound,
    PlayCard,
    RevealCard,
)
from domain.games.easypeasy.events import (
    BonusEarned,
    CardRevealed,
    DeckReshuffled,
    Event,
    RoundScored,
    TurnPassed,
)
from domain.games.easypeasy.state import Options, Secrets, Stack, State
from domain.games.easypeasy.view import TableView
from domain.kernel import Rejected, Rng
from tests.conformance.kit import run_conformance
from tests.support import stories

ANN, BEA, CID = 0, 1, 2
COLOURS = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "p": "purple", "o": "orange"}


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


# --- a rigged table --------------------------------------------------------------------------


def c(short: str) -> str:
    """A card by short name: "r5" is the red 5."""
    return f"ep-{COLOURS[short[0]]}-{short[1:]}"


def cards(shorts: str) -> list[str]:
    return [c(s) for s in shorts.split()]


def table(
    hands: Sequence[str],
    rows: Sequence[str] = (),
    left: str = "r5",
    right: str = "b5",
    arrow: Arrow = "up",
    deck: str = "",
    turn: int = ANN,
    **options: object,
) -> State:
    """A round under way. A row is "cover/under cover/under" ("r3/g7 b2/y1")."""
    seats = len(hands)
    state = GAME.initial(Options(**options), seats)  # type: ignore[arg-type]
    spare = ["o9/o10 o8/o7", "p9/p10 p8/p7", "y9/y10 y8/y7"]
    row_specs = [*rows, *spare[len(rows) : seats]]
    built = [
        [
            Stack(cover=c(p.split("/")[0]), under=c(p.split("/")[1]), revealed=False)
            for p in spec.split()
        ]
        for spec in row_specs
    ]
    return replace(
        state,
        phase="turn",
        round=1,
        turn=turn,
        arrow=arrow,
        piles=[[c(left)], [c(right)]],
        rows=built,
        secret=Secrets(hands=[cards(h) for h in hands], deck=cards(deck), set_aside=[]),
    )


def play(state: State, seat: int, command: Command, seed: int = 1) -> tuple[State, list[Event]]:
    return stories.play(GAME, state, seat, command, Rng(seed, 0))


def rejected(state: State, seat: int, command: Command) -> str:
    return stories.refused(GAME, state, seat, command, Rng(1, 0))


# --- the stories --------------------------------------------------------------------------------


def test_up_asks_for_a_card_at_least_the_piles_top_card() -> None:
    state = table(hands=["g5 g4 y9", "y2"], left="r5", arrow="up")
    # An equal card is fine on UP; a lower one is not.
    assert PlayCard(card=c("g5"), pile="left") in GAME.legal(state, ANN)
    assert rejected(state, ANN, PlayCard(card=c("g4"), pile="left")) == "card_too_low"
    state, _ = play(state, ANN, PlayCard(card=c("g5"), pile="left"))
    assert state.piles[0][-1] == c("g5") and state.turn == BEA


def test_down_asks_for_a_card_at_most_the_piles_top_card() -> None:
    state = table(hands=["g6 g4 y9", "y2"], right="b5", arrow="down")
    assert rejected(state, ANN, PlayCard(card=c("g6"), pile="right")) == "card_too_high"
    assert PlayCard(card=c("g4"), pile="right") in GAME.legal(state, ANN)


def test_a_face_up_row_card_may_be_played_but_not_the_one_beneath_it() -> None:
    state = table(hands=["g1 g2", "y2"], rows=["y7/p8 o1/o2"], left="r5", arrow="up")
    state, _ = play(state, ANN, PlayCard(card=c("y7"), pile="left"))
    assert state.rows[ANN][0] == Stack(cover=None, under=c("p8"), revealed=False)
    # The face-down purple 8 now lies bare, but it stays unplayable until revealed.
    state = replace(state, turn=ANN)
    assert rejected(state, ANN, PlayCard(card=c("p8"), pile="left")) == "card_not_playable"


def test_face_down_row_cards_are_hidden_from_everyone_including_their_owner() -> None:
    state = table(hands=["g1 g2", "y2"], rows=["y7/p8 o1/o2"])
    for reader in (ANN, BEA, None):
        assert {c("p8"), c("o2")} <= GAME.hidden(state, reader)
        shown = GAME.view(state, reader)
        assert isinstance(shown, TableView)
        assert shown.seats[ANN].row[0].under is None
    # Ann's own hand is hers alone.
    assert c("g1") not in GAME.hidden(state, ANN) and c("g1") in GAME.hidden(state, BEA)


def test_drawing_two_flips_the_arrow_and_then_any_card_must_be_played() -> None:
    state = table(hands=["g9 y1", "y2"], left="r5", right="b5", arrow="up", deck="p3 o8")
    # Ann could play her 9 but chooses to draw instead.
    state, _ = play(state, ANN, DrawCards())
    assert state.arrow == "down" and state.phase == "draw_play"
    assert sorted(state.secret.hands[ANN]) == sorted(cards("g9 y1 p3 o8"))
    # Now she must play a card under the new arrow, a drawn one or not; no second draw.
    assert rejected(state, ANN, DrawCards()) == "already_acted"
    assert rejected(state, ANN, PlayCard(card=c("g9"), pile="left")) == "card_too_high"
    state, _ = play(state, ANN, PlayCard(card=c("y1"), pile="left"))
    assert state.turn == BEA


def test_drawing_is_compulsory_when_no_card_can_be_played() -> None:
    state = table(hands=["g1 y2", "y3"], rows=["r1/r2 r3/r4"], left="b9", right="p9")
    assert GAME.legal(state, ANN) == [DrawCards()]


def test_when_no_card_fits_even_after_drawing_the_turn_ends() -> None:
    state = table(hands=["g2 y2", "y3"], rows=["r2/r3 r4/r5"], left="b1", right="p1", deck="o5 o6")
    # Ann draws by choice; the arrow turns to DOWN and nothing is at most 1.
    state, events = play(state, ANN, DrawCards())
    assert events[-1] == TurnPassed(seat=BEA)
    assert state.turn == BEA and len(state.secret.hands[ANN]) == 4


def test_a_colour_match_earns_a_second_card_on_the_same_pile() -> None:
    state = table(hands=["r6 r7 b8", "y2"], left="r5", right="b5", arrow="up")
    state, events = play(state, ANN, PlayCard(card=c("r6"), pile="left"))
    assert isinstance(events[-1], BonusEarned) and state.phase == "bonus"
    # The second card must go on the same pile, and still obey the arrow.
    assert rejected(state, ANN, PlayCard(card=c("b8"), pile="right")) == "bonus_same_pile"
    # The red 7 matches again: another bonus, which Ann declines.
    state, events = play(state, ANN, PlayCard(card=c("r7"), pile="left"))
    assert isinstance(events[-1], BonusEarned)
    state, events = play(state, ANN, EndTurn())
    assert events == [TurnPassed(seat=BEA)]


def test_the_bonus_may_instead_reveal_a_face_down_row_card() -> None:
    state = table(hands=["r6 g1", "y2"], rows=["y7/p8 o1/o2"], left="r5")
    state, _ = play(state, ANN, PlayCard(card=c("r6"), pile="left"))
    # Ann turns up the card under her yellow 7, still covered.
    assert RevealCard(stack=0) in GAME.legal(state, ANN)
    state, events = play(state, ANN, RevealCard(stack=0))
    assert isinstance(events[0], CardRevealed) and events[0].card == c("p8")
    assert state.rows[ANN][0].revealed and state.turn == BEA
    # Everyone now sees it; it becomes playable once the yellow 7 is gone.
    assert c("p8") not in GAME.hidden(state, BEA)
    state = replace(state, turn=ANN, arrow="up")
    assert rejected(state, ANN, PlayCard(card=c("p8"), pile="left")) == "card_covered"
    state, _ = play(state, ANN, PlayCard(card=c("y7"), pile="left"))
    state = replace(state, turn=ANN)
    assert PlayCard(card=c("p8"), pile="left") in GAME.legal(state, ANN)


def test_sentences_and_messages_number_the_row_stacks_from_one() -> None:
    state = table(hands=["r6 g1", "y2"], rows=["y7/p8 o1/o2"], left="r5")
    state, _ = play(state, ANN, PlayCard(card=c("r6"), pile="left"))
    # Ann's row has stacks 0 and 1 in JSON; asking for a third is refused as "stack 3".
    assert rejected(state, ANN, RevealCard(stack=2)) == "no_such_stack"
    with pytest.raises(Rejected, match="no stack 3"):
        GAME.decide(state, ANN, RevealCard(stack=2), Rng(1, 0))
    # She turns up the card under her orange 1, stack 1 in JSON: the sentence says stack 2.
    after, events = play(state, ANN, RevealCard(stack=1))
    assert events[0] == CardRevealed(seat=ANN, stack=1, card=c("o2"))
    sentence = GAME.describe(events[0], BEA, ["Ann", "Bea"])
    assert sentence == "Ann turned up the orange 2 in Ann's row (stack 2)."
    # The same card again: "stack 2" has nothing face down any more.
    again = replace(after, turn=ANN, phase="bonus", bonus_pile="left")
    with pytest.raises(Rejected, match="Stack 2 of your row"):
        GAME.decide(again, ANN, RevealCard(stack=1), Rng(1, 0))


def test_with_the_flip_option_the_bonus_flips_the_arrow_instead() -> None:
    state = table(hands=["r6 g1", "y2"], left="r5", bonus="flip")
    state, _ = play(state, ANN, PlayCard(card=c("r6"), pile="left"))
    assert FlipArrow() in GAME.legal(state, ANN)
    assert rejected(state, ANN, RevealCard(stack=0)) == "bonus_is_flip"
    state, _ = play(state, ANN, FlipArrow())
    assert state.arrow == "down" and state.turn == BEA


def test_with_reveal_uncovered_a_card_turns_up_when_its_cover_is_played() -> None:
    state = table(hands=["g1 g2", "y2"], rows=["y7/p8 o1/o2"], reveal_uncovered=True)
    state, events = play(state, ANN, PlayCard(card=c("y7"), pile="left"))
    assert any(isinstance(e, CardRevealed) and e.card == c("p8") for e in events)
    assert state.rows[ANN][0] == Stack(cover=None, under=c("p8"), revealed=True)


def test_emptying_the_hand_ends_the_round_and_each_keeps_the_higher_total() -> None:
    state = table(
        hands=["g9", "y2 y3", "p3 b1"],
        rows=["r1/r2 r3/r4", "o9/o10 o1/o2", "g1/g2 g3/b2"],
        left="b5",
        right="p5",
    )
    state, events = play(state, ANN, PlayCard(card=c("g9"), pile="left"))
    scored = events[-1]
    assert isinstance(scored, RoundScored) and scored.ender == ANN
    # Bea: hand 5, row 22 -> 22. Cid: hand 4, row 8 -> 8. Ann: row 10, not the lowest -> 20.
    assert scored.points == (20, 22, 8)
    assert state.phase == "round_over" and GAME.to_act(state) == {BEA}
    # Every card is now on show, face-down ones included.
    assert GAME.hidden(state, CID) == frozenset(state.secret.deck)


def test_the_ender_scores_nothing_only_when_strictly_lowest() -> None:
    rows = ["r1/r2 r3/r4", "o9/o10 o1/o2"]
    lowest = table(hands=["g9", "y2 y3"], rows=rows, left="b5", right="p5")
    _, events = play(lowest, ANN, PlayCard(card=c("g9"), pile="left"))
    assert isinstance(events[-1], RoundScored) and events[-1].points == (0, 22)
    # A tie with anyone is not "lower than everyone": the ender doubles.
    rows = ["r6/r7 r4/r5", "o9/o10 o1/o2"]
    tied = table(hands=["g9", "y2 y3"], rows=rows, left="b5", right="p5")
    _, events = play(tied, ANN, PlayCard(card=c("g9"), pile="left"))
    assert isinstance(events[-1], RoundScored) and events[-1].points == (44, 22)


def test_after_the_third_round_the_lowest_total_wins() -> None:
    state = replace(table(hands=["g9", "y2 y3"], left="r5"), round=3, totals=[30, 10])
    state, _ = play(state, ANN, PlayCard(card=c("g9"), pile="left"))
    assert state.phase == "over" and GAME.to_act(state) == frozenset()
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (BEA,)


def test_the_next_round_deals_a_fresh_row_and_hand() -> None:
    state = table(hands=["g9", "y2 y3"], left="r5")
    state, _ = play(state, ANN, PlayCard(card=c("g9"), pile="left"))
    state, _ = play(state, BEA, NextRound())
    assert state.round == 2 and state.turn == BEA
    assert [len(h) for h in state.secret.hands] == [4, 4]
    assert all(len(row) == 2 for row in state.rows)
    assert len(state.secret.deck) == 40 - 2 * 8 - 2


def test_a_short_deck_is_topped_up_from_the_piles_under_their_tops() -> None:
    state = table(hands=["g1", "y2"], deck="o4")
    state = replace(state, piles=[cards("r1 r2 r5"), cards("b3 b5")])
    state, events = play(state, ANN, DrawCards())
    assert isinstance(events[0], DeckReshuffled) and events[0].deck_size == 4
    redacted = GAME.redact(events[0], ANN)
    assert isinstance(redacted, DeckReshuffled) and redacted.deck is None
    # The orange 4 was on top and is drawn first; the tops stay on their piles.
    assert c("o4") in state.secret.hands[ANN]
    assert state.piles == [[c("r5")], [c("b5")]] and len(state.secret.deck) == 2


def test_before_edition_2_a_player_who_concedes_is_skipped_and_ranks_last() -> None:
    """The game's own concede, the rule of matches created before table edition 2."""
    state = table(hands=["g5", "y5", "p5"], left="r1")
    conceded = GAME.concede(state, ANN, Rng(1, 0))
    assert conceded is not None
    _, state = GAME.settle(state, conceded)
    assert state.turn == BEA and c("g5") in GAME.hidden(state, BEA)
    assert GAME.concede(state, BEA, Rng(1, 0)) is None
