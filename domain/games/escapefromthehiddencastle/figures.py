"""The guests, their colours and the die, as data."""

from __future__ import annotations

from typing import Literal

from domain.kernel import Seat

GuestId = str
"""One guest figure: "guest-red-1" ... "guest-purple-6"."""

Face = Literal[1, 2, 4, 5, "hugo"]

FACES: tuple[Face, ...] = (1, 2, "hugo", 4, 5, "hugo")
"""The die: 1, 2, 4, 5 and Hugo on two faces (Board Game Arena's English page)."""

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "white", "black", "orange", "purple")
"""One colour per seat, in seat order."""

GUESTS_PER_PLAYER: dict[int, int] = {2: 6, 3: 5, 4: 4, 5: 3, 6: 2, 7: 2, 8: 2}


def guests_of(seat: Seat, seats: int) -> tuple[GuestId, ...]:
    return tuple(f"guest-{COLOURS[seat]}-{n}" for n in range(1, GUESTS_PER_PLAYER[seats] + 1))


OWNER: dict[GuestId, Seat] = {
    f"guest-{colour}-{n}": seat for seat, colour in enumerate(COLOURS) for n in range(1, 7)
}
"""Whose colour each figure is."""
