"""The workshop board, the dolls and the animal tracks (house-made data, see README).

The page gives what scores, not the printed numbers; these are the house's numbers.
"""

from __future__ import annotations

from typing import Literal

TRACKS = 5
"""Columns of the workshop board (public fact: each board has 5 tracks)."""
TOP_ROW = 5
"""Spaces per track, row 1 at the bottom; row 0 is the home space beneath each track."""
QUALITY_ROW = 4
"""The threshold printed on the left: a doll sent home from an empty space at this row or
higher gains a Quality tile instead of a normal one."""
ROW_POINTS = (0, 1, 2, 3, 5, 7)
"""Printed on the right of the board: what a doll standing on each row scores at the end
(index 0 is home)."""
TOP_OUT_HAPPINESS = 3
"""From the page: 3 points each time a doll reaches the top and goes back home."""

Doll = Literal["hana", "yuki", "sora"]
DOLLS: tuple[Doll, ...] = ("hana", "yuki", "sora")
DOLL_HOMES: dict[Doll, int] = {"hana": 0, "yuki": 2, "sora": 4}
"""The track (0-based) each doll starts beneath."""

Animal = Literal["crane", "fox", "tanuki"]
ANIMALS: tuple[Animal, ...] = ("crane", "fox", "tanuki")
ANIMAL_POINTS = (0, 1, 2, 3, 5, 7, 9, 12)
"""Printed on top of each animal track: a marker on step n scores ANIMAL_POINTS[n]."""
LEAD_BONUS = 3
"""From the page: 3 more points for each animal track on which you are ahead."""

START_TILES = 2
"""Public fact: each player starts with 2 tiles in different columns (house: on row 1)."""
ADJACENT_SAME_COLOUR = -3
"""From the page: -3 for each orthogonally adjacent pair of same-coloured tiles."""
