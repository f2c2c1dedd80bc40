"""The table: where every guest stands, Hugo, his clock, the fright trail, whose turn.

Nothing is secret in this game: every figure stands in plain sight and every roll is
made in front of everyone.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.escapefromthehiddencastle.castle import CASTLES, FRIGHT_START, Castle, RoomId
from domain.games.escapefromthehiddencastle.figures import Face, GuestId, guests_of
from domain.kernel import Seat

Area = Literal["unplaced", "gallery", "room", "step", "cellar_door", "box"]
"""unplaced: in front of its player before setup; gallery: on space `at`; room: in the
room `room`; step: on cellar step number `at` (0 is the first, "+10");
cellar_door: Hugo before the first step; box: a guest of a player who left."""

Phase = Literal["setup", "placing", "rolling", "moving", "over"]
"""setup: nothing dealt yet; placing: guests are put on the gallery one by one; rolling:
the player to act rolls the die; moving: they rolled a number and move a guest; over."""

Ending = Literal["five_oclock", "fright", "party_over"]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    midnight_party: bool = False
    """Play the "Fête de minuit" variant on the other side of the board: three rounds."""


class Spot(msgspec.Struct, frozen=True):
    """Where a figure stands: gallery space `at`, cellar step `at`, or room `room`."""

    area: Area
    at: int = 0
    room: RoomId | None = None


CELLAR_DOOR = Spot(area="cellar_door")
UNPLACED = Spot(area="unplaced")
BOX = Spot(area="box")


def hugo_start(castle: Castle) -> Spot:
    """Hugo side: at the cellar door before "+10". Midnight Party: on the step "-10"."""
    return Spot(area="step", at=0) if castle.hugo_starts_on_step else CELLAR_DOOR


class State(msgspec.Struct):
    options: Options
    seats: int
    guests: dict[GuestId, Spot]
    fright: list[int]
    """Hugo side: each counter on the fright trail. Midnight Party: the points written
    down so far."""
    hugo: Spot = CELLAR_DOOR
    clock: int = 0
    """Hugo side: Hugo's counter on the turn track (index into castle.CLOCK)."""
    phase: Phase = "setup"
    turn: Seat = 0
    starter: Seat = 0
    """Who placed the first guest and rolls first (this round)."""
    roll: Face | None = None
    """The number being moved (phase moving)."""
    to_place: list[GuestId] = []
    """The guests still to be put on the gallery, in order; the owner of the first acts."""
    round: int = 1
    round_scores: list[list[int]] = []
    """Midnight Party: the points of each finished round, one list per round."""
    conceded: list[Seat] = []
    ending: Ending | None = None

    @property
    def castle(self) -> Castle:
        return CASTLES["midnight_party" if self.options.midnight_party else "hugo"]


def initial(options: Options, seats: int) -> State:
    """Every guest in front of its player, counters on the start of the fright trail."""
    castle = CASTLES["midnight_party" if options.midnight_party else "hugo"]
    guests = {g: UNPLACED for seat in range(seats) for g in guests_of(seat, seats)}
    start = 0 if options.midnight_party else FRIGHT_START
    return State(
        options=options,
        seats=seats,
        guests=guests,
        fright=[start] * seats,
        hugo=hugo_start(castle),
    )
