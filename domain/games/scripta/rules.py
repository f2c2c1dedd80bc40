"""A Scripta turn: draw a card (the deck or the discard pile), discard one; a hand that
meets one of the page's three conditions wins at once.

The page (seed 002, "Gamehelpscripta") gives only the three ways to win (`winning`);
the deck and the turn are house-made (README).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TypeVar

import msgspec

from domain.games.scripta.cards import CARDS, HAND_SIZE, SAME_NUMBER, STRAIGHT, TARGET_SUM, CardId
from domain.games.scripta.commands import Command, DiscardCard, DrawCard
from domain.games.scripta.events import (
    CardDiscarded,
    CardDrawn,
    ConditionMet,
    DiscardTurned,
    Event,
    GameWon,
    HandDealt,
    PlayerConceded,
    TurnBegan,
)
from domain.games.scripta.state import Table, Win
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import next_seat

Turn = Recorder[Table, Event]
T = TypeVar("T")

# --- the page's three ways to win ------------------------------------------------------------


def four_of_a_number(hand: Sequence[CardId]) -> bool:
    """Page: 4 cards of the same number."""
    counts = Counter(CARDS[c] for c in hand)
    return max(counts.values(), default=0) >= SAME_NUMBER


def five_number_straight(hand: Sequence[CardId]) -> bool:
    """Page: a 5-number straight (five consecutive numbers; 9 does not wrap to 1)."""
    numbers = sorted({CARDS[c] for c in hand})
    run = 1
    for a, b in zip(numbers, numbers[1:], strict=False):
        run = run + 1 if b == a + 1 else 1
        if run >= STRAIGHT:
            return True
    return STRAIGHT <= 1


def hand_sum(hand: Sequence[CardId]) -> int:
    return sum(CARDS[c] for c in hand)


def winning(hand: Sequence[CardId]) -> Win | None:
    """Which of the page's conditions the hand meets, if any (in the page's order)."""
    if four_of_a_number(hand):
        return "same_number"
    if five_number_straight(hand):
        return "straight"
    if hand_sum(hand) >= TARGET_SUM:
        return "sum"
    return None


# --- reading the table -----------------------------------------------------------------------


def is_active(state: Table, seat: Seat) -> bool:
    return seat not in state.conceded


# --- setup -----------------------------------------------------------------------------------


def start(state: Table, rng: Rng) -> Turn:
    """House: deal 5 cards to each hand, turn one face up; seat 1 begins."""
    turn = Turn(state, evolve)
    for seat in range(state.seats):
        dealt = rng.sample(turn.state.deck, HAND_SIZE)
        turn.record(HandDealt(seat=seat, cards=tuple(sorted(dealt))))
    turn.record(DiscardTurned(card=rng.choice(turn.state.deck)))
    turn.record(TurnBegan(seat=0, round=1))
    return turn


# --- decide ----------------------------------------------------------------------------------


def decide(state: Table, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "Someone has won; the game is over.")
    if state.phase == "setup":
        raise Rejected("not_started", "The cards are not dealt yet.")
    if seat != state.player or not is_active(state, seat):
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn.")
    match command:
        case DrawCard(source=source):
            return draw_card(state, seat, source, rng)
        case DiscardCard(card=card):
            return discard_card(state, seat, card)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a Scripta move.")


def draw_card(state: Table, seat: Seat, source: str, rng: Rng) -> Turn:
    """House: draw the deck's top card, or take the top of the discard pile."""
    if state.phase != "draw":
        raise Rejected("already_drawn", "You have drawn this turn; discard a card now.")
    turn = Turn(state, evolve)
    if source == "deck":
        if not state.deck:
            raise Rejected("deck_empty", "The deck is empty; take the discard pile's top card.")
        turn.record(CardDrawn(seat=seat, card=rng.choice(state.deck), from_deck=True))
    elif source == "discard":
        if not state.discards:
            raise Rejected("discard_pile_empty", "The discard pile is empty; draw from the deck.")
        turn.record(CardDrawn(seat=seat, card=state.discards[-1], from_deck=False))
    else:
        raise Rejected("no_such_source", f"Draw from the deck or the discard pile, not {source!r}.")
    return turn


def discard_card(state: Table, seat: Seat, card: CardId) -> Turn:
    """House: discard one card face up; page: a hand then meeting a condition wins."""
    if state.phase != "discard":
        raise Rejected("draw_first", "Draw a card before discarding one.")
    if card not in state.hands[seat]:
        raise Rejected("card_not_in_hand", f"{card} is not in your hand.")
    turn = Turn(state, evolve)
    turn.record(CardDiscarded(seat=seat, card=card))
    hand = turn.state.hands[seat]
    win = winning(hand)
    if win is not None:
        turn.record(ConditionMet(seat=seat, win=win, hand=tuple(hand)))
    after_turn(turn, seat)
    return turn


