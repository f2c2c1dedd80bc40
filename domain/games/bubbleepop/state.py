"""The table: sky, two planets, two scoring areas, and the secret bag."""

from __future__ import annotations

import msgspec

from domain.games.bubbleepop.bubblees import BaseColour, Colour
from domain.kernel import Seat


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    orange: bool = False
    """Expansion: orange Bubblees replace `orange_replaces`."""
    white: bool = False
    """Expansion: white Bubblees replace `white_replaces`."""
    orange_replaces: BaseColour = "yellow"
    white_replaces: BaseColour = "purple"


class State(msgspec.Struct):
    options: Options
    sky: list[str | None]
    """The ten sky slots (see board.py), each a Bubblee id or empty."""
    planets: list[list[list[str]]]
    """Per seat, per column, the Bubblees from the bottom row up."""
    scored: list[list[str]]
    """Per seat, the Bubblees in the scoring area (one point each)."""
    bag: list[str]
    """The secret: Bubblees still in the bag (sorted ids; drawing is random)."""
    box: list[str]
    """Black Bubblees left in the box (the white power pushes these)."""
    player: Seat = 0
    started: bool = False
    swapped: bool = False
    """The player has made this turn's optional sky swap."""
    dropped: bool = False
    """The player has let two Bubblees fall this turn."""
    powers: list[list[Colour]] = []
    """Powers still to use this turn, in batches of simultaneous matches, oldest first."""
    stuck: list[str] = []
    """Bubblees that could not land on the player's full column: they wait in the sky."""
    over: bool = False
    overfilled: Seat | None = None
    """The player who overfilled a planet column and lost."""
