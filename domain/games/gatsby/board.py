"""The Gatsby board: the Cabaret grid, the Finance track, the Racetrack lines, the four
action spaces and the bonus spaces (data only; house-made where the page is silent).

Character spaces are named `cabaret-1..3`, `finance-1..4`, `racetrack-1..5`.
"""

from __future__ import annotations

from typing import Final, Literal

Location = Literal["cabaret", "finance", "racetrack"]
Step = Literal["cabaret", "finance", "racetrack"]
Bonus = Literal[
    "swap_characters",
    "extra_placement",
    "influence_swap",
    "advance_ascension",
    "restrict",
    "draw_special",
]
ActionSpace = Literal["cabaret_two", "cabaret_and_finance", "finance_and_race", "race_two"]
Space = str

# --- the Cabaret -----------------------------------------------------------------------------

CABARET_SECTIONS: Final = 3
SECTION_ROWS: Final = 3
CABARET_COLS: Final = 5
CABARET_ROWS: Final = CABARET_SECTIONS * SECTION_ROWS
"""House-made: three sections of 3 x 5 spaces stacked into a 9 x 5 grid; the character of
section k (`cabaret-k`) is rallied by a path from its left edge to its right edge, or by its
4 circle spaces (the Cabaret tile laid on that section)."""

CABARET_BONUSES: Final[dict[tuple[int, int], Bonus]] = {
    (1, 2): "extra_placement",
    (4, 1): "influence_swap",
    (7, 3): "draw_special",
}

# --- the Finance Center ----------------------------------------------------------------------

FINANCE_TOP: Final = 10
"""House-made: the track climbs from space 0 (bottom) to 10."""
FINANCE_HEIGHTS: Final[tuple[int, ...]] = (3, 5, 7, 9)
"""The heights of `finance-1` (bottom) .. `finance-4` (top)."""
FINANCE_BONUSES: Final[dict[int, Bonus]] = {
    2: "advance_ascension",
    4: "swap_characters",
    6: "restrict",
    8: "draw_special",
}
BEHIND_STEPS: Final = 2
AHEAD_STEPS: Final = 1
"""Rule: behind the opponent, move 2 spaces; tied or ahead, 1."""

# --- the Racetrack ---------------------------------------------------------------------------

RACE_LINES: Final[tuple[int, ...]] = (5, 5, 3, 3, 3)
"""House-made: the lengths of `racetrack-1` (top) .. `racetrack-5` (bottom); odd, so two
players always have a majority."""
RACE_BONUSES: Final[dict[tuple[int, int], Bonus]] = {
    (0, 2): "swap_characters",
    (1, 2): "restrict",
    (2, 1): "draw_special",
    (4, 1): "advance_ascension",
}
RACE_FINISHED_OVERLAYS: Final = 4

# --- character spaces ------------------------------------------------------------------------

SPACES: Final[dict[Location, tuple[Space, ...]]] = {
    "cabaret": tuple(f"cabaret-{k}" for k in range(1, CABARET_SECTIONS + 1)),
    "finance": tuple(f"finance-{k}" for k in range(1, len(FINANCE_HEIGHTS) + 1)),
    "racetrack": tuple(f"racetrack-{k}" for k in range(1, len(RACE_LINES) + 1)),
}
ALL_SPACES: Final[tuple[Space, ...]] = tuple(s for spaces in SPACES.values() for s in spaces)
EDGE_SPACES: Final[dict[Location, tuple[Space, Space]]] = {
    location: (spaces[0], spaces[-1]) for location, spaces in SPACES.items()
}
"""Rule: the two characters at each location's edges are revealed."""
SWAP_IF_BOTTOM_STRONGER: Final[dict[Location, tuple[Space, Space]]] = {
    "finance": ("finance-1", "finance-4"),
    "racetrack": ("racetrack-5", "racetrack-1"),
}
"""Rule: in Finance and the Racetrack, (bottom, top): swap them if the bottom character has
more stars."""

# --- the action spaces -----------------------------------------------------------------------

ACTION_SPACES: Final[dict[ActionSpace, tuple[Step, ...]]] = {
    "cabaret_two": ("cabaret", "cabaret"),
    "cabaret_and_finance": ("cabaret", "finance"),
    "finance_and_race": ("finance", "racetrack"),
    "race_two": ("racetrack", "racetrack"),
}
"""House-made from the page: Cabaret 1 or 2 tokens; Finance and/or Racetrack; in order."""


def location_of(space: Space) -> Location:
    return SPACES_LOCATION[space]


SPACES_LOCATION: Final[dict[Space, Location]] = {
    space: location for location, spaces in SPACES.items() for space in spaces
}
