"""The fold: one short case per event. Never rolls, never rejects."""

from __future__ import annotations

from msgspec.structs import replace

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
from domain.games.escapefromthehiddencastle.figures import OWNER, GuestId
from domain.games.escapefromthehiddencastle.state import BOX, Spot, State, hugo_start


def evolve(state: State, event: Event) -> State:
    match event:
        case StartingPlayerChosen(seat=seat, placing_order=order):
            return replace(state, starter=seat, turn=seat, phase="placing", to_place=list(order))
        case GuestPlaced(guest=guest, space=space):
            guests = _moved(state.guests, {guest: Spot(area="gallery", at=space)})
            return replace(state, guests=guests, to_place=state.to_place[1:])
        case PlayBegan(seat=seat):
            return replace(state, phase="rolling", turn=seat, roll=None)
        case DieRolled(face="hugo"):
            return replace(state, roll=None)
        case DieRolled(face=face):
            return replace(state, phase="moving", roll=face)
        case HugoMoved(path=path):
            return replace(state, hugo=path[-1])
        case ClockStruck(hour=hour):
            return replace(state, clock=hour)
        case GuestsCaptured(guests=caught, step=step):
            spot = Spot(area="step", at=step)
            return replace(state, guests=_moved(state.guests, {g: spot for g in caught}))
        case FrightChanged(seat=seat, total=total):
            fright = [total if s == seat else f for s, f in enumerate(state.fright)]
            return replace(state, fright=fright)
        case GuestMoved(guest=guest, to=to):
            return replace(state, guests=_moved(state.guests, {guest: to}))
        case GuestExpelled(guest=guest, space=space):
            spot = Spot(area="gallery", at=space)
            return replace(state, guests=_moved(state.guests, {guest: spot}))
        case StayedPut() | NothingToMove():
            return replace(state, roll=None)
        case TurnPassed(to=to):
            return replace(state, phase="rolling", turn=to, roll=None)
        case RoundEnded(stragglers=stragglers, step=step):
            spot = Spot(area="step", at=step)
            return replace(state, guests=_moved(state.guests, {g: spot for g in stragglers}))
        case RoundScored(points=points, totals=totals):
            return replace(
                state, round_scores=[*state.round_scores, list(points)], fright=list(totals)
            )
        case RoundBegan(round=number, starter=starter, placing_order=order):
            return _next_round(state, number, starter, order)
        case PlayerConceded(seat=seat):
            gone = {g: BOX for g in state.guests if OWNER[g] == seat}
            return replace(
                state,
                guests=_moved(state.guests, gone),
                conceded=sorted([*state.conceded, seat]),
                to_place=[g for g in state.to_place if g not in gone],
            )
        case GameEnded(reason=reason):
            return replace(state, phase="over", ending=reason, roll=None)
        case _:
            raise TypeError(f"not an Escape from the Hidden Castle event: {event!r}")


def _moved(guests: dict[GuestId, Spot], moves: dict[GuestId, Spot]) -> dict[GuestId, Spot]:
    """A new guest map with these guests moved (the input is left untouched)."""
    return {g: moves.get(g, where) for g, where in guests.items()}


def _next_round(state: State, number: int, starter: int, order: tuple[GuestId, ...]) -> State:
    """Guests in rooms step out in front of their doors; Hugo back on his start."""
    doors = {r.id: r.door for r in state.castle.rooms}
    out = {
        g: Spot(area="gallery", at=doors[w.room])
        for g, w in state.guests.items()
        if w.room is not None
    }
    return replace(
        state,
        round=number,
        guests=_moved(state.guests, out),
        hugo=hugo_start(state.castle),
        starter=starter,
        turn=starter,
        phase="placing",
        to_place=list(order),
        roll=None,
    )