def end(turn: Turn, winners: dict[Seat, Win]) -> None:
    hands = tuple(tuple(hand) for hand in turn.state.hands)
    seats = tuple(sorted(winners))
    turn.record(GameWon(winners=seats, wins=tuple(winners[s] for s in seats), hands=hands))


def after_turn(turn: Turn, seat: Seat) -> None:
    """House: the next seat plays. A round in which someone met a way to win is played out,
    then everyone who met one wins; once the deck is empty or the last round is played,
    the highest hand wins (equal sums share)."""
    state = turn.state
    nxt = next_seat(seat, state.seats, lambda s: is_active(state, s))
    round_over = nxt <= seat
    met = {s: w for s, w in state.met.items() if is_active(state, s)}
    if met and round_over:
        end(turn, met)
        return
    number = state.round + 1 if round_over else state.round
    if not state.deck or number > state.options.rounds:
        if met:
            end(turn, met)
            return
        sums = {s: hand_sum(state.hands[s]) for s in range(state.seats) if is_active(state, s)}
        best = max(sums.values())
        end(turn, {s: "highest_hand" for s, total in sums.items() if total == best})
        return
    turn.record(TurnBegan(seat=nxt, round=number))


def concede(state: Table, seat: Seat, rng: Rng) -> Turn | None:
    """The seat leaves (its hand leaves the game); with one player left the match ends."""
    others = [s for s in range(state.seats) if s != seat and is_active(state, s)]
    if len(others) < 2 or state.phase in ("over", "setup"):
        return None
    turn = Turn(state, evolve)
    turn.record(PlayerConceded(seat=seat))
    if seat == state.player:
        after_turn(turn, seat)
    return turn


def outcome(state: Table) -> Outcome | None:
    """The winners rank first; the others by hand sum; a seat that left ranks last."""
    if state.phase != "over":
        return None
    scores = tuple(hand_sum(hand) for hand in state.shown)
    keys = [
        (int(is_active(state, s)), int(s in state.winners), scores[s]) for s in range(state.seats)
    ]
    return Outcome(scores=scores, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def legal(state: Table, seat: Seat) -> Iterator[Command]:
    if state.phase in ("setup", "over") or seat != state.player or not is_active(state, seat):
        return
    if state.phase == "draw":
        if state.deck:
            yield DrawCard(source="deck")
        if state.discards:
            yield DrawCard(source="discard")
        return
    for card in state.hands[seat]:
        yield DiscardCard(card=card)


def to_act(state: Table) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: Table, event: Event) -> Table:
    replace = msgspec.structs.replace
    match event:
        case HandDealt(seat=seat, cards=cards):
            dealt = [c for c in cards if c is not None]
            return replace(
                state,
                hands=_with(state.hands, seat, sorted([*state.hands[seat], *dealt])),
                deck=[c for c in state.deck if c not in dealt],
            )
        case DiscardTurned(card=card):
            return replace(
                state, discards=[*state.discards, card], deck=[c for c in state.deck if c != card]
            )
        case TurnBegan(seat=seat, round=number):
            return replace(state, player=seat, round=number, phase="draw")
        case CardDrawn(seat=seat, card=card, from_deck=from_deck):
            assert card is not None, "the state folds unredacted events"
            return replace(
                state,
                hands=_with(state.hands, seat, sorted([*state.hands[seat], card])),
                deck=[c for c in state.deck if c != card],
                discards=state.discards if from_deck else state.discards[:-1],
                seen=state.seen if from_deck else sorted([*state.seen, card]),
                phase="discard",
            )
        case CardDiscarded(seat=seat, card=card):
            return replace(
                state,
                hands=_with(state.hands, seat, [c for c in state.hands[seat] if c != card]),
                discards=[*state.discards, card],
                seen=[c for c in state.seen if c != card],
            )
        case ConditionMet(seat=seat, win=win):
            return replace(state, met={**state.met, seat: win})
        case PlayerConceded(seat=seat):
            gone = state.hands[seat]
            return replace(
                state,
                conceded=sorted({*state.conceded, seat}),
                hands=_with(state.hands, seat, []),
                seen=[c for c in state.seen if c not in gone],
            )
        case GameWon(winners=winners, hands=hands):
            return replace(
                state,
                phase="over",
                winners=list(winners),
                shown=[list(h) for h in hands],
                seen=sorted(c for h in hands for c in h),
            )
        case _:
            raise TypeError(f"not a Scripta event: {event!r}")


def _with(rows: list[T], seat: Seat, row: T) -> list[T]:
    return [row if s == seat else r for s, r in enumerate(rows)]
