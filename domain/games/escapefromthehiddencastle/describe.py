"""History sentences, as a table commentator would say them."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.escapefromthehiddencastle.castle import CASTLES, CLOCK
from domain.games.escapefromthehiddencastle.events import (
    ClockStruck,
    DieRolled,
    Event,
    FrightChanged,
    GameEnded,
    GuestExpelled,
    GuestMoved,
    GuestPlaced,
    GuestsCaptured,
    HugoMoved,
    NothingToMove,
    PlayBegan,
    PlayerConceded,
    RoundBegan,
    RoundEnded,
    RoundScored,
    StartingPlayerChosen,
    StayedPut,
    TurnPassed,
)
from domain.games.escapefromthehiddencastle.figures import COLOURS, OWNER, GuestId
from domain.games.escapefromthehiddencastle.state import Spot
from domain.kernel import Seat

ROOM_NAMES: dict[str, str] = {r.id: r.name for c in CASTLES.values() for r in c.rooms}

_ENDINGS = {
    "five_oclock": "Hugo's clock struck five: the night is over.",
    "fright": "A counter reached 46 on the fright trail: the night is over.",
    "party_over": "The third round is scored: the Midnight Party is over.",
}


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    def whose(guest: GuestId) -> str:
        owner = OWNER[guest]
        return "your guest" if owner == reader else f"{who(owner)}'s guest"

    match event:
        case StartingPlayerChosen(seat=seat):
            return f"{who(seat)} will place the first guest and roll first."
        case GuestPlaced(seat=seat, space=space):
            return f"{who(seat)} placed a guest on {place(Spot(area='gallery', at=space))}."
        case PlayBegan(seat=seat):
            return f"Every guest is in place; {who(seat)} rolls first."
        case DieRolled(seat=seat, face="hugo"):
            return f"{who(seat)} rolled Hugo!"
        case DieRolled(seat=seat, face=face):
            return f"{who(seat)} rolled a {face}."
        case HugoMoved(path=path):
            return f"Hugo glided {len(path)} spaces to {place(path[-1])}."
        case ClockStruck(hour=hour):
            return f"Hugo's counter moved to {CLOCK[hour].label}."
        case GuestsCaptured(space=space, guests=guests, label=label):
            caught = ", ".join(whose(g) for g in guests)
            return f"Hugo caught {caught} on space {space}: down to cellar step {label}."
        case FrightChanged(seat=seat, change=change, total=total, room=None):
            return f"{who(seat)} took {change} fright points ({total} now)."
        case FrightChanged(seat=seat, change=change, total=total, room=room):
            where = ROOM_NAMES.get(room or "", "the room")
            return f"{who(seat)} moved {change:+d} on the fright trail for {where} ({total})."
        case GuestMoved(seat=seat, origin=origin, to=to, points_lost=lost):
            spare = f", losing {lost} points" if lost else ""
            return f"{who(seat)} moved a guest from {place(origin)} to {place(to)}{spare}."
        case GuestExpelled(guest=guest, room=room, space=space):
            owner = whose(guest)
            owner = owner[0].upper() + owner[1:]
            return f"{owner} was expelled from {ROOM_NAMES[room]} to space {space}."
        case StayedPut(seat=seat):
            return f"{who(seat)} left the last guest on the gallery where it stood."
        case NothingToMove(seat=seat):
            return f"{who(seat)} had no guest that could move."
        case TurnPassed(to=to):
            return f"{who(to)} to roll."
        case RoundEnded(round=number, stragglers=stragglers, label=label):
            down = f"; {len(stragglers)} guests left on the gallery go to step {label}"
            return f"Round {number} is over{down if stragglers else ''}."
        case RoundScored(round=number, points=points):
            table = ", ".join(f"{who(s)} {p}" for s, p in enumerate(points))
            return f"Round {number} scored: {table}."
        case RoundBegan(round=number, starter=starter):
            return f"Round {number} begins; {who(starter)}, the most frightened, rolls first."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} left the party; those guests went back in the box."
        case GameEnded(reason=reason):
            return _ENDINGS[reason]
        case _:
            raise TypeError(f"not an Escape from the Hidden Castle event: {event!r}")


def components() -> dict[str, str]:
    """What the table calls each guest figure in the box: its colour and its number
    within that colour ("red guest 3")."""
    # The number keeps apart the Move Guest buttons of two guests of one colour.
    return {g: f"{COLOURS[OWNER[g]]} guest {g.rsplit('-', 1)[1]}" for g in OWNER}


def place(spot: Spot) -> str:
    match spot.area:
        case "gallery" if spot.at == 0:
            return "the arrow space"
        case "gallery":
            return f"space {spot.at}"
        case "room":
            return ROOM_NAMES.get(spot.room or "", "a room")
        case "step":
            return "the cellar steps"
        case "cellar_door":
            return "the cellar door"
        case _:
            return "the box"
