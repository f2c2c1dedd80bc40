"""Hugo: his walk up the cellar steps and round the gallery, his clock, his captures.

Rule citations point at "Gamehelpescapefromthehiddencastle" (seed 004, 2021-09-01).
"""

from __future__ import annotations

from collections import Counter

from domain.games.escapefromthehiddencastle.castle import CLOCK, FIVE_OCLOCK, MIDNIGHT, party_speed
from domain.games.escapefromthehiddencastle.events import (
    ClockStruck,
    FrightChanged,
    GameEnded,
    GuestsCaptured,
    HugoMoved,
)
from domain.games.escapefromthehiddencastle.figures import OWNER
from domain.games.escapefromthehiddencastle.state import Spot, State
from domain.games.escapefromthehiddencastle.table import Turn, first_free_step, guests_at
from domain.kernel import Seat

ARROW = Spot(area="gallery", at=0)
"""The arrow space: where Hugo comes up onto the gallery, and the hour mark of his clock."""


def speed(state: State) -> int:
    """Hugo side: the spaces shown by his counter's hour. Midnight Party: always 3 (2 with
    7 or 8 players)."""
    if state.options.midnight_party:
        return party_speed(state.seats)
    return CLOCK[state.clock].speed


def next_spot(state: State, spot: Spot) -> Spot:
    """One space on: up the steps, then from the arrow space clockwise round the gallery."""
    last_step = len(state.castle.steps) - 1
    match spot.area:
        case "cellar_door":
            return Spot(area="step", at=0)
        case "step" if spot.at < last_step:
            return Spot(area="step", at=spot.at + 1)
        case "step":
            return ARROW
        case _:
            return Spot(area="gallery", at=(spot.at + 1) % state.castle.gallery)


def strikes(state: State, before: Spot, spot: Spot, clock: int) -> int | None:
    """The hour Hugo's counter moves to as he reaches `spot`, if it moves.

    Rule (seed 004, clock): leaving the cellar puts it on 24:00; each time he stops on or
    passes the arrow space after that, the next hour. Midnight Party: no clock.
    """
    if state.options.midnight_party or spot != ARROW:
        return None
    return MIDNIGHT if before.area != "gallery" else clock + 1


def path(state: State) -> list[Spot]:
    """The places Hugo goes through this move. ASSUMPTION: when his counter reaches 5:00
    on the arrow space the game ends there, and the rest of the move is not made."""
    out: list[Spot] = []
    here, clock = state.hugo, state.clock
    for _ in range(speed(state)):
        there = next_spot(state, here)
        out.append(there)
        hour = strikes(state, here, there, clock)
        if hour is not None:
            clock = hour
            if clock == FIVE_OCLOCK:
                break
        here = there
    return out


def move_hugo(turn: Turn, seat: Seat) -> None:
    """Hugo's face: Hugo moves his speed; every guest on a space he passes or lands on is
    caught (seed 004, "Hugo capture un invité")."""
    walk = path(turn.state)
    before = turn.state.hugo
    turn.record(HugoMoved(seat=seat, path=tuple(walk)))
    for spot in walk:
        hour = strikes(turn.state, before, spot, turn.state.clock)
        if hour is not None:
            turn.record(ClockStruck(hour=hour))
        if spot.area == "gallery":
            capture(turn, spot.at)
        before = spot
    if turn.state.clock == FIVE_OCLOCK:
        turn.record(GameEnded(reason="five_oclock"))


def capture(turn: Turn, space: int) -> None:
    """The guests on `space` go together to the highest free cellar step (the first step
    when all are taken); Hugo side: each owner's counter moves that step's number.
    ASSUMPTION: per guest caught, so two of one owner on "+9" cost 18 (the page counts
    "a guest who has been captured"; guests caught together only share the step)."""
    caught = guests_at(turn.state, Spot(area="gallery", at=space))
    if not caught:
        return
    step = first_free_step(turn.state)
    label = turn.state.castle.steps[step].label
    turn.record(GuestsCaptured(space=space, guests=tuple(caught), step=step, label=label))
    if turn.state.options.midnight_party:
        return
    points = turn.state.castle.steps[step].points
    for owner, count in sorted(Counter(OWNER[g] for g in caught).items()):
        total = turn.state.fright[owner] + points * count
        turn.record(FrightChanged(seat=owner, change=points * count, total=total))
