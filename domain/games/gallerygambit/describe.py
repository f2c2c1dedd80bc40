"""Gallery Gambit events as one sentence for a reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.gallerygambit.cards import CARDS
from domain.games.gallerygambit.events import (
    CardHung,
    CardTaken,
    Event,
    GameEnded,
    HandDealt,
    MarketFilled,
    PlayerConceded,
    TurnBegan,
)
from domain.kernel import Seat


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case HandDealt(seat=seat, cards=cards):
            if any(c is None for c in cards):
                return f"{who(seat)} was dealt {len(cards)} cards."
            return f"{who(seat)} were dealt {' and '.join(_card(c) for c in cards)}."
        case MarketFilled(card=card):
            return f"{_card(card)} was laid face up.".capitalize()
        case TurnBegan(seat=seat, take=take):
            extra = "" if take else " (nothing is left to take)"
            return f"{who(seat)} took the turn{extra}."
        case CardTaken(seat=seat, card=card, from_deck=from_deck):
            if from_deck:
                seen = f" ({_card(card)})" if card is not None else ""
                return f"{who(seat)} gambled on the deck{seen}."
            return f"{who(seat)} took {_card(card)} from the market."
        case CardHung(seat=seat, card=card, wall=wall):
            return f"{who(seat)} hung {_card(card)} on wall {wall + 1}."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} closed the gallery and left the game."
        case GameEnded(sheets=sheets):
            table = ", ".join(f"{who(s)} {sheet.total}" for s, sheet in enumerate(sheets))
            return f"Every gallery is full. Final scores: {table}."
        case _:
            raise TypeError(f"not a Gallery Gambit event: {event!r}")


def components() -> dict[str, str]:
    """What the table calls each card: its number and suit, as "3 of clay"."""
    return {card: f"{c.number} of {c.suit}" for card, c in CARDS.items()}


def _card(card: str | None) -> str:
    found = CARDS.get(card or "")
    return "a card" if found is None else f"the {found.number} of {found.suit}"
