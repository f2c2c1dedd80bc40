"""The eight dice of Aero and the six criminals on the bandit dice, as data only.

Faces follow the newer Board Game Arena page (rules-batch2.md, "Aero"): the number
dice have no 6, although the seed page says they run from 1 to 6.
"""

from __future__ import annotations

from typing import Final

DieId = str
Face = str
Criminal = str

CRIMINALS: Final[tuple[Criminal, ...]] = (
    "clown",
    "fly",
    "criminal-3",
    "criminal-4",
    "criminal-5",
    "criminal-6",
)
"""The six criminals every player must deal with; only the Clown and the Fly are named."""

CRIMINAL_TITLES: Final[dict[Criminal, str]] = {
    "clown": "the Clown",
    "fly": "the Fly",
    "criminal-3": "criminal 3",
    "criminal-4": "criminal 4",
    "criminal-5": "criminal 5",
    "criminal-6": "criminal 6",
}

EYE: Final[Face] = "eye"
"""The snake eye: worth 1, or 7 when all four number dice show it."""

BLUE_FACES: Final[tuple[Face, ...]] = (EYE, EYE, "2", "3", "4", "5")
BLACK_FACES: Final[tuple[Face, ...]] = (EYE, "2", "3", "4", "5", "5")

BANDIT_DICE: Final[tuple[DieId, ...]] = (
    "aero-bandit-1",
    "aero-bandit-2",
    "aero-bandit-3",
    "aero-bandit-4",
)
NUMBER_DICE: Final[tuple[DieId, ...]] = (
    "aero-blue-1",
    "aero-blue-2",
    "aero-black-1",
    "aero-black-2",
)
ALL_DICE: Final[tuple[DieId, ...]] = BANDIT_DICE + NUMBER_DICE

FACES: Final[dict[DieId, tuple[Face, ...]]] = {
    "aero-bandit-1": CRIMINALS,
    "aero-bandit-2": CRIMINALS,
    "aero-bandit-3": CRIMINALS,
    "aero-bandit-4": CRIMINALS,
    "aero-blue-1": BLUE_FACES,
    "aero-blue-2": BLUE_FACES,
    "aero-black-1": BLACK_FACES,
    "aero-black-2": BLACK_FACES,
}

FACE_VALUE: Final[dict[Face, int]] = {EYE: 1, "2": 2, "3": 3, "4": 4, "5": 5}
FOUR_EYES_VALUE: Final = 7
"""Rule (seed 002, Aero): snake eye is 1 unless all four number dice show it, then 7."""

TURNS: Final = 6
"""Each player has six turns, one per criminal."""
