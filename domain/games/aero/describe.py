"""Aero events as one sentence for a reader ("You arrested the Clown for 6 points")."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.aero.dice import ALL_DICE, CRIMINAL_TITLES
from domain.games.aero.events import (
    CriminalArrested,
    CriminalFlipped,
    DiceRolled,
    DiceSetAside,
    Event,
    GameEnded,
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
        case TurnBegan(seat=seat, turn=turn):
            return f"{who(seat)} began turn {turn} of 6."
        case DiceRolled(seat=seat, dice=dice):
            faces = ", ".join(_face(d.face) for d in dice)
            return f"{who(seat)} rolled {len(dice)} dice: {faces}."
        case DiceSetAside(seat=seat, dice=dice):
            return f"{who(seat)} set aside {len(dice)} {'die' if len(dice) == 1 else 'dice'}."
        case CriminalArrested(seat=seat, criminal=c, count=count, value=value, points=points):
            return (
                f"{who(seat)} arrested {CRIMINAL_TITLES.get(c, c)}: "
                f"{count} x {value} = {points} points."
            )
        case CriminalFlipped(seat=seat, criminal=c):
            title = CRIMINAL_TITLES.get(c, c)
            return f"{who(seat)} rolled none of the wanted criminals and flipped {title} for 0."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} left the chase; the remaining turns are skipped."
        case GameEnded(scores=scores):
            table = ", ".join(f"{who(s)} {score}" for s, score in enumerate(scores))
            return f"Every criminal is dealt with. Final scores: {table}."
        case _:
            raise TypeError(f"not an Aero event: {event!r}")


def _face(face: str) -> str:
    return CRIMINAL_TITLES.get(face, "snake eye" if face == "eye" else face)


def components() -> dict[str, str]:
    """What the table calls each die and each criminal a player deals with: a die by its
    colour and number ("blue die 2"), a criminal by its title."""
    dice = {die: _die(die) for die in ALL_DICE}
    # "the Clown" reads well in a sentence; a chip drops the article.
    criminals = {c: name.removeprefix("the ") for c, name in CRIMINAL_TITLES.items()}
    return {**dice, **criminals}


def _die(die: str) -> str:
    """ "aero-blue-2" -> "blue die 2" """
    kind, _, number = die.removeprefix("aero-").partition("-")
    return f"{kind} die {number}"
