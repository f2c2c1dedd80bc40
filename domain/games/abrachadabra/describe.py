"""Abrachadabra events as one sentence for a reader (redacted forms included)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.abrachadabra.cards import CARDS, FEATHER
from domain.games.abrachadabra.events import (
    CardDrawn,
    CardKept,
    DiplomaTaken,
    Event,
    ExamBegan,
    ExamLost,
    ExamScored,
    FeatherTaken,
    GameEnded,
    PlayerConceded,
    StudiesStopped,
    TurnBegan,
    VisionSeen,
)
from domain.kernel import Seat

FACE_NAMES = {
    "rabbit1": "a one-rabbit card",
    "rabbit2": "a two-rabbit card",
    "rabbit3": "a three-rabbit card",
    "cat": "a black cat",
    "wool": "a wool ball",
    "potion": "a vision potion",
    "grimoire": "a grimoire",
}


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case ExamBegan(exam=number, time=time, first=first, diplomas=diplomas):
            offered = ", ".join(str(d) for d in diplomas)
            verb = "draw" if first == reader else "draws"
            return f"Exam {number} began by {time} (diplomas {offered}); {who(first)} {verb} first."
        case TurnBegan(seat=seat):
            return f"It is {'your' if seat == reader else who(seat) + chr(39) + 's'} turn."
        case CardDrawn(seat=seat, pile=pile, card=card):
            return f"{who(seat)} drew {face(card)} from the {pile} pile."
        case VisionSeen(seat=seat, pile=pile, cards=cards):
            if cards is None:
                return f"{who(seat)} drank a vision potion and looked at the {pile} pile."
            seen = " and ".join(face(c) for c in cards)
            return f"{who(seat)} drank a vision potion: the {pile} pile shows {seen}."
        case CardKept(seat=seat, pile=pile, card=card):
            kept = f"{who(seat)} kept {face(card)} from the vision"
            return f"{kept}; the other went back on the {pile} pile."
        case FeatherTaken(seat=seat, stolen_from=victim):
            if victim is None:
                return f"{who(seat)} took the feather."
            return f"{who(seat)} stole the feather from {who(victim).replace('You', 'you')}."
        case ExamLost(seat=seat, reason=reason):
            why = "too many rabbits" if reason == "rabbits" else "three loose black cats"
            return f"{who(seat)} lost the exam ({why})."
        case DiplomaTaken(seat=seat, value=value):
            return f"{who(seat)} took the {value} diploma."
        case StudiesStopped(seat=seat):
            return f"{who(seat)} could draw no more: every pile is empty."
        case ExamScored(exam=number, points=points, totals=totals):
            table = ", ".join(
                f"{who(s)} +{p} ({t})" for s, (p, t) in enumerate(zip(points, totals, strict=True))
            )
            return f"Exam {number} is scored: {table}."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} left the school."
        case GameEnded(totals=totals):
            table = ", ".join(f"{who(s)} {t}" for s, t in enumerate(totals))
            return f"The game is over: {table}."
        case _:
            raise TypeError(f"not an Abrachadabra event: {event!r}")


def face(card: str) -> str:
    if card not in CARDS:
        return "a card"
    return FACE_NAMES[CARDS[card][1]]


def components() -> dict[str, str]:
    """What the table calls each magic card and the feather: a card by its face alone."""
    # A card's back tells its pile, but a face-up card shows only its face: no pile here.
    cards = {card: FACE_NAMES[face].removeprefix("a ") for card, (_, face) in CARDS.items()}
    return {**cards, FEATHER: "feather"}
