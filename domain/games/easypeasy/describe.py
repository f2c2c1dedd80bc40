"""Easy Peasy events as sentences for one reader (called on redacted events)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.easypeasy.cards import COLOUR_OF, VALUE_OF
from domain.games.easypeasy.events import (
    ArrowFlipped,
    BonusEarned,
    CardPlayed,
    CardRevealed,
    CardsDrawn,
    DeckReshuffled,
    Event,
    RoundDealt,
    RoundScored,
    SeatLeft,
    TurnPassed,
)
from domain.kernel import Seat


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        return "You" if seat == reader else names[seat]

    def whose(seat: Seat) -> str:
        return "your" if seat == reader else f"{names[seat]}'s"

    match event:
        case RoundDealt(round=number, starter=starter, arrow=arrow, piles=piles):
            return (
                f"Round {number} was dealt: the piles show {card(piles[0])} and {card(piles[1])},"
                f" the arrow {arrow.upper()}; {who(starter)} begin"
                f"{'' if starter == reader else 's'}."
            )
        case CardPlayed(seat=seat, card=played, pile=pile, stack=stack):
            source = "hand" if stack is None else "row"
            return (
                f"{who(seat)} played {card(played)} from {whose(seat)} {source} on the {pile} pile."
            )
        case DeckReshuffled(deck_size=size):
            return f"The deck ran short; the piles but their tops were shuffled in ({size} cards)."
        case CardsDrawn(seat=seat, cards=cards, count=count):
            seen = f": {', '.join(card(c) for c in cards)}" if cards else ""
            return f"{who(seat)} drew {count} card{'' if count == 1 else 's'}{seen}."
        case ArrowFlipped(seat=seat, arrow=arrow):
            return f"{who(seat)} flipped the Up&Down card to {arrow.upper()}."
        case BonusEarned(seat=seat, pile=pile):
            return f"Same colour: {who(seat)} earned a bonus on the {pile} pile."
        case CardRevealed(seat=seat, stack=stack, card=revealed):
            # Stacks count from 0 in JSON, from 1 for people.
            place = f"{whose(seat)} row (stack {stack + 1})"
            return f"{who(seat)} turned up {card(revealed)} in {place}."
        case TurnPassed(seat=seat):
            return f"It is {whose(seat)} turn."
        case RoundScored(ender=ender, points=points, totals=totals):
            scores = ", ".join(
                f"{who(seat)} {p} (total {t})"
                for seat, (p, t) in enumerate(zip(points, totals, strict=True))
            )
            return f"{who(ender)} ended the round. Points: {scores}."
        case SeatLeft(seat=seat):
            return f"{who(seat)} left the table; their cards were set aside."
        case _:
            return "Something happened at the table."


def components() -> dict[str, str]:
    """What the table calls each number card of the six colours: "blue 7"."""
    return {card_id: face(card_id) for card_id in COLOUR_OF}


def face(card_id: str) -> str:
    return f"{COLOUR_OF[card_id]} {VALUE_OF[card_id]}"


def card(card_id: str) -> str:
    return f"the {face(card_id)}"
