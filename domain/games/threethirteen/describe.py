"""One sentence per event for the match history, "You" for the reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.kernel import Seat

from .cards import DECK, RANK_PLURALS, label, wild_rank_of
from .events import (
    CardDiscarded,
    CardDrawn,
    DiscardTaken,
    Event,
    PlayerConceded,
    RoundDealt,
    RoundScored,
    StockReshuffled,
    WentOut,
)


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case RoundDealt(round=number, starter=starter, discard=top):
            wild = RANK_PLURALS[wild_rank_of(number) - 1]
            return (
                f"Round {number} was dealt, {number + 2} cards each; {wild} and jokers are "
                f"wild. {label(top)} starts the discard pile and {who(starter)} plays first."
            )
        case CardDrawn(seat=seat, card=None):
            return f"{who(seat)} drew a card from the draw pile."
        case CardDrawn(seat=seat, card=str(card)):
            return f"{who(seat)} drew the {label(card)} from the draw pile."
        case DiscardTaken(seat=seat, card=card):
            return f"{who(seat)} took the {label(card)} from the discard pile."
        case StockReshuffled(size=size):
            return f"The discard pile was shuffled into a new draw pile of {size} cards."
        case CardDiscarded(seat=seat, card=card):
            return f"{who(seat)} discarded the {label(card)}."
        case WentOut(seat=seat, discard=card, melds=melds):
            shown = "; ".join(" ".join(label(c) for c in meld) for meld in melds)
            return f"{who(seat)} went out ({shown}), discarding the {label(card)}."
        case RoundScored(round=number, hands=hands):
            points = ", ".join(f"{who(h.seat)} {h.points}" for h in hands)
            return f"Round {number} was scored: {points}."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} left the game."
        case _:
            return "Something happened at the 3-13 table."


def components() -> dict[str, str]:
    """What the table calls each card: rank and suit as players write them ("7♥"), or
    "Joker"; the two decks' copies share a name."""
    return {card: label(card) for card in DECK}
