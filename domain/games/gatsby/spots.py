"""Where an Influence token lies, written as a string: `cabaret-R-C` or `racetrack-L-I`
(0-based row and column, or line and index)."""

from __future__ import annotations

from typing import Literal

Spot = str


def cabaret_spot(row: int, col: int) -> Spot:
    return f"cabaret-{row}-{col}"


def race_spot(line: int, index: int) -> Spot:
    return f"racetrack-{line}-{index}"


def parse_spot(spot: Spot) -> tuple[Literal["cabaret", "racetrack"], int, int]:
    """The spot's location and two numbers; ValueError when it is not a spot."""
    where, a, b = spot.split("-")
    if where not in ("cabaret", "racetrack"):
        raise ValueError(spot)
    return ("cabaret" if where == "cabaret" else "racetrack"), int(a), int(b)
