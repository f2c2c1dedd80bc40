"""Panda Panda: the conformance kit, then the rulebook's tricky cases as short stories."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from msgspec.structs import replace

from domain import match as m
from domain.games.pandapanda import GAME
from domain.games.pandapanda.cards import LETTER_OF, WINNING_HANDS
from domain.games.pandapanda.commands import (
    Command,
    Discard,
    DrawFromDeck,
    NextRound,
    PassCard,
    SkipTurn,
    TakeDiscard,
)
from domain.games.pandapanda.events import (
    CardsPassed,
    DeckReshuffled,
    Event,
    PassChosen,
    PassingStarted,
    RoundDealt,
    RoundWon,
)
from domain.games.pandapanda.state import Options, Secrets, State
from domain.games.pandapanda.view import TableView
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.games.pandapanda.win_shares import win_shares
from tests.support import stories
from tests.support.stories import Match

ANN, BEA, CID = 0, 1, 2
NAMES = ("Ann", "Bea", "Cid")
E = TypeVar("E", bound=Event)


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


# --- a rigged table --------------------------------------------------------------------------


class Cards:
    """Hands out distinct card ids by letter: cards("DDB") -> three ids, never reused."""

    def __init__(self) -> None:
        self.used: dict[str, int] = {}

    def __call__(self, letters: str) -> list[str]:
        out = []
        for letter in letters:
            self.used[letter] = self.used.get(letter, 0) + 1
            out.append(f"pp-{letter.lower()}-{self.used[letter]:02d}")
        return out


def table(
    hands: Sequence[str],
    deck: str = "",
    discards: Sequence[str] = (),
    turn: int = ANN,
    wins: Sequence[int] = (),
) -> State:
    """A round under way: hands, deck (top card last) and piles written as letters."""
    cards = Cards()
    seats = len(hands)
    state = GAME.initial(Options(), seats)
    piles = [cards(pile) for pile in discards] or [[] for _ in range(seats)]
    return replace(
        state,
        phase="turn",
        round=1,
        turn=turn,
        wins=list(wins) or [0] * seats,
        discards=piles + [[] for _ in range(seats - len(piles))],
        secret=Secrets(
            hands=[cards(hand) for hand in hands], deck=cards(deck), chosen=[None] * seats
        ),
    )


def play(state: State, seat: int, command: Command, seed: int = 1) -> tuple[State, list[Event]]:
    return stories.play(GAME, state, seat, command, Rng(seed, 0))


def letters(cards: Iterable[str]) -> str:
    return "".join(sorted(LETTER_OF[card] for card in cards))


def rejected(state: State, seat: int, command: Command) -> str:
    return stories.refused(GAME, state, seat, command, Rng(1, 0))


def seen(state: State, reader: int | None) -> TableView:
    """The table as `reader` sees it (GAME.view, typed as the view it returns)."""
    shown = GAME.view(state, reader)
    assert isinstance(shown, TableView)
    return shown


def redacted(event: E, reader: int | None) -> E:
    """The event as `reader` sees it: the same kind of event, never None."""
    shown = GAME.redact(event, reader)
    assert isinstance(shown, type(event))
    return shown


# --- the stories --------------------------------------------------------------------------------


def test_a_completed_hand_wins_only_at_the_start_of_its_owners_next_turn() -> None:
    state = table(hands=["DDB", "CCE"], discards=["", "D"])
    # Ann takes Bea's D and holds D-D-D-B: too many cards, so she discards the B.
    state, events = play(state, ANN, TakeDiscard(pile=BEA))
    state, events = play(state, BEA, Discard(letter="C"))
    state, events = play(state, ANN, Discard(letter="B"))
    # She now holds D-D-D, but the round is not won on the turn she completes it.
    assert letters(state.secret.hands[ANN]) == "DDD"
    assert not any(isinstance(e, RoundWon) for e in events)
    assert state.phase == "turn" and state.turn == BEA
    # Bea plays; as Ann's turn begins, she shows her hand and wins the round.
    state, events = play(state, BEA, Discard(letter="C"))
    assert isinstance(events[-1], RoundWon) and events[-1].seat == ANN
    assert state.phase == "round_over" and state.wins == [1, 0]


def test_a_winning_hand_with_an_extra_card_does_not_win() -> None:
    state = table(hands=["DDDB", "CCE"], turn=BEA)
    # Bea's turn ends; Ann holds D-D-D plus a B, which is not an exact match.
    state, events = play(state, BEA, Discard(letter="C"))
    assert not any(isinstance(e, RoundWon) for e in events)
    assert state.turn == ANN and state.phase == "turn"


def test_a_lone_g_is_no_winning_hand() -> None:
    # The old placeholder line "G" won most random rounds; the table no longer holds it.
    state = table(hands=["G", "CCE"], turn=BEA)
    state, events = play(state, BEA, Discard(letter="C"))
    assert not any(isinstance(e, RoundWon) for e in events)
    assert state.turn == ANN and state.phase == "turn"


def test_in_random_play_every_placeholder_hand_wins_fewer_rounds_than_any_sourced_one() -> None:
    counts, rounds = win_shares(40)
    sourced = [counts[h.letters] for h in WINNING_HANDS if h.sourced]
    placeholders = [counts[h.letters] for h in WINNING_HANDS if not h.sourced]
    assert sum(sourced) + sum(placeholders) == rounds
    assert max(placeholders) < min(sourced), counts


def test_an_a_can_never_be_taken_from_a_discard_pile() -> None:
    state = table(hands=["BC", "CE"], discards=["", "DA"])
    # Bea's pile shows an A on top: Ann cannot take it (nor the D beneath it).
    assert rejected(state, ANN, TakeDiscard(pile=BEA)) == "cannot_take_an_a"


def test_a_player_may_take_the_top_card_of_their_own_discard_pile() -> None:
    state = table(hands=["BC", "CE"], discards=["F", ""])
    assert TakeDiscard(pile=ANN) in GAME.legal(state, ANN)
    state, _ = play(state, ANN, TakeDiscard(pile=ANN))
    assert letters(state.secret.hands[ANN]) == "BCF" and state.discards[ANN] == []


def test_discarding_an_a_makes_everyone_pass_a_card_left_at_the_same_time() -> None:
    state = table(hands=["AB", "CD", "EF"])
    # Ann discards her A: all three who hold a card now choose at once.
    state, _ = play(state, ANN, Discard(letter="A"))
    assert state.phase == "passing" and GAME.to_act(state) == {ANN, BEA, CID}
    # Bea and Cid choose; nothing moves until the last choice is made.
    state, _ = play(state, BEA, PassCard(letter="D"))
    state, _ = play(state, CID, PassCard(letter="E"))
    assert letters(state.secret.hands[ANN]) == "B"
    state, events = play(state, ANN, PassCard(letter="B"))
    # Each card went to the player on the left; hand sizes are unchanged.
    assert any(isinstance(e, CardsPassed) for e in events)
    assert [letters(h) for h in state.secret.hands] == ["E", "BC", "DF"]
    assert state.phase == "turn" and state.turn == BEA


def test_a_chosen_card_stays_hidden_from_the_others_until_the_reveal() -> None:
    state = table(hands=["AB", "CD", "EF"])
    state, _ = play(state, ANN, Discard(letter="A"))
    state, events = play(state, BEA, PassCard(letter="D"))
    (chosen,) = events
    assert isinstance(chosen, PassChosen)
    # Bea sees her choice; Ann, Cid and spectators only see that she chose.
    assert GAME.redact(chosen, BEA) == chosen
    for reader in (ANN, CID, None):
        assert GAME.redact(chosen, reader) == replace(chosen, card=None)
        assert seen(state, reader).passing is None
    assert seen(state, BEA).passing == chosen.card
    # A seat that has chosen cannot choose again.
    assert rejected(state, BEA, PassCard(letter="C")) == "already_chosen"


def test_after_the_reveal_only_giver_and_receiver_know_the_passed_card() -> None:
    state = table(hands=["AB", "CD", "EF"])
    state, _ = play(state, ANN, Discard(letter="A"))
    state, _ = play(state, BEA, PassCard(letter="D"))
    state, _ = play(state, CID, PassCard(letter="E"))
    state, events = play(state, ANN, PassCard(letter="B"))
    reveal = next(e for e in events if isinstance(e, CardsPassed))
    b_card = reveal.cards[ANN]
    assert b_card is not None
    # Ann gave the B to Bea: Ann and Bea see it, Cid does not.
    assert redacted(reveal, ANN).cards[ANN] == b_card
    assert redacted(reveal, BEA).cards[ANN] == b_card
    assert redacted(reveal, CID).cards[ANN] is None
    assert b_card in seen(state, ANN).seats[BEA].known
    assert b_card in GAME.hidden(state, CID)


def test_a_pass_can_complete_a_hand_which_wins_when_its_owners_turn_begins() -> None:
    state = table(hands=["BC", "AD", "DDE"], turn=BEA)
    # Bea discards her A: Ann passes the B, Bea her last D, Cid the E.
    state, _ = play(state, BEA, Discard(letter="A"))
    state, _ = play(state, ANN, PassCard(letter="B"))
    state, _ = play(state, BEA, PassCard(letter="D"))
    state, events = play(state, CID, PassCard(letter="E"))
    # Cid now holds D-D-D and her turn is next: she shows it and wins the round.
    assert [letters(h) for h in state.secret.hands] == ["CE", "B", "DDD"]
    assert isinstance(events[-1], RoundWon) and events[-1].seat == CID


def test_taking_a_discard_shows_the_card_to_everyone() -> None:
    state = table(hands=["BC", "CE", "E"], discards=["", "G", ""])
    state, events = play(state, ANN, TakeDiscard(pile=BEA))
    g_card = state.secret.hands[ANN][-1]
    # Everyone saw the G go into Ann's hand, so nobody has to be kept from it.
    for reader in (BEA, CID, None):
        assert g_card not in GAME.hidden(state, reader)
        assert g_card in seen(state, reader).seats[ANN].known


def test_an_empty_deck_is_rebuilt_from_the_piles_under_their_top_cards() -> None:
    state = table(hands=["B", "C"], deck="", discards=["EFB", "DC"])
    state, events = play(state, ANN, DrawFromDeck())
    assert isinstance(events[0], DeckReshuffled) and events[0].deck_size == 3
    # The tops (B and C) stay; E, F and D were shuffled, and Ann drew one of them.
    assert [letters(pile) for pile in state.discards] == ["B", "C"]
    assert len(state.secret.deck) == 2 and len(state.secret.hands[ANN]) == 2
    # The new deck's order is hidden from every reader.
    assert all(redacted(events[0], reader).deck is None for reader in (ANN, BEA, None))


def test_with_an_empty_hand_and_nothing_to_draw_the_turn_goes_by() -> None:
    state = table(hands=["", "CB"], deck="", discards=["A", "B"])
    # Ann has no card and no deck to draw from; only Bea's B can be taken.
    assert GAME.legal(state, ANN) == [TakeDiscard(pile=BEA)]
    # With an A on every pile, she has nothing at all to do and skips.
    state = table(hands=["", "CB"], deck="", discards=["A", "A"])
    assert GAME.legal(state, ANN) == [SkipTurn()]
    state, _ = play(state, ANN, SkipTurn())
    assert state.turn == BEA
    # Skipping is refused while a move exists.
    assert rejected(table(hands=["B", "C"]), ANN, SkipTurn()) == "must_play"


def test_after_a_round_is_won_five_fresh_cards_are_dealt_to_each() -> None:
    state = table(hands=["DDD", "CE"], turn=BEA)
    state, _ = play(state, BEA, Discard(letter="C"))
    assert state.phase == "round_over"
    # The next round is begun by the player left of this round's first player (Bea).
    assert GAME.to_act(state) == {BEA}
    state, events = play(state, BEA, NextRound())
    assert isinstance(events[0], RoundDealt) and events[0].round == 2
    assert [len(hand) for hand in state.secret.hands] == [5, 5]
    assert len(state.secret.deck) == 22 and state.turn == BEA


def test_the_first_player_to_win_two_rounds_wins_the_game() -> None:
    state = table(hands=["EEFF", "CE"], turn=BEA, wins=[1, 1])
    state, _ = play(state, BEA, Discard(letter="C"))
    assert state.phase == "over" and GAME.to_act(state) == frozenset()
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (ANN,)


def test_a_player_who_concedes_is_played_by_a_bot_that_passes_with_the_others() -> None:
    # Table edition 2, one round to win: Bea leaves before her first turn. When the
    # passing starts, her bot chooses her card in that same decision, as the others may.
    t = Match("pandapanda", 3, seed=1, options={"rounds_to_win": 1})
    t.concede(BEA)
    left_at = len(t.decisions)
    t.play_out()
    passing = [d for d in t.decisions[left_at:] if PassingStarted in map(type, d)]
    assert passing and all(m.BotPlayed(seat=BEA) in d for d in passing)
    first = passing[0]
    assert first[first.index(m.BotPlayed(seat=BEA)) + 1] == PassChosen(seat=BEA, card="pp-c-03")
    # The bot wins the round, which ends the match; it ranks last all the same.
    assert any(isinstance(e, RoundWon) and e.seat == BEA for e in t.decisions[-1])
    outcome = t.now.outcome
    assert outcome is not None and outcome.scores == (0, 1, 0)
    assert outcome.ranks == (1, 3, 1)


def test_before_edition_2_a_player_who_concedes_is_skipped_and_the_pass_goes_round_them() -> None:
    """The game's own concede, the rule of matches created before table edition 2."""
    state = table(hands=["AB", "CD", "EF"])
    conceded = GAME.concede(state, BEA, Rng(1, 0))
    assert conceded is not None
    _, state = GAME.settle(state, conceded)
    # Bea's cards went under the deck; Ann's A now makes Ann and Cid swap cards.
    state, _ = play(state, ANN, Discard(letter="A"))
    assert GAME.to_act(state) == {ANN, CID}
    state, _ = play(state, ANN, PassCard(letter="B"))
    state, _ = play(state, CID, PassCard(letter="F"))
    assert [letters(h) for h in state.secret.hands] == ["F", "", "BE"]
    assert state.turn == CID
    # With two players left, a further concession ends the match.
    assert GAME.concede(state, CID, Rng(1, 0)) is None


def test_only_the_player_on_turn_may_draw_or_discard() -> None:
    state = table(hands=["BC", "CE"])
    assert rejected(state, BEA, Discard(letter="C")) == "not_your_turn"
    assert rejected(state, ANN, Discard(letter="G")) == "letter_not_in_hand"
    assert rejected(state, ANN, PassCard(letter="B")) == "no_pass_now"
