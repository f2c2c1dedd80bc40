"""Rounds: the deal, the end of a round and its scoring."""

from __future__ import annotations

from domain.games.easypeasy.cards import HAND_SIZE, ROW_STACKS, VALUE_OF, Arrow, deck_for
from domain.games.easypeasy.events import RoundDealt, RoundScored, StackDealt
from domain.games.easypeasy.state import State, in_play, left_of, row_cards
from domain.kernel import Rng, Seat


def deal(state: State, rng: Rng, starter: Seat) -> RoundDealt:
    """Rule: a row of two face-down cards each under a face-up one, and four in hand.

    ASSUMPTION: each discard pile starts with one card from the deck, face up, and the
    Up&Down card starts on a random side.
    """
    cards = rng.shuffled(deck_for(state.seats))
    arrow: Arrow = rng.choice(("up", "down"))
    hands: list[tuple[str, ...] | None] = []
    rows: list[tuple[StackDealt, ...]] = []
    for seat in range(state.seats):
        if state.out[seat]:
            hands.append(())
            rows.append(())
            continue
        rows.append(
            tuple(StackDealt(cover=cards.pop(), under=cards.pop()) for _ in range(ROW_STACKS))
        )
        hands.append(tuple(cards.pop() for _ in range(HAND_SIZE)))
    piles = (cards.pop(), cards.pop())
    return RoundDealt(
        round=state.round + 1,
        starter=starter,
        arrow=arrow,
        hands=tuple(hands),
        rows=tuple(rows),
        piles=piles,
        deck=tuple(cards),
        deck_size=len(cards),
    )


def first_starter(state: State) -> Seat:
    return in_play(state)[0]


def next_starter(state: State) -> Seat:
    """ASSUMPTION: each new round is begun by the player left of the last round's starter."""
    return left_of(state, state.starter)


def round_ended(state: State, seat: Seat) -> bool:
    """Rule: the round ends once a player has played every card of their row or hand."""
    return not state.secret.hands[seat] or not row_cards(state.rows[seat])


def score(state: State, ender: Seat) -> RoundScored:
    """Rule: each player keeps the higher of hand total and row total (face-down cards too).

    The player who ended the round scores 0 if that is lower than everyone else's, and
    double it otherwise. The lowest total over the rounds wins.
    """
    players = in_play(state)
    hands = tuple(tuple(state.secret.hands[seat]) for seat in range(state.seats))
    rows = tuple(tuple(row_cards(row)) for row in state.rows)
    hand_totals = tuple(sum(VALUE_OF[card] for card in hand) for hand in hands)
    row_totals = tuple(sum(VALUE_OF[card] for card in row) for row in rows)
    best = [max(h, r) for h, r in zip(hand_totals, row_totals, strict=True)]
    points = [best[seat] if seat in players else 0 for seat in range(state.seats)]
    lowest = all(best[ender] < best[other] for other in players if other != ender)
    points[ender] = 0 if lowest else 2 * best[ender]
    return RoundScored(
        ender=ender,
        hands=hands,
        rows=rows,
        hand_totals=hand_totals,
        row_totals=row_totals,
        points=tuple(points),
        totals=tuple(t + p for t, p in zip(state.totals, points, strict=True)),
    )
