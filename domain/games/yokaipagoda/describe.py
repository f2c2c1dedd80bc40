"""Yokai Pagoda events as one sentence for a reader (redacted forms included)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.yokaipagoda.cards import CARDS, KIND_OF, VALUE_OF
from domain.games.yokaipagoda.events import (
    CardGiven,
    CardPlayed,
    CardTaken,
    Event,
    GameEnded,
    HandDealt,
    PlayerConceded,
    RoundEnded,
    RoundStarted,
    TurnBegan,
)
from domain.kernel import Seat

EFFECTS = {
    "match": "same Yokai or number",
    "higher": "another Yokai, higher",
    "lower": "another Yokai, lower",
    "none": "the pile was empty: no effect",
}


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case RoundStarted(round=number, first=first, left=left, right=right):
            return (
                f"Round {number} began: the piles start with {card(left)} and {card(right)}; "
                f"{who(first)} offer{'' if first == reader else 's'} first."
            )
        case HandDealt(seat=seat, count=count, cards=cards):
            if cards is None:
                return f"{who(seat)} received {count} cards."
            return f"{who(seat)} received {', '.join(card(c) for c in cards)}."
        case TurnBegan(seat=seat):
            return f"It is {'your' if seat == reader else who(seat) + chr(39) + 's'} turn."
        case CardPlayed(seat=seat, card=c, pile=pile, effect=effect):
            return f"{who(seat)} offered {card(c)} on the {pile} pile ({EFFECTS[effect]})."
        case CardGiven(giver=giver, receiver=receiver, card=c):
            given = "a card" if c is None else card(c)
            return f"{who(giver)} gave {given} to {who(receiver).replace('You', 'you')}."
        case CardTaken(seat=seat, source=source, card=c):
            taken = "a card" if c is None else card(c)
            where = "the Pagoda deck" if source == "deck" else "the other pile"
            return f"{who(seat)} took {taken} from {where}."
        case RoundEnded(round=number, ender=ender, shown=shown):
            hand = ", ".join(card(c) for c in shown) or "no cards"
            return (
                f"{who(ender)} ended round {number}, showing {hand}; "
                "every hand went to its failed offerings."
            )
        case PlayerConceded(seat=seat):
            return f"{who(seat)} left the Pagoda."
        case GameEnded(scores=scores):
            table = ", ".join(f"{who(s)} {score}" for s, score in enumerate(scores))
            return f"The failed offerings are counted (lowest wins): {table}."
        case _:
            raise TypeError(f"not a Yokai Pagoda event: {event!r}")


def card(card_id: str) -> str:
    if card_id not in KIND_OF:
        return "a card"
    return f"the {_face(card_id)}"


def _face(card_id: str) -> str:
    return f"{KIND_OF[card_id]} {VALUE_OF[card_id]}"


def components() -> dict[str, str]:
    """What the table calls each of the 100 Yokai cards: its Yokai and number."""
    # The history's "the kappa 3" without the article: a chip is a label, not a phrase.
    return {c: _face(c) for c in CARDS}
