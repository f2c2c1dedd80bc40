"""The eight dice of Aero and the six criminals on the bandit dice, as data only.

Two sets of number-die faces: the seed page's (the default: "the other 4 have number
vales from 1 (snake eye) to 6") and the newer Board Game Arena page's (rules-batch2.md,
"Aero": no 6, more snake eyes), chosen by the `number_dice` option.
"""

from __future__ import annotations

from typing import Final, Literal

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

NumberDice = Literal["seed", "bga"]
"""Which faces the number dice carry: the seed page's 1-6 or the newer BGA page's."""

SEED_FACES: Final[tuple[Face, ...]] = (EYE, "2", "3", "4", "5", "6")
"""Rule (seed 002, Aero): every number die runs from 1 (the snake eye) to 6."""
BLUE_FACES: Final[tuple[Face, ...]] = (EYE, EYE, "2", "3", "4", "5")
BLACK_FACES: Final[tuple[Face, ...]] = (EYE, "2", "3", "4", "5", "5")
"""The newer BGA page: blue dice eye, eye, 2-5; black dice eye, 2-5, 5."""

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

_BANDITS: Final[dict[DieId, tuple[Face, ...]]] = {die: CRIMINALS for die in BANDIT_DICE}

FACES: Final[dict[NumberDice, dict[DieId, tuple[Face, ...]]]] = {
    "seed": {**_BANDITS, **{die: SEED_FACES for die in NUMBER_DICE}},
    "bga": {
        **_BANDITS,
        "aero-blue-1": BLUE_FACES,
        "aero-blue-2": BLUE_FACES,
        "aero-black-1": BLACK_FACES,
        "aero-black-2": BLACK_FACES,
    },
}
"""Each die's faces, for each set of number dice."""

FACE_VALUE: Final[dict[Face, int]] = {EYE: 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6}
FOUR_EYES_VALUE: Final = 7
"""Rule (seed 002, Aero): snake eye is 1 unless all four number dice show it, then 7."""

TURNS: Final = 6
"""Each player has six turns, one per criminal."""
