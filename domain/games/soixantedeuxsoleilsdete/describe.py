"""62 Soleils d'été events as one sentence for a reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.soixantedeuxsoleilsdete.events import (
    BonusDeclined,
    CopyDeclined,
    DiceAllotted,
    DiceRolled,
    Event,
    GameEnded,
    NumberWritten,
    PlayerLeft,
    SunAdded,
    SunBonusWon,
    ZoneCompleted,
)
from domain.kernel import Seat

HOW = {"dice": "", "crab": " (a crab's copy)", "bonus": " (a sun bonus)"}


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case DiceRolled(round=number, dice=dice):
            return f"Round {number}: the dice show {', '.join(str(d) for d in dice)}."
        case DiceAllotted(seat=seat, pearl=None, sun=sun):
            return f"{who(seat)} found no slot for these dice and kept {sun} for the sun."
        case DiceAllotted(seat=seat, pearl=pearl, value=value, sun=sun):
            return f"{who(seat)} used the {pearl} for a pearl, wrote the {value}, sun {sun}."
        case NumberWritten(seat=seat, slot=slot, value=value, how=how, pearl=pearl):
            extra = " and scribbled its pearl (+1 starfish)" if pearl else ""
            return f"{who(seat)} wrote {value} in {slot}{HOW[how]}{extra}."
        case CopyDeclined(seat=seat):
            return f"{who(seat)} left the crab's copy."
        case ZoneCompleted(seat=seat, zone=zone, starfish=starfish, shellfish=shellfish):
            return (
                f"{who(seat)} completed the {zone}: +{starfish} starfish, +{shellfish} shellfish."
            )
        case SunAdded(seat=seat, value=value, total=total, chosen=chosen):
            hat = " (chosen under a sun hat)" if chosen else ""
            return f"{who(seat)} added {value} to the sun row{hat}: {total} suns."
        case SunBonusWon(seat=seat, threshold=t, starfish=sf, shellfish=sh, number=number):
            won = "a bonus number" if number else f"{sf} starfish" if sf else f"{sh} shellfish"
            return f"{who(seat)} hit exactly {t} suns and won {won}."
        case BonusDeclined(seat=seat):
            return f"{who(seat)} wrote no bonus number."
        case PlayerLeft(seat=seat):
            return f"{who(seat)} left the beach."
        case GameEnded(majority=winners, scores=scores):
            most = ", ".join(who(s) for s in winners) or "nobody"
            table = ", ".join(f"{who(s)} {score}" for s, score in enumerate(scores))
            return f"The summer is over (most shellfish: {most}, +5): {table}."
        case _:
            raise TypeError(f"not a 62 Soleils d'été event: {event!r}")
