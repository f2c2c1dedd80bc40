"""Love Letter: the conformance kit, then the rulebook's tricky cases as short stories."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from domain import match as m
from domain.games.loveletter import GAME
from domain.games.loveletter.cards import CardName, card_id, name_of
from domain.games.loveletter.commands import (
    Command,
    DiscardHand,
    PlayCard,
    StartNextRound,
)
from domain.games.loveletter.events import (
    CardDrawn,
    CardPlayed,
    Event,
    GameWon,
    HandsCompared,
    HandSeen,
    HandsSwapped,
    PlayerKnockedOut,
    RoundEnded,
    TokenAwarded,
)
from domain.games.loveletter.rules import initial
from domain.games.loveletter.state import JesterBet, Options, State
from domain.games.loveletter.view import view
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Match

ANN, BEA, CID = 0, 1, 2


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


# --- a rigged table -----------------------------------------------------------------------


def table(
    *hands: Sequence[CardName] | None,
    deck: Sequence[CardName] = ("guard", "guard"),
    set_aside: CardName = "guard",
    turn: int = ANN,
    premium: bool | None = None,
    discards: dict[int, Sequence[CardName]] | None = None,
    protected: Sequence[int] = (),
    tokens: Sequence[int] | None = None,
) -> State:
    """A round in progress: `hands` per seat (None: knocked out), the player on turn
    already holding two cards. Card ids are numbered in the order they are named."""
    copies: Counter[str] = Counter()

    def ids(names: Sequence[CardName]) -> list[str]:
        out = []
        for n in names:
            copies[n] += 1
            out.append(card_id(n, copies[n]))
        return out

    seats = len(hands)
    state = initial(Options(), seats)
    state.premium = seats >= 5 if premium is None else premium
    state.phase = "turn"
    state.round = 1
    state.turn = turn
    state.hands = [ids(h or ()) for h in hands]
    state.out = [h is None for h in hands]
    state.discards = [ids((discards or {}).get(s, ())) for s in range(seats)]
    state.deck = ids(deck)
    state.set_aside = ids([set_aside])[0]
    state.protected = [s in protected for s in range(seats)]
    state.tokens = list(tokens or [0] * seats)
    return state


def play(state: State, seat: int, command: Command) -> tuple[State, list[Event]]:
    return stories.play(GAME, state, seat, command, Rng(7, state.round))


def refused(state: State, seat: int, command: Command) -> str:
    return stories.refused(GAME, state, seat, command)


def plays(state: State, seat: int) -> list[PlayCard]:
    """The legal card plays of a seat."""
    return [c for c in GAME.legal(state, seat) if isinstance(c, PlayCard)]


def names(cards: Sequence[str]) -> list[str]:
    return [name_of(c) for c in cards]


# --- the classic cards --------------------------------------------------------------------


def test_countess_must_be_played_when_held_with_king_or_prince() -> None:
    # Ann holds the Countess and the King; Bea a Guard.
    state = table(["countess", "king"], ["guard"])
    # The King is refused; the Countess is the only card Ann may play.
    assert refused(state, ANN, PlayCard(card="king", targets=(BEA,))) == "countess_must_be_played"
    assert {c.card for c in plays(state, ANN)} == {"countess"}
    # The same with a Prince.
    state = table(["prince", "countess"], ["guard"])
    assert refused(state, ANN, PlayCard(card="prince", targets=(BEA,))) == "countess_must_be_played"
    # With the Countess and a Guard, either may be played.
    state = table(["countess", "guard"], ["baron"])
    assert {c.card for c in plays(state, ANN)} == {"countess", "guard"}


def test_handmaid_protects_until_her_owners_next_turn() -> None:
    state = table(["handmaid", "guard"], ["guard"], ["priest"], deck=["guard", "baron", "king"])
    # Ann plays the Handmaid.
    state, _ = play(state, ANN, PlayCard(card="handmaid"))
    assert state.protected[ANN] and state.turn == BEA
    # Bea's Guard cannot choose Ann, only Cid.
    assert (
        refused(state, BEA, PlayCard(card="guard", targets=(ANN,), guess=2)) == "target_protected"
    )
    assert {c.targets for c in plays(state, BEA)} == {(CID,)}
    state, _ = play(state, BEA, PlayCard(card="guard", targets=(CID,), guess=5))
    # Cid plays the Priest: only Bea can be looked at.
    assert {c.targets for c in plays(state, CID)} == {(BEA,)}
    state, _ = play(state, CID, PlayCard(card="priest", targets=(BEA,)))
    # Ann's turn begins: the protection ends.
    assert state.turn == ANN and not state.protected[ANN]


def test_with_every_other_player_protected_a_guard_is_played_with_no_effect() -> None:
    # Bea hides behind the Handmaid; Cid is out.
    state = table(["guard", "baron"], ["prince"], None, protected=[BEA], deck=["priest", "king"])
    # The only Guard play names nobody and nothing.
    guards = [c for c in plays(state, ANN) if c.card == "guard"]
    assert guards == [PlayCard(card="guard")]
    state, events = play(state, ANN, PlayCard(card="guard"))
    assert events[0] == CardPlayed(seat=ANN, card="ll-guard-1")
    assert not state.out[BEA] and state.turn == BEA


def test_guard_cannot_name_the_guard() -> None:
    state = table(["guard", "priest"], ["guard"])
    assert (
        refused(state, ANN, PlayCard(card="guard", targets=(BEA,), guess=1)) == "cannot_name_guard"
    )
    guesses = {c.guess for c in plays(state, ANN) if c.card == "guard"}
    assert guesses == {2, 3, 4, 5, 6, 7, 8}


def test_guard_guessing_right_knocks_the_target_out() -> None:
    state = table(["guard", "priest"], ["baron"], ["king"], deck=["guard", "handmaid", "prince"])
    # Ann names 3 at Bea, who holds the Baron.
    state, events = play(state, ANN, PlayCard(card="guard", targets=(BEA,), guess=3))
    assert PlayerKnockedOut(seat=BEA, cards=("ll-baron-1",), reason="guard") in events
    # Bea is skipped: Cid plays next.
    assert state.out[BEA] and state.turn == CID


def test_tied_baron_knocks_out_nobody() -> None:
    state = table(["baron", "priest"], ["priest"], deck=["guard", "king"])
    state, events = play(state, ANN, PlayCard(card="baron", targets=(BEA,)))
    compared = [e for e in events if isinstance(e, HandsCompared)]
    assert compared[0].loser is None
    assert not any(isinstance(e, PlayerKnockedOut) for e in events)
    assert state.out == [False, False]


def test_prince_on_yourself_discards_your_hand_and_draws_a_new_card() -> None:
    state = table(["prince", "guard"], ["baron"], deck=["king", "handmaid", "priest"])
    # Ann plays the Prince on herself: her Guard goes, the King comes.
    state, _ = play(state, ANN, PlayCard(card="prince", targets=(ANN,)))
    assert names(state.discards[ANN]) == ["prince", "guard"]
    assert names(state.hands[ANN]) == ["king"]


def test_prince_on_an_empty_deck_draws_the_card_set_aside() -> None:
    # Ann drew the last card; the Priest was set aside at the start.
    state = table(["prince", "guard"], ["baron"], deck=[], set_aside="priest")
    state, events = play(state, ANN, PlayCard(card="prince", targets=(BEA,)))
    assert CardDrawn(seat=BEA, card="ll-priest-1", from_set_aside=True) in events
    # The deck is empty, so the round ends: Bea's Priest (2) beats Ann's Guard (1).
    end = next(e for e in events if isinstance(e, RoundEnded))
    assert end.winner == BEA


def test_discarding_the_princess_knocks_you_out_and_she_cannot_be_played_at_will() -> None:
    state = table(["prince", "princess"], ["guard"], ["baron"])
    # Ann may not throw the Princess away herself.
    assert refused(state, ANN, PlayCard(card="princess")) == "princess_cannot_be_played"
    # Bea's Prince later makes Ann discard her: Ann is out, and draws nothing.
    state = table(["princess"], ["prince", "handmaid"], ["baron"], turn=BEA)
    state, events = play(state, BEA, PlayCard(card="prince", targets=(ANN,)))
    assert PlayerKnockedOut(seat=ANN, cards=(), reason="princess") in events
    assert names(state.discards[ANN]) == ["princess"] and state.hands[ANN] == []


def test_priest_look_is_private() -> None:
    state = table(["priest", "guard"], ["king"], ["baron"], deck=["guard", "guard"])
    state, events = play(state, ANN, PlayCard(card="priest", targets=(BEA,)))
    seen = next(e for e in events if isinstance(e, HandSeen))
    # Ann (and Bea, who holds it) see the King; Cid and spectators see only that Ann looked.
    assert GAME.redact(seen, ANN) == seen and GAME.redact(seen, BEA) == seen
    assert GAME.redact(seen, CID) == HandSeen(viewer=ANN, seat=BEA, card=None)
    assert GAME.redact(seen, None) == HandSeen(viewer=ANN, seat=BEA, card=None)
    # Ann's view remembers the King in Bea's hand (Bea has drawn since); Cid's does not.
    assert view(state, ANN).players[BEA].hand == ["ll-king-1", None]
    assert view(state, CID).players[BEA].hand == [None, None]
    assert "ll-king-1" in GAME.hidden(state, CID)


def test_empty_deck_ends_the_round_highest_hand_wins_ties_go_to_the_discard_sum() -> None:
    # Ann draws the last card; Bea and Cid will both hold a 6 (Bea discarded more).
    state = table(
        ["handmaid", "king"],
        ["king"],
        ["king"],
        deck=[],
        discards={BEA: ["priest", "baron"], CID: ["guard"]},
    )
    state, events = play(state, ANN, PlayCard(card="handmaid"))
    end = next(e for e in events if isinstance(e, RoundEnded))
    # Ann's 6 and Bea's 6 and Cid's 6: sums 4, 5, 1 -- Bea wins.
    assert [r.strength for r in end.showdown] == [6, 6, 6]
    assert [r.discard_sum for r in end.showdown] == [4, 5, 1]
    assert end.winner == BEA and end.starter == BEA
    assert TokenAwarded(seat=BEA, reason="round") in events
    # At the showdown every hand lies open.
    assert GAME.hidden(state, CID) == frozenset({state.set_aside})


def test_a_tie_that_the_discards_cannot_break_gives_nobody_a_token() -> None:
    state = table(["handmaid", "guard"], ["guard"], deck=[], discards={BEA: ["handmaid"]})
    state, events = play(state, ANN, PlayCard(card="handmaid"))
    end = next(e for e in events if isinstance(e, RoundEnded))
    assert end.winner is None and not any(isinstance(e, TokenAwarded) for e in events)


def test_tokens_needed_depend_on_the_number_of_players_and_the_round_winner_starts() -> None:
    needed = {n: initial(Options(), n).tokens_to_win for n in range(2, 9)}
    assert needed == {2: 7, 3: 5, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4}
    assert not initial(Options(), 4).premium and initial(Options(), 5).premium
    # Bea, one token short, wins the round by knocking Ann out: the game is hers.
    state = table(["baron"], ["guard", "king"], turn=BEA, tokens=[6, 6])
    state, events = play(state, BEA, PlayCard(card="guard", targets=(ANN,), guess=3))
    assert events[-1] == GameWon(winners=(BEA,))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (BEA,)
    # Short of the goal, the round's winner starts the next round (two players: three
    # cards also lie face up).
    state = table(["baron"], ["guard", "king"], turn=BEA)
    state, _ = play(state, BEA, PlayCard(card="guard", targets=(ANN,), guess=3))
    assert GAME.to_act(state) == {BEA} and GAME.legal(state, BEA) == [StartNextRound()]
    state, events = play(state, BEA, StartNextRound())
    assert state.turn == BEA and len(state.hands[BEA]) == 2 and len(state.face_up) == 3


# --- the premium cards (5-8 players) ------------------------------------------------------


def test_a_guard_played_on_the_assassin_knocks_out_its_own_player() -> None:
    state = table(
        ["guard", "priest"], ["assassin"], ["baron"], deck=["king", "guard"], premium=True
    )
    state, events = play(state, ANN, PlayCard(card="guard", targets=(BEA,), guess=4))
    assert PlayerKnockedOut(seat=ANN, cards=("ll-priest-1",), reason="assassin") in events
    # Bea discards the Assassin and draws a new card (then, on her turn, one more).
    assert names(state.discards[BEA]) == ["assassin"] and names(state.hands[BEA]) == [
        "king",
        "guard",
    ]


def test_jester_player_scores_when_the_chosen_player_wins_the_round_even_when_out() -> None:
    state = table(["guard", "priest"], ["baron"], ["king"], deck=["guard"], premium=True)
    state.jester = JesterBet(player=BEA, target=CID)
    # Ann knocks Bea out; then the deck runs dry and Cid's King wins.
    state, _ = play(state, ANN, PlayCard(card="guard", targets=(BEA,), guess=3))
    state, events = play(state, CID, PlayCard(card="guard", targets=(ANN,), guess=8))
    assert TokenAwarded(seat=CID, reason="round") in events
    assert TokenAwarded(seat=BEA, reason="jester") in events


def test_sycophant_forces_the_next_card_to_choose_the_marked_player() -> None:
    state = table(["sycophant", "guard"], ["priest"], ["king"], premium=True)
    # Ann marks Cid; Bea draws a Guard, which must now choose Cid.
    state, _ = play(state, ANN, PlayCard(card="sycophant", targets=(CID,)))
    assert refused(state, BEA, PlayCard(card="guard", targets=(ANN,), guess=2)) == (
        "sycophant_choice"
    )
    assert {c.targets for c in plays(state, BEA)} == {(CID,)}
    # The mark binds one card only.
    state, _ = play(state, BEA, PlayCard(card="priest", targets=(CID,)))
    assert state.marked is None
    # Marking the card's own player, when that card must choose another, is ignored.
    state = table(["sycophant", "guard"], ["king"], ["baron"], premium=True)
    state, _ = play(state, ANN, PlayCard(card="sycophant", targets=(BEA,)))
    kings = {c.targets for c in plays(state, BEA) if c.card == "king"}
    assert kings == {(ANN,), (CID,)}


def test_constable_in_the_discards_gives_a_token_when_knocked_out() -> None:
    state = table(
        ["guard", "priest"], ["baron"], ["king"], premium=True, discards={BEA: ["constable"]}
    )
    state, events = play(state, ANN, PlayCard(card="guard", targets=(BEA,), guess=3))
    assert TokenAwarded(seat=BEA, reason="constable") in events
    assert state.tokens[BEA] == 1


def test_counts_raise_the_hand_and_the_princess_beats_the_bishop() -> None:
    # Deck empty: Ann ends with the Countess and two Counts (9), Bea the Bishop, Cid the
    # Princess. The Princess beats the Bishop; Ann's 9 beats the Princess.
    state = table(
        ["handmaid", "countess"],
        ["bishop"],
        ["princess"],
        deck=[],
        premium=True,
        discards={ANN: ["count", "count"]},
    )
    _, events = play(state, ANN, PlayCard(card="handmaid"))
    end = next(e for e in events if isinstance(e, RoundEnded))
    assert [r.strength for r in end.showdown] == [9, 9, 8]
    assert end.winner == ANN
    # Without the Counts, the Princess wins over the Bishop.
    state = table(["handmaid", "guard"], ["bishop"], ["princess"], deck=[], premium=True)
    _, events = play(state, ANN, PlayCard(card="handmaid"))
    assert next(e for e in events if isinstance(e, RoundEnded)).winner == CID


def test_bishop_guessing_right_gains_a_token_and_the_target_may_discard() -> None:
    state = table(["bishop", "guard"], ["king"], ["baron"], deck=["priest", "guard"], premium=True)
    state, events = play(state, ANN, PlayCard(card="bishop", targets=(CID,), guess=3))
    assert TokenAwarded(seat=ANN, reason="bishop") in events
    # Cid now answers, before Bea's turn: keep the Baron or discard it and draw.
    assert GAME.to_act(state) == {CID} and state.turn == ANN
    assert refused(state, CID, PlayCard(card="baron", targets=(ANN,))) == "bishop_choice_pending"
    state, _ = play(state, CID, DiscardHand())
    assert names(state.discards[CID]) == ["baron"] and names(state.hands[CID]) == ["priest"]
    assert state.turn == BEA


def test_dowager_queen_knocks_out_the_higher_hand_in_secret() -> None:
    state = table(["dowager_queen", "guard"], ["king"], ["baron"], premium=True)
    state, events = play(state, ANN, PlayCard(card="dowager_queen", targets=(BEA,)))
    compared = next(e for e in events if isinstance(e, HandsCompared))
    assert compared.loser == BEA
    # Cid learns who lost, not Ann's card; Bea's King is then discarded face up.
    assert GAME.redact(compared, CID) == HandsCompared(
        seat=ANN, other=BEA, card=None, other_card=None, loser=BEA
    )
    assert "ll-guard-1" in GAME.hidden(state, CID)
    assert "ll-guard-1" not in GAME.hidden(state, BEA)
    assert names(state.discards[BEA]) == ["king"]


def test_cardinal_trades_two_hands_and_looks_at_one() -> None:
    state = table(["cardinal", "guard"], ["king"], ["baron"], premium=True)
    # Ann may not look at her own hand after trading it.
    assert (
        refused(state, ANN, PlayCard(card="cardinal", targets=(ANN, BEA), look_at=ANN))
        == "look_at_needed"
    )
    state, events = play(state, ANN, PlayCard(card="cardinal", targets=(BEA, CID), look_at=CID))
    assert names(state.hands[BEA])[0] == "baron" and names(state.hands[CID]) == ["king"]
    swap = next(e for e in events if isinstance(e, HandsSwapped))
    # Ann sees the trade but not the cards; she looks at Cid's new King only.
    assert GAME.redact(swap, ANN) == HandsSwapped(seat=BEA, other=CID, card=None, other_card=None)
    assert view(state, ANN).players[CID].hand == ["ll-king-1"]
    assert view(state, ANN).players[BEA].hand == [None, None]


def test_baroness_looks_at_one_or_two_hands() -> None:
    state = table(["baroness", "guard"], ["king"], ["baron"], premium=True)
    choices = {c.targets for c in plays(state, ANN) if c.card == "baroness"}
    assert choices == {(BEA,), (CID,), (BEA, CID)}
    assert refused(state, ANN, PlayCard(card="baroness", targets=(CID, BEA))) == (
        "targets_not_in_order"
    )
    state, events = play(state, ANN, PlayCard(card="baroness", targets=(BEA, CID)))
    assert [e.card for e in events if isinstance(e, HandSeen)] == ["ll-king-1", "ll-baron-1"]
    assert not {"ll-king-1", "ll-baron-1"} & GAME.hidden(state, ANN)
    assert "ll-king-1" in GAME.hidden(state, CID)


# --- leaving the table ----------------------------------------------------------------------


def test_a_player_who_leaves_is_played_by_a_bot_that_can_be_knocked_out_and_ranks_last() -> None:
    # Table edition 2: Cid leaves on his turn; a bot plays his card in that same decision.
    t = Match("loveletter", 3, seed=1)
    assert t.acting() == [CID]
    events = t.concede(CID)
    assert events[1:3] == [
        m.BotPlayed(seat=CID),
        CardPlayed(seat=CID, card="ll-priest-1", targets=(ANN,), guess=None),
    ]
    events += t.play_out()
    # The bot is knocked out of rounds like anyone, and dealt into the next one all the same.
    knocked = [i for i, e in enumerate(events) if isinstance(e, PlayerKnockedOut) and e.seat == CID]
    assert knocked and m.BotPlayed(seat=CID) in events[knocked[0] :]
    # It even wins the most tokens (random play beats these players), yet ranks last.
    outcome = t.now.outcome
    assert outcome is not None and outcome.scores == (2, 3, 5)
    assert outcome.ranks == (2, 1, 3)
