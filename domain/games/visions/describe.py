"""Visions events as one sentence for a reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.visions.cards import CARDS
from domain.games.visions.events import (
    CardPlayed,
    CardsDealt,
    CardStolen,
    CardTaken,
    EchoTriggered,
    Event,
    GameEnded,
    NightmarePlayed,
    RefillBegan,
    RefillEnded,
    ReflectionMoved,
    RiverFilled,
    TurnBegan,
)
from domain.kernel import Seat


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case CardsDealt(seat=seat, count=count, cards=cards):
            shown = f": {', '.join(_card(c) for c in cards)}" if cards else ""
            return f"{who(seat)} were dealt {count} cards{shown}."
        case RiverFilled(cards=cards):
            return f"Into the River: {', '.join(_card(c) for c in cards)}."
        case TurnBegan(seat=seat):
            return f"{who(seat)} dream next."
        case CardPlayed(seat=seat, card=card, dream=dream):
            return f"{who(seat)} placed {_card(card)} in dream {dream}."
        case ReflectionMoved(seat=seat, steps=steps):
            return f"A Reflection: {who(seat)} moved {steps} up the Reflection Track."
        case EchoTriggered(seat=seat):
            return f"An Echo: {who(seat)} may play another card."
        case NightmarePlayed(seat=seat, dream=dream, card=card):
            shown = f" ({_card(card)})" if card else ""
            return f"{who(seat)} played a nightmare{shown} face down in dream {dream}."
        case CardStolen(seat=seat, target=target, card=card):
            shown = f" ({_card(card)})" if card else ""
            return f"{who(seat)} stole a card{shown} from {who(target)}."
        case RefillBegan(seats=seats):
            return f"{', '.join(who(s) for s in seats)} draw from the River."
        case CardTaken(seat=seat, card=card):
            return f"{who(seat)} took {_card(card)} from the River."
        case RefillEnded(seat=seat):
            return f"{who(seat)} finished drawing."
        case GameEnded(scores=scores, woke=woke):
            table = ", ".join(f"{who(s)} {points}" for s, points in enumerate(scores))
            wake = f"{who(woke)} woke up at the end of the track. " if woke is not None else ""
            return f"{wake}Final points: {table}."
        case _:
            raise TypeError(f"not a Visions event: {event!r}")


def components() -> dict[str, str]:
    """What the table calls each card: its colour and symbol, the two copies alike."""
    return {card: _face(card) for card in CARDS}


def _face(card: str) -> str:
    c = CARDS[card]
    return f"{c.colour} {c.symbol}"


def _card(card: str) -> str:
    return f"a {_face(card)}"
