"""History sentences: one per event, "You" for the reader's own seat."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.hypnosia.board import SpaceId
from domain.games.hypnosia.events import (
    CentreEntered,
    DiceForfeited,
    DiceRolled,
    Event,
    FirstPlayerChosen,
    GameEnded,
    PawnsCaptured,
    PawnsMoved,
    PlayerConceded,
    TurnPassed,
)
from domain.games.hypnosia.track import COLOUR_OF, LANE_STEPS, PAWNS, PawnId
from domain.kernel import Seat


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case FirstPlayerChosen(rounds=rounds, seat=seat):
            throws = "; then ".join(
                ", ".join(f"{who(t.seat)} {t.dice[0]}+{t.dice[1]}" for t in throws)
                for throws in rounds
            )
            return f"Starting throws: {throws}. {who(seat)} begins."
        case DiceRolled(seat=seat, dice=(a, b)):
            return f"{who(seat)} rolled {a} and {b}."
        case PawnsMoved(seat=seat, pawns=pawns, pips=pips, start=start, end=end, crossed_bridge=x):
            bridge = " over the bridge" if x else ""
            return (
                f"{who(seat)} moved {pawn_phrase(pawns)} from {space_phrase(start)}{bridge} "
                f"to {space_phrase(end)} with a {pips}."
            )
        case PawnsCaptured(seat=seat, victim=victim, pawns=pawns, space=space):
            n = len(pawns)
            whose = "your" if victim == reader else f"{who(victim)}'s"
            return (
                f"{who(seat)} captured {pawn_phrase(pawns, whose)} on "
                f"{space_phrase(space)}: +{n} and -{n} points."
            )
        case CentreEntered(seat=seat, pawns=pawns, start=start, points=points, left_behind=left):
            scored = " and ".join(str(p) for p in points)
            stays = f"; {pawn_phrase(left)} stays, the centre is full" if left else ""
            return (
                f"{who(seat)} brought {pawn_phrase(pawns)} from {space_phrase(start)} into "
                f"the centre for {scored} points{stays}."
            )
        case DiceForfeited(seat=seat, dice=dice):
            shown = " and ".join(str(d) for d in dice)
            return f"{who(seat)} could not burn {shown} exactly: lost."
        case TurnPassed(to=to):
            return "Your turn." if to == reader else f"{who(to)}'s turn."
        case PlayerConceded(seat=seat, pawns=pawns):
            off = "1 pawn was" if len(pawns) == 1 else f"{len(pawns)} pawns were"
            return f"{who(seat)} left the game; {off} taken off the board."
        case GameEnded(reason="centre_full"):
            return "Five pawns are in the centre: the game is over."
        case GameEnded():
            return "No pawn is left on the board: the game is over."
        case _:
            raise TypeError(f"not a Hypnosia event: {event!r}")


def components() -> dict[str, str]:
    """What the table calls each pawn: its colour and number, as history sentences do."""
    # "hy-red-2" -> "red pawn 2": the number is what tells the history's pawns apart.
    return {
        pawn: f"{colour} pawn {k}"
        for colour, pawns in PAWNS.items()
        for k, pawn in enumerate(pawns, start=1)
    }


def pawn_phrase(pawns: Sequence[PawnId], article: str = "the") -> str:
    """ "the red pawn 2", "your red pawns 1 and 3" """
    if not pawns:
        return "no pawn"
    colour = COLOUR_OF.get(pawns[0], "unknown")
    numbers = [p.rsplit("-", 1)[-1] for p in pawns]
    if len(pawns) == 1:
        return f"{article} {colour} pawn {numbers[0]}"
    return f"{article} {colour} pawns {' and '.join(numbers)}"


def space_phrase(space: SpaceId) -> str:
    """ "outer-05" -> "outer circle space 5", "red-start-2" -> "red start square 2" """
    if space in LANE_STEPS:
        colour, _, k = space.rsplit("-", 2)
        return f"{colour} start square {k}"
    circle, _, number = space.rpartition("-")
    if not circle:
        return f"the {space}"
    return f"{circle} circle space {int(number)}"
