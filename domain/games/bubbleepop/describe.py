"""History sentences."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.bubbleepop.bubblees import PER_COLOUR, POWERS, Colour, bubblee_id, colour_of
from domain.games.bubbleepop.events import (
    BagEmptied,
    BlackPushed,
    BubbleeLanded,
    BubbleeScored,
    BubbleesPicked,
    BubbleeStuck,
    Event,
    FirstPlayerChosen,
    LinesScored,
    PlanetOverfilled,
    PlanetSwapped,
    PowerSkipped,
    PowerUsed,
    SkyArranged,
    SkyRefilled,
    SkySwapped,
    TurnBegan,
)
from domain.kernel import Seat


def components() -> dict[str, str]:
    """What the table calls each of the box's Bubblees, expansion colours and blacks
    included: its colour and its number within that colour ("red 7")."""
    # The number keeps apart two same-coloured Bubblees offered on one power's buttons.
    colours: tuple[Colour, ...] = (*POWERS, "black")
    return {
        bubblee_id(colour, n): f"{colour} {n}"
        for colour in colours
        for n in range(1, PER_COLOUR + 1)
    }


def a(bubblee: str) -> str:
    """'a red', 'an orange'."""
    colour = colour_of(bubblee)
    return f"an {colour}" if colour[0] in "aeiou" else f"a {colour}"


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        return "You" if seat == reader else names[seat]

    def whose(seat: Seat) -> str:
        return "your" if seat == reader else f"{names[seat]}'s"

    def two(pair: tuple[str, ...]) -> str:
        return " and ".join(a(b) for b in pair)

    match event:
        case SkyArranged():
            return "Two Bubblees of each colour were laid out in the sky, none touching its twin."
        case FirstPlayerChosen(seat=seat):
            return f"{who(seat)} will play first."
        case TurnBegan(seat=seat):
            return f"{who(seat)} began a turn."
        case SkyRefilled(fills=fills):
            drawn = ", ".join(colour_of(b) for _, b in fills)
            return f"The sky was refilled from the bag: {drawn}."
        case SkySwapped(seat=seat, bubblees=pair):
            return f"{who(seat)} swapped {two(pair)} Bubblee in the sky."
        case BubbleesPicked(seat=seat, bubblees=pair):
            return f"{who(seat)} let {two(pair)} Bubblee fall."
        case BubbleeLanded(planet=planet, column=column, bubblee=b):
            place = f"column {column + 1} of {whose(planet)} planet"
            return f"{a(b).capitalize()} Bubblee landed in {place}."
        case BubbleeStuck(planet=planet, bubblee=b):
            full = f"{whose(planet)} column full"
            return f"{a(b).capitalize()} Bubblee found {full} and stayed in the sky."
        case LinesScored(planet=planet, bubblees=gone, powers=gained):
            tail = f", gaining {', '.join(gained)} power(s)" if gained else ""
            return f"{who(planet)} scored {len(gone)} Bubblee(s) from lines of three{tail}."
        case PowerUsed(seat=seat, colour=colour):
            return f"{who(seat)} used the {colour} power."
        case PowerSkipped(seat=seat, colour=colour):
            return f"{who(seat)} let the {colour} power go."
        case BubbleeScored(seat=seat, bubblee=b):
            return f"{a(b).capitalize()} Bubblee went to {whose(seat)} scoring area."
        case PlanetSwapped(planet=planet, bubblees=(x, y)):
            return (
                f"{a(x).capitalize()} and {a(y)} Bubblee swapped places on {whose(planet)} planet."
            )
        case BlackPushed(planet=planet, column=column):
            return f"A black Bubblee was pushed into column {column + 1} of {whose(planet)} planet."
        case PlanetOverfilled(seat=seat):
            return f"{who(seat)} overfilled a column and lost."
        case BagEmptied(needed=needed, left=left):
            return (
                f"The bag holds {left} Bubblee(s), too few to fill {needed} sky slot(s): game over."
            )
        case _:
            raise TypeError(f"not a Bubblee Pop event: {event!r}")
