"""Scripta events as one sentence for a reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.scripta.cards import CARDS
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
from domain.kernel import Seat

WINS = {
    "same_number": "four cards of one number",
    "straight": "a five-number straight",
    "sum": "a hand worth 35 or more",
    "highest_hand": "the highest hand when play ran out",
}


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case HandDealt(seat=seat, cards=cards):
            if any(c is None for c in cards):
                return f"{who(seat)} was dealt {len(cards)} cards."
            return f"{who(seat)} were dealt {', '.join(_card(c) for c in cards)}."
        case DiscardTurned(card=card):
            return f"{_card(card).capitalize()} was turned face up on the discard pile."
        case TurnBegan(seat=seat, round=number):
            return f"Round {number}: {who(seat)} took the turn."
        case CardDrawn(seat=seat, card=card, from_deck=from_deck):
            if from_deck:
                seen = f" ({_card(card)})" if card is not None else ""
                return f"{who(seat)} drew from the deck{seen}."
            return f"{who(seat)} took {_card(card)} from the discard pile."
        case CardDiscarded(seat=seat, card=card):
            return f"{who(seat)} discarded {_card(card)}."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} left the game."
        case ConditionMet(seat=seat, win=win):
            return f"{who(seat)} laid down {WINS[win]}; the round is played out."
        case GameWon(winners=winners, wins=wins):
            named = " and ".join(
                f"{who(s)} ({WINS[w]})" for s, w in zip(winners, wins, strict=True)
            )
            return f"Won by {named}."
        case _:
            raise TypeError(f"not a Scripta event: {event!r}")


def _card(card: str | None) -> str:
    number = CARDS.get(card or "")
    return "a card" if number is None else f"a {number}"


def components() -> dict[str, str]:
    """What the table calls each of the 36 cards: its ink and number, as it is written."""
    # The ink is the id's last part ("sc-7-blue"); the history leaves it out, the face does not.
    return {card: f"{card.rsplit('-', 1)[1]} {number}" for card, number in CARDS.items()}
