"""Panda Panda events as sentences for one reader (called on redacted events)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.pandapanda.cards import LETTER_OF
from domain.games.pandapanda.events import (
    CardDiscarded,
    CardsPassed,
    DeckReshuffled,
    DrewFromDeck,
    Event,
    PassChosen,
    PassingStarted,
    RoundDealt,
    RoundWon,
    SeatLeft,
    TookDiscard,
    TurnPassed,
    TurnSkipped,
)
from domain.kernel import Seat


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        return "You" if seat == reader else names[seat]

    def whose(seat: Seat) -> str:
        return "your" if seat == reader else f"{names[seat]}'s"

    match event:
        case RoundDealt(round=number, starter=starter, hands=hands, deck_size=size):
            mine = hands[reader] if reader is not None else None
            dealt = f" You were dealt {letters(mine)}." if mine else ""
            return (
                f"Round {number} was dealt, {size} cards left in the deck;"
                f" {who(starter)} begin{'' if starter == reader else 's'}.{dealt}"
            )
        case DrewFromDeck(seat=seat, card=card):
            drawn = f" ({letters([card])})" if card is not None else ""
            return f"{who(seat)} drew a card from the deck{drawn}."
        case TookDiscard(seat=seat, pile=pile, card=card):
            return f"{who(seat)} took the {letters([card])} from {whose(pile)} discard pile."
        case CardDiscarded(seat=seat, card=card):
            return f"{who(seat)} discarded {an(card)}."
        case PassingStarted(seats=seats):
            givers = ", ".join(who(seat) for seat in seats)
            return f"An A was discarded: {givers} must each pass a card to the left."
        case PassChosen(seat=seat, card=card):
            chosen = f" ({letters([card])})" if card is not None else ""
            return f"{who(seat)} chose a card to pass{chosen}."
        case CardsPassed(cards=cards, receivers=receivers):
            return passed_sentence(cards, receivers, reader, names)
        case DeckReshuffled(deck_size=size):
            return (
                f"The deck ran out; the discard piles but their tops became a new deck of {size}."
            )
        case TurnSkipped(seat=seat):
            return f"{who(seat)} had nothing to draw or discard and let the turn go by."
        case TurnPassed(seat=seat):
            return f"It is {whose(seat)} turn."
        case RoundWon(seat=seat, hand=hand, wins=wins):
            return (
                f"{who(seat)} showed {letters(hand)} and won the round"
                f" ({wins} round{'s' if wins != 1 else ''} won)."
            )
        case SeatLeft(seat=seat):
            return f"{who(seat)} left the table; the hand went under the deck."
        case _:
            return "Something happened at the table."


def letters(cards: Sequence[str] | None) -> str:
    return "-".join(sorted(LETTER_OF[card] for card in cards or ()))


def an(card: str) -> str:
    letter = LETTER_OF[card]
    return f"an {letter}" if letter in "AEF" else f"a {letter}"


def passed_sentence(
    cards: Sequence[str | None],
    receivers: Sequence[Seat | None],
    reader: Seat | None,
    names: Sequence[str],
) -> str:
    parts = ["Everyone passed a card to the left."]
    for giver, card in enumerate(cards):
        receiver = receivers[giver]
        if card is None or receiver is None:
            continue
        if giver == reader:
            parts.append(f"You gave {an(card)} to {names[receiver]}.")
        elif receiver == reader:
            parts.append(f"You received {an(card)} from {names[giver]}.")
    return " ".join(parts)


def components() -> dict[str, str]:
    """What the table calls each card: the letter on its face, shared by its copies."""
    return dict(LETTER_OF)
