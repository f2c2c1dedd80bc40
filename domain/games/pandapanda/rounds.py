"""Rounds: the deal, the winning hand declared at the start of a turn, the next round."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.pandapanda.cards import DECK, HAND_SIZE, LETTER_OF, WINNING_LETTERS
from domain.games.pandapanda.events import RoundDealt, RoundWon
from domain.games.pandapanda.state import State, in_play, left_of
from domain.kernel import Rng, Seat


def is_winning_hand(hand: Sequence[str]) -> bool:
    """Rule: the hand matches a line of the table exactly, with no extra card."""
    return "".join(sorted(LETTER_OF[card] for card in hand)) in WINNING_LETTERS


def deal(state: State, rng: Rng, starter: Seat) -> RoundDealt:
    """Rule: every round starts from all 32 cards, shuffled, five to each player."""
    cards = rng.shuffled(DECK)
    hands: list[tuple[str, ...] | None] = []
    for seat in range(state.seats):
        if state.out[seat]:
            hands.append(())
        else:
            hands.append(tuple(cards[:HAND_SIZE]))
            del cards[:HAND_SIZE]
    return RoundDealt(
        round=state.round + 1,
        starter=starter,
        hands=tuple(hands),
        deck=tuple(cards),
        deck_size=len(cards),
    )


def first_starter(state: State) -> Seat:
    return in_play(state)[0]


def next_starter(state: State) -> Seat:
    """ASSUMPTION: each new round is begun by the player left of the last round's starter."""
    return left_of(state, state.starter)


def declared_victory(state: State, seat: Seat) -> list[RoundWon]:
    """Rule: a hand that matches at the start of its owner's turn wins the round.

    The match is made on an earlier turn (or by a pass) and only counts if it still
    holds when the owner's turn comes round again.
    """
    hand = state.secret.hands[seat]
    if not is_winning_hand(hand):
        return []
    return [RoundWon(seat=seat, hand=tuple(sorted(hand)), wins=state.wins[seat] + 1)]
