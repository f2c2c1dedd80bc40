"""Jewel Box events as one sentence for a reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.jewelbox.beetles import DIE, FAMILY_COLOUR, FAMILY_OF
from domain.games.jewelbox.events import (
    BeetleCollected,
    BeetlePlaced,
    BeetlesSwapped,
    DieRolled,
    Event,
    GameEnded,
    LogFilled,
    PlayerConceded,
    ToolUsed,
    TurnBegan,
)
from domain.kernel import Seat

TOOL_NAMES = {"magnifier": "magnifying glass", "forceps": "forceps", "either": "either token"}


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case LogFilled(space=space, beetle=beetle):
            return f"A {_beetle(beetle)} was turned face up on log space {space}."
        case TurnBegan(seat=seat):
            return f"{who(seat)} took the die."
        case DieRolled(seat=seat, face=face):
            return f"{who(seat)} rolled a {face}."
        case ToolUsed(seat=seat, token=token, use=use):
            used = TOOL_NAMES[token]
            if token == "either":
                used += f" as the {TOOL_NAMES[use]}"
            return f"{who(seat)} used the {used}."
        case BeetleCollected(seat=seat, beetle=beetle, space=space):
            where = "a face-down stack" if space is None else f"log space {space}"
            return f"{who(seat)} collected a {_beetle(beetle)} from {where}."
        case BeetlePlaced(seat=seat, beetle=beetle, row=row, col=col):
            return f"{who(seat)} placed a {_beetle(beetle)} at row {row + 1}, column {col + 1}."
        case BeetlesSwapped(seat=seat, beetles=beetles):
            kinds = " and ".join(_beetle(b) for b in beetles)
            return f"{who(seat)} swapped a {kinds} with the forceps."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} closed the jewel box and left the game."
        case GameEnded(sheets=sheets):
            table = ", ".join(f"{who(s)} {sheet.total}" for s, sheet in enumerate(sheets))
            return f"Every box is full. Final scores: {table}."
        case _:
            raise TypeError(f"not a Jewel Box event: {event!r}")


def _beetle(beetle: str) -> str:
    return FAMILY_OF.get(beetle, "beetle")


def components() -> dict[str, str]:
    """What the table calls each beetle and the die: a beetle by its family and colour,
    all a tile shows (the fifteen of a family differ only in their art)."""
    beetles = {
        beetle: f"{family} ({FAMILY_COLOUR[family]})" for beetle, family in FAMILY_OF.items()
    }
    return {**beetles, DIE: "die"}
