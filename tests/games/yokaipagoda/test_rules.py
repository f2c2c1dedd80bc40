"""Yokai Pagoda: the conformance kit, then the rules' tricky cases as short stories."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.yokaipagoda import GAME
from domain.games.yokaipagoda.cards import CARDS
from domain.games.yokaipagoda.commands import (
    CarryOn,
    Command,
    DealRound,
    EndRound,
    GiveCard,
    GiveNothing,
    PlayCard,
    TakeCard,
)
from domain.games.yokaipagoda.events import (
    CardGiven,
    CardPlayed,
    CardTaken,
    Event,
    GameEnded,
    HandDealt,
    RoundEnded,
    RoundStarted,
    TurnBegan,
)
from domain.games.yokaipagoda.rules import offering_value
from domain.games.yokaipagoda.state import Phase, Table, YokaiPagodaOptions
from domain.games.yokaipagoda.view import YokaiPagodaView
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA, CID = 0, 1, 2


def c(kind: str, value: int) -> str:
    return f"yp-{kind}-{value:02d}"


def table(
    ann: list[str],
    bea: list[str] | None = None,
    cid: list[str] | None = None,
    *,
    left: list[str] | None = None,
    right: list[str] | None = None,
    deck: list[str] | None = None,
    failed: list[list[str]] | None = None,
    round: int = 1,
    phase: Phase = "play",
    must_give: bool = False,
) -> Table:
    """Ann to offer at a three-seat table; every card not placed is in the deck."""
    hands = [sorted(ann), sorted(bea or [c("oni", 9)]), sorted(cid or [c("oni", 10)])]
    piles = {
        "left": [c("tengu", 5)] if left is None else left,
        "right": [c("nue", 6)] if right is None else right,
    }
    failed = failed or [[], [], []]
    placed = {x for row in [*hands, *piles.values(), *failed] for x in row}
    return Table(
        seats=3,
        options=YokaiPagodaOptions(must_give=must_give),
        phase=phase,
        round=round,
        player=ANN,
        piles=piles,
        hands=hands,
        deck=sorted(x for x in CARDS if x not in placed) if deck is None else deck,
        failed=failed,
        known=[[], [], []],
    )


def play(state: Table, command: Command, seat: int = ANN) -> tuple[Table, list[Event]]:
    return stories.play(GAME, state, seat, command, Rng(3, 1))


def refused(state: Table, command: Command) -> str:
    return stories.refused(GAME, state, ANN, command, Rng(3, 1))


def test_a_hand_is_worth_only_the_lowest_card_of_each_yokai() -> None:
    assert offering_value([c("kappa", 1), c("kappa", 9), c("oni", 2)]) == 3
    assert offering_value([c("kappa", 4), c("oni", 2), c("oni", 7)]) == 6
    assert offering_value([]) == 0


def test_the_same_yokai_lets_you_give_a_card_that_only_giver_and_receiver_see() -> None:
    # The left pile shows the tengu 5; Ann offers the tengu 8 on it.
    state = table([c("tengu", 8), c("kappa", 7), c("oni", 1)])
    state, events = play(state, PlayCard(card=c("tengu", 8), pile="left"))
    assert events == [CardPlayed(seat=ANN, card=c("tengu", 8), pile="left", effect="match")]
    # She gives her kappa 7 to Bea; Cid only learns that a card changed hands.
    state, events = play(state, GiveCard(card=c("kappa", 7), to=BEA))
    assert events[0] == CardGiven(giver=ANN, receiver=BEA, card=c("kappa", 7))
    assert GAME.redact(events[0], CID) == CardGiven(giver=ANN, receiver=BEA, card=None)
    assert c("kappa", 7) in state.hands[BEA]
    assert c("kappa", 7) not in GAME.hidden(state, ANN)
    assert c("kappa", 7) in GAME.hidden(state, CID)
    assert events[-1] == TurnBegan(seat=BEA)


def test_the_same_number_of_another_yokai_is_also_a_match() -> None:
    state = table([c("kappa", 5), c("oni", 1)])
    _, events = play(state, PlayCard(card=c("kappa", 5), pile="left"))
    assert events[0].effect == "match"  # type: ignore[union-attr]


def test_a_gift_cannot_go_to_yourself_and_is_optional_unless_the_table_says_otherwise() -> None:
    state, _ = play(
        table([c("tengu", 8), c("kappa", 7)]), PlayCard(card=c("tengu", 8), pile="left")
    )
    assert refused(state, GiveCard(card=c("kappa", 7), to=ANN)) == "give_to_another"
    assert GiveNothing() in GAME.legal(state, ANN)
    strict, _ = play(
        table([c("tengu", 8), c("kappa", 7)], must_give=True),
        PlayCard(card=c("tengu", 8), pile="left"),
    )
    assert refused(strict, GiveNothing()) == "must_give"


def test_a_higher_card_of_another_yokai_takes_from_the_deck_or_the_other_pile() -> None:
    # Ann offers the kappa 9 on the tengu 5; the right pile holds nue 6 over oni 3.
    state = table([c("kappa", 9), c("oni", 1)], right=[c("oni", 3), c("nue", 6)])
    state, events = play(state, PlayCard(card=c("kappa", 9), pile="left"))
    assert events[0].effect == "higher"  # type: ignore[union-attr]
    assert set(GAME.legal(state, ANN)) == {TakeCard(source="deck"), TakeCard(source="pile")}
    took_pile, events = play(state, TakeCard(source="pile"))
    assert events[0] == CardTaken(seat=ANN, source="pile", card=c("nue", 6))
    assert took_pile.piles["right"] == [c("oni", 3)]
    # A card from the deck is seen by the taker only.
    _, events = play(state, TakeCard(source="deck"))
    drawn = events[0]
    assert isinstance(drawn, CardTaken) and drawn.card is not None
    assert GAME.redact(drawn, BEA) == CardTaken(seat=ANN, source="deck", card=None)


def test_with_the_deck_empty_a_higher_card_takes_from_the_other_pile_only() -> None:
    # Empty deck, the right pile holds two cards: only the pile can be taken from.
    state = table([c("kappa", 9), c("oni", 1)], right=[c("oni", 3), c("nue", 6)], deck=[])
    state, _ = play(state, PlayCard(card=c("kappa", 9), pile="left"))
    assert list(GAME.legal(state, ANN)) == [TakeCard(source="pile")]
    assert refused(state, TakeCard(source="deck")) == "cannot_take_there"
    # Empty deck and an empty right pile: nothing is taken, the turn passes.
    state = table([c("kappa", 9), c("oni", 1)], right=[], deck=[])
    state, events = play(state, PlayCard(card=c("kappa", 9), pile="left"))
    assert events[-1] == TurnBegan(seat=BEA) and state.hands[ANN] == [c("oni", 1)]


def test_take_the_top_face_up_card_of_the_other_pile_even_its_last_one() -> None:
    # A round has just begun: each pile holds the one card it started with.
    state = table([c("kappa", 9), c("oni", 1)])
    # Ann's kappa 9 on the tengu 5 is higher: the right pile's only card, nue 6, may be taken.
    state, _ = play(state, PlayCard(card=c("kappa", 9), pile="left"))
    assert set(GAME.legal(state, ANN)) == {TakeCard(source="deck"), TakeCard(source="pile")}
    state, events = play(state, TakeCard(source="pile"))
    assert events[0] == CardTaken(seat=ANN, source="pile", card=c("nue", 6))
    assert state.piles["right"] == [] and c("nue", 6) in state.hands[ANN]


def test_a_card_offered_on_an_emptied_pile_has_nothing_to_compare_with_and_no_effect() -> None:
    # The right pile was emptied by a take; Bea offers her nue 2 on it.
    state = table([c("kappa", 1)], [c("nue", 2), c("oni", 9)], right=[])
    state = replace(state, player=BEA)
    state, events = play(state, PlayCard(card=c("nue", 2), pile="right"), seat=BEA)
    # It starts the pile again: no gift, no take, no round end; Cid offers next.
    assert events == [
        CardPlayed(seat=BEA, card=c("nue", 2), pile="right", effect="none"),
        TurnBegan(seat=CID),
    ]
    assert state.piles["right"] == [c("nue", 2)]


def test_the_round_ender_shows_their_hand_to_everyone() -> None:
    # Ann's kappa 2 on the tengu 5 is lower; her hand left, kappa 1 and oni 2, is worth 3.
    state = table([c("kappa", 2), c("kappa", 1), c("oni", 2)], [c("oni", 9)], [c("nue", 4)])
    state, _ = play(state, PlayCard(card=c("kappa", 2), pile="left"))
    state, events = play(state, EndRound())
    # She shows it, so the table sees she was allowed to end; the others' hands stay hidden.
    assert events == [RoundEnded(round=1, ender=ANN, shown=(c("kappa", 1), c("oni", 2)))]
    for reader in (BEA, CID, None):
        assert GAME.redact(events[0], reader) == events[0]
        assert not {c("kappa", 1), c("oni", 2)} & GAME.hidden(state, reader)
    assert c("oni", 9) in GAME.hidden(state, CID) and c("nue", 4) in GAME.hidden(state, BEA)


def test_a_lower_card_lets_you_end_the_round_only_with_a_hand_worth_three_or_less() -> None:
    # Ann offers the kappa 2 on the tengu 5; kappa 1, kappa 8 and oni 2 are worth 1 + 2.
    state = table([c("kappa", 2), c("kappa", 1), c("kappa", 8), c("oni", 2)])
    state, events = play(state, PlayCard(card=c("kappa", 2), pile="left"))
    assert events == [CardPlayed(seat=ANN, card=c("kappa", 2), pile="left", effect="lower")]
    assert set(GAME.legal(state, ANN)) == {EndRound(), CarryOn()}
    # Worth more than 3 (kappa 1 + oni 4), the turn simply passes.
    state = table([c("kappa", 2), c("kappa", 1), c("oni", 4)])
    state, events = play(state, PlayCard(card=c("kappa", 2), pile="left"))
    assert events[-1] == TurnBegan(seat=BEA)


def test_ending_the_round_moves_every_hand_to_failed_offerings_showing_only_the_enders() -> None:
    state = table([c("kappa", 2), c("kappa", 1)], [c("oni", 9), c("nue", 2)])
    state, _ = play(state, PlayCard(card=c("kappa", 2), pile="left"))
    state, events = play(state, EndRound())
    assert events == [RoundEnded(round=1, ender=ANN, shown=(c("kappa", 1),))]
    assert state.failed == [[c("kappa", 1)], [c("nue", 2), c("oni", 9)], [c("oni", 10)]]
    assert c("kappa", 1) not in GAME.hidden(state, BEA)
    assert c("oni", 9) in GAME.hidden(state, ANN)
    # Bea, the next player, deals round 2 from every card not in failed offerings.
    assert GAME.to_act(state) == frozenset({BEA})
    state, events = play(state, DealRound(), seat=BEA)
    assert isinstance(events[0], RoundStarted) and events[0].first == BEA
    dealt = [e for e in events if isinstance(e, HandDealt)]
    assert [e.count for e in dealt] == [7, 7, 7]
    assert GAME.redact(dealt[0], BEA) == HandDealt(seat=ANN, count=7, cards=None)
    assert not set(state.hands[ANN]) & {c("kappa", 1), c("oni", 9), c("oni", 10)}


def test_a_player_whose_hand_empties_ends_the_round_at_once() -> None:
    # Ann's last card matches the pile: with nothing left to give, the round ends.
    state = table([c("tengu", 8)])
    state, events = play(state, PlayCard(card=c("tengu", 8), pile="left"))
    assert events[-1] == RoundEnded(round=1, ender=ANN, shown=())
    # Giving away your last card ends it too.
    state = table([c("tengu", 8), c("kappa", 7)])
    state, _ = play(state, PlayCard(card=c("tengu", 8), pile="left"))
    state, events = play(state, GiveCard(card=c("kappa", 7), to=CID))
    assert events[-1] == RoundEnded(round=1, ender=ANN, shown=())


def test_after_the_last_round_the_lowest_failed_offerings_win() -> None:
    # Round 3 of 3: Ann ends it. Bea's failed pile counts only the lowest of each Yokai.
    failed = [[c("kappa", 5)], [c("oni", 1), c("oni", 9), c("nue", 3)], [c("tanuki", 2)]]
    state = table(
        [c("kappa", 2), c("kappa", 1)], [c("nue", 1)], [c("oni", 4)], failed=failed, round=3
    )
    state, _ = play(state, PlayCard(card=c("kappa", 2), pile="left"))
    state, events = play(state, EndRound())
    end = events[-1]
    assert isinstance(end, GameEnded)
    # Ann: kappa 1 (5 is higher) = 1; Bea: oni 1 + nue 1 = 2; Cid: tanuki 2 + oni 4 = 6.
    assert end.scores == (1, 2, 6)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 2, 3)
    assert GAME.hidden(state, CID) == frozenset()


def test_two_players_play_four_rounds_and_more_play_three() -> None:
    two = GAME.view(GAME.initial(YokaiPagodaOptions(), 2), None)
    five = GAME.view(GAME.initial(YokaiPagodaOptions(), 5), None)
    assert isinstance(two, YokaiPagodaView) and isinstance(five, YokaiPagodaView)
    assert two.rounds == 4
    assert five.rounds == 3


def test_only_cards_in_your_hand_may_be_offered_and_effects_come_first() -> None:
    state = table([c("tengu", 8), c("kappa", 7)])
    assert refused(state, PlayCard(card=c("oni", 9), pile="left")) == "card_not_in_hand"
    state, _ = play(state, PlayCard(card=c("tengu", 8), pile="left"))
    assert refused(state, PlayCard(card=c("kappa", 7), pile="right")) == "resolve_your_offering"
    assert refused(state, EndRound()) == "cannot_end_now"
