"""Carnuta events as one sentence for a reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.carnuta.cards import CARDS
from domain.games.carnuta.events import (
    CardPlayed,
    CardTaken,
    EndTriggered,
    Event,
    GameEnded,
    PlayerConceded,
    RowFilled,
    RunesFlipped,
    RunesTaken,
    SickleUsed,
    SlotOpened,
    StartingCardDealt,
    TokenEarned,
    TokenPicked,
    TurnBegan,
)
from domain.kernel import Seat


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case StartingCardDealt(seat=seat, card=card):
            return f"{who(seat)} began with {_card(card)}."
        case RowFilled(row=row, card=card):
            return f"{_card(card).capitalize()} was laid in the {row} row."
        case TurnBegan(seat=seat, round=number):
            return f"Round {number}: {who(seat)} took the turn."
        case CardTaken(seat=seat, card=card, row=row):
            return f"{who(seat)} took {_card(card)} from the {row} row."
        case CardPlayed(seat=seat, card=card, flipped=flipped, discarded=discarded):
            paid = [f"flipping {len(flipped)}"] if flipped else []
            paid += [f"discarding {len(discarded)}"] if discarded else []
            return f"{who(seat)} played {_card(card)}, {' and '.join(paid)} rune(s)."
        case SlotOpened(seat=seat, slots=slots):
            return f"{who(seat)} opened rune slot {slots}."
        case TokenEarned(seat=seat):
            return f"{who(seat)} earned a bonus-ingredient token."
        case TokenPicked(seat=seat, ingredient=ingredient):
            return f"{who(seat)} picked the {ingredient} token."
        case RunesTaken(seat=seat, symbol=symbol, count=count):
            return f"{who(seat)} took {count} {symbol} rune(s) from the reserve."
        case RunesFlipped(seat=seat, symbol=symbol, count=count):
            return f"{who(seat)} flipped {count} {symbol} rune(s)."
        case SickleUsed(seat=seat, row=row):
            return f"{who(seat)} used a sickle to refresh the {row} row."
        case EndTriggered(seat=seat, last_round=last_round):
            return f"{who(seat)} placed an 11th card: round {last_round} is the last."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} left the game."
        case GameEnded(sheets=sheets):
            table = ", ".join(f"{who(s)} {sheet.total}" for s, sheet in enumerate(sheets))
            return f"The last round is over. Final scores: {table}."
        case _:
            raise TypeError(f"not a Carnuta event: {event!r}")


def components() -> dict[str, str]:
    """What the table calls each card: its ingredient, the runes it costs and what it
    scores, all printed on it (the nine cards of an ingredient differ only by those)."""
    return {card: _face(card) for card in CARDS}


def _face(card: str) -> str:
    found = CARDS[card]
    cost = " + ".join(item.replace(":", " ") for item in found.cost)
    return f"{found.ingredient} ({cost}: {_scores(found.scoring)})"


def _scores(condition: str) -> str:
    """A scoring condition of cards.py in words: "per:oak:1" -> "1 per oak"."""
    kind, _, rest = condition.partition(":")
    match kind:
        case "flat":
            return f"{rest} points"
        case "per":
            ingredient, _, n = rest.partition(":")
            return f"{n} per {ingredient}"
        case "distinct":
            return f"{rest} per ingredient kind"
        case "runes":
            symbol, _, n = rest.partition(":")
            return f"{n} per {symbol} rune"
        case _:
            raise ValueError(f"unknown scoring condition {condition!r}")


def _card(card: str) -> str:
    found = CARDS.get(card)
    return "a card" if found is None else f"a {found.ingredient} card"
