"""The printed parts of a trek sheet: the five options table and the bonus table."""

from __future__ import annotations

from typing import Literal

OptionName = Literal["lower", "higher", "difference", "sum", "product"]

OPTIONS: tuple[OptionName, ...] = ("lower", "higher", "difference", "sum", "product")
"""The five ways to use a roll, in the order of the table on the sheet."""

BOXES_PER_OPTION = 4
"""Each option has a row of four boxes; an option with all four ticked is closed."""

SYMBOLS: dict[OptionName, str] = {
    "lower": "lower die",
    "higher": "higher die",
    "difference": "difference",
    "sum": "sum",
    "product": "product",
}

SIZE_BONUS: dict[int, int] = {3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 20, 9: 25}
"""Bonus for the longest path and for the biggest zone, by number of circles."""

SIZE_BONUS_BEYOND = 5
"""Each circle beyond nine adds this much to the size bonus."""

LONELY_PENALTY = 3
"""Points lost for each lonely circle (in no path and no zone, or a frown)."""

ZERO_DIE_FACES = (0, 1, 2, 3, 4, 5)
ONE_DIE_FACES = (1, 2, 3, 4, 5, 6)
