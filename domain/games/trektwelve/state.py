"""The table: one sheet per trekker, the current roll, who has written it."""

from __future__ import annotations

import msgspec

from domain.games.trektwelve.maps import MapName


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    map: MapName = "dunai"


class Sheet(msgspec.Struct):
    """One trekker's sheet. Index = circle id of the map."""

    numbers: list[int | None]
    """The number written in each circle; None while empty or when it holds a frown."""
    frowns: list[bool]
    """Circles filled with a frown (a number too big for them)."""
    down: list[int | None]
    """For each circle, the neighbour one lower it is roped to."""
    up: list[int | None]
    """For each circle, the neighbour one higher it is roped to."""
    ticks: dict[str, int]
    """Boxes ticked in each option's row."""

    def filled(self, circle: int) -> bool:
        return self.numbers[circle] is not None or self.frowns[circle]


class State(msgspec.Struct):
    options: Options
    seats: int
    sheets: list[Sheet]
    written: list[bool]
    """Who has written the current roll."""
    left: list[bool]
    """Trekkers who conceded: they write no more."""
    roll: int = 0
    dice: tuple[int, int] | None = None
    over: bool = False
    scores: tuple[int, ...] = ()


def blank_sheet(circles: int) -> Sheet:
    return Sheet(
        numbers=[None] * circles,
        frowns=[False] * circles,
        down=[None] * circles,
        up=[None] * circles,
        ticks={},
    )
