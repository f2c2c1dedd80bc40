"""One sentence per event for the match history, "You" for the reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.kernel import Seat

from .cards import label
from .events import (
    CardDiscarded,
    CardsDrawn,
    Event,
    PairMade,
    PlayerConceded,
    RoundDealt,
    RoundScored,
    TokenFlipped,
    TokenTaken,
    TurnBegan,
)


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case RoundDealt(round=number, starter=starter, common=common):
            shown = ", ".join(label(c) for c in common)
            first = "you play" if starter == reader else f"{who(starter)} plays"
            return f"Round {number} was dealt; the common area shows {shown}; {first} first."
        case PairMade(seat=seat, hand_card=h, common_card=c, points=points, double=double):
            bonus = " (colour and number: doubled)" if double else ""
            return f"{who(seat)} paired the {label(h)} with the {label(c)} for {points}{bonus}."
        case TokenTaken(seat=seat):
            return f"{who(seat)} made a fourth pair first and took the token, 5 side up."
        case TokenFlipped(seat=seat):
            return f"{who(seat)} made a fifth pair holding the token and flipped it to 15."
        case CardsDrawn(seat=seat, count=count, refill=True):
            return f"{who(seat)} drew {count} to fill the hand back up."
        case CardsDrawn(seat=seat, cards=None, count=count):
            return f"{who(seat)} drew {count} cards instead of pairing."
        case CardsDrawn(seat=seat, cards=tuple(cards)):
            return f"{who(seat)} drew {' and '.join(label(c) for c in cards)}."
        case CardDiscarded(seat=seat, card=card):
            return f"{who(seat)} put the {label(card)} in the common area."
        case TurnBegan(seat=seat, extra=True):
            return f"{who(seat)} made a pair of 3s and plays again."
        case TurnBegan(seat=seat, skipped=skipped) if skipped:
            passed = ", ".join(who(s) for s in skipped)
            return f"The deck is empty: {passed} cannot pair and pass; {who(seat)} plays."
        case TurnBegan(seat=seat):
            return f"It is {who(seat)}'s turn." if seat != reader else "It is your turn."
        case RoundScored(round=number, reason=reason, points=points, token_holder=holder):
            why = "a fifth pair" if reason == "fifth_pair" else "nobody could pair"
            shown = ", ".join(f"{who(s)} {p}" for s, p in enumerate(points))
            token = f"; the token went to {who(holder)}" if holder is not None else ""
            return f"Round {number} ended ({why}): {shown}{token}."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} left the game."
        case _:
            return "Something happened at the Five Pairs table."
