"""The 75 beetles of Jewel Box, the log, the die, the tools and the scoring tables: data only.

Sources: seed 002 line 1741 ("Gamehelpjewelbox") and rules-batch2.md, "Jewel Box".
"""

from __future__ import annotations

from typing import Final, Literal

BeetleId = str
Family = Literal["scarab", "weevil", "ladybug", "longhorn", "jewel"]
Tool = Literal["magnifier", "forceps", "either"]

FAMILIES: Final[tuple[Family, ...]] = ("scarab", "weevil", "ladybug", "longhorn", "jewel")
FAMILY_COLOUR: Final[dict[Family, str]] = {
    "scarab": "green",
    "weevil": "red",
    "ladybug": "purple",
    "longhorn": "yellow",
    "jewel": "blue",
}
PER_FAMILY: Final = 15
"""Fifteen unique beetles in each of the five families."""

BEETLES: Final[tuple[BeetleId, ...]] = tuple(
    f"jb-{family}-{n:02d}" for family in FAMILIES for n in range(1, PER_FAMILY + 1)
)
FAMILY_OF: Final[dict[BeetleId, Family]] = {
    f"jb-{family}-{n:02d}": family for family in FAMILIES for n in range(1, PER_FAMILY + 1)
}

DIE: Final = "jb-die"
DIE_SIDES: Final = 6
ANY_BEETLE_FACE: Final = 6
"""Rule: a roll of 1-5 takes the beetle on that log space; a 6 takes any of the five."""

LOG_SPACES: Final[tuple[int, ...]] = (1, 2, 3, 4, 5)
"""The five numbered face-up spaces of the log."""

TOOLS: Final[tuple[Tool, ...]] = ("magnifier", "forceps", "either")
"""Each player's three single-use tokens."""
MAGNIFYING_TOOLS: Final[tuple[Tool, ...]] = ("magnifier", "either")
SWAPPING_TOOLS: Final[tuple[Tool, ...]] = ("forceps", "either")
UNUSED_TOOL_POINTS: Final = 2

# --- scoring tables ----------------------------------------------------------------------------

SCARAB_EDGE_POINTS: Final = 2
SCARAB_MIDDLE_POINTS: Final = 3

WEEVIL_GROUP_POINTS: Final[dict[int, int]] = {2: 3, 3: 6, 4: 10}
"""Rule (seed 002, Weevils): "Group of 2 - 3 points, Group of 3 - 6 points, Group of 4 -
10 points". A bigger group is split into groups of these sizes (ASSUMPTION)."""

WEEVIL_LINE_POINTS: Final[dict[int, int]] = {**WEEVIL_GROUP_POINTS, 5: 15}
"""The `weevil_groups="lines"` option: straight unbroken lines; the line of 5 (5x5 box
only) is an ASSUMPTION."""

LADYBUG_POINTS: Final[dict[int, int]] = {0: 0, 1: 0, 2: 1, 3: 4, 4: 8, 5: 15}
"""By the number of ladybugs touching no other ladybug; 6 or more score as 5 (ASSUMPTION)."""

LONGHORN_EVEN_EACH: Final = 2
LONGHORN_ODD_EACH: Final = 1

JEWEL_PAIR_POINTS: Final = 5
"""Two touching jewels with no third touching them; any bigger group scores 0."""
