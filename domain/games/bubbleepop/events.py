"""What happened at the table, as past-tense facts."""

from __future__ import annotations

import msgspec

from domain.games.bubbleepop.bubblees import Colour
from domain.kernel import Seat


class SkyArranged(msgspec.Struct, tag="bubbleepop.sky_arranged", tag_field="type", frozen=True):
    """Setup: the ten sky slots, in slot order (no two of a colour touching)."""

    slots: tuple[str, ...]


class FirstPlayerChosen(
    msgspec.Struct, tag="bubbleepop.first_player_chosen", tag_field="type", frozen=True
):
    seat: Seat


class SkyRefilled(msgspec.Struct, tag="bubbleepop.sky_refilled", tag_field="type", frozen=True):
    """Bubblees drawn from the bag into the empty sky slots: (slot, bubblee) pairs."""

    fills: tuple[tuple[int, str], ...]


class TurnBegan(msgspec.Struct, tag="bubbleepop.turn_began", tag_field="type", frozen=True):
    seat: Seat


class SkySwapped(msgspec.Struct, tag="bubbleepop.sky_swapped", tag_field="type", frozen=True):
    seat: Seat
    bubblees: tuple[str, str]


class BubbleesPicked(
    msgspec.Struct, tag="bubbleepop.bubblees_picked", tag_field="type", frozen=True
):
    """The player chose the two Bubblees that fall onto their planet."""

    seat: Seat
    bubblees: tuple[str, str]


class BubbleeLanded(msgspec.Struct, tag="bubbleepop.bubblee_landed", tag_field="type", frozen=True):
    """A Bubblee (from the sky or a planet) landed on top of `column` of `planet`."""

    planet: Seat
    column: int
    bubblee: str


class BubbleeStuck(msgspec.Struct, tag="bubbleepop.bubblee_stuck", tag_field="type", frozen=True):
    """The column below was full: the Bubblee stays in the sky for now."""

    planet: Seat
    bubblee: str


class LinesScored(msgspec.Struct, tag="bubbleepop.lines_scored", tag_field="type", frozen=True):
    """Lines of three or more on `planet` left it for its owner's scoring area, together
    with the same-coloured Bubblees touching them. `powers` are the powers gained (one per
    line), empty when the lines formed on the opponent's planet."""

    planet: Seat
    lines: tuple[tuple[str, ...], ...]
    bubblees: tuple[str, ...]
    powers: tuple[Colour, ...]


class PowerUsed(msgspec.Struct, tag="bubbleepop.power_used", tag_field="type", frozen=True):
    seat: Seat
    colour: Colour


class PowerSkipped(msgspec.Struct, tag="bubbleepop.power_skipped", tag_field="type", frozen=True):
    seat: Seat
    colour: Colour


class BubbleeScored(msgspec.Struct, tag="bubbleepop.bubblee_scored", tag_field="type", frozen=True):
    """A Bubblee moved into `seat`'s scoring area (yellow or orange power)."""

    seat: Seat
    bubblee: str


class PlanetSwapped(msgspec.Struct, tag="bubbleepop.planet_swapped", tag_field="type", frozen=True):
    planet: Seat
    bubblees: tuple[str, str]


class BlackPushed(msgspec.Struct, tag="bubbleepop.black_pushed", tag_field="type", frozen=True):
    """A black Bubblee from the box pushed in at the bottom of `column` of `planet`."""

    planet: Seat
    column: int
    bubblee: str


class PlanetOverfilled(
    msgspec.Struct, tag="bubbleepop.planet_overfilled", tag_field="type", frozen=True
):
    """A Bubblee stayed in the sky above `seat`'s full column: `seat` loses."""

    seat: Seat


class BagEmptied(msgspec.Struct, tag="bubbleepop.bag_emptied", tag_field="type", frozen=True):
    """The bag holds too few Bubblees to fill the sky: the game ends on points."""

    needed: int
    left: int


Event = (
    SkyArranged
    | FirstPlayerChosen
    | SkyRefilled
    | TurnBegan
    | SkySwapped
    | BubbleesPicked
    | BubbleeLanded
    | BubbleeStuck
    | LinesScored
    | PowerUsed
    | PowerSkipped
    | BubbleeScored
    | PlanetSwapped
    | BlackPushed
    | PlanetOverfilled
    | BagEmptied
)
