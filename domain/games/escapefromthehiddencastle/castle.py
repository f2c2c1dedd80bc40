"""The two sides of the board as data: the gallery, the rooms, the cellar steps, the clock.

The rules read nothing else about the board. The rules page (seed 004) gives 9 rooms,
the three crested rooms, the arrow space and the "+10" first cellar step; the gallery
length, the door spaces and the number of steps are not printed anywhere we could read,
so they are ASSUMPTIONS (rules-batch1.md section 6), kept here so that a corrected board
is a change to this file only.

Gallery spaces are numbered clockwise from the arrow space (0), where Hugo comes up
from the cellar. A room's door faces one gallery space. Steps are listed in the order
Hugo fills them: the first free one in this order takes the next captured guest.
"""

from __future__ import annotations

from typing import Literal

import msgspec

RoomId = str
"""A room of the castle: "armoury", "ballroom", "library" ..."""

Side = Literal["hugo", "midnight_party"]

Crest = Literal["none", "green", "hugo_junior"]
"""green: the Ballroom and the Banquet Hall (exact entry, good for the nerves);
hugo_junior: rooms haunted by Hugo Junior (a fright point)."""


class Room(msgspec.Struct, frozen=True):
    id: RoomId
    name: str
    door: int
    """The gallery space in front of the door."""
    crest: Crest = "none"
    entry_fright: int = 0
    """Hugo side: fright points for entering (Armoury +1, green crest -3)."""
    party_points: int = 0
    """Midnight Party: points for a guest still here when the round is scored."""

    @property
    def exact_entry(self) -> bool:
        """Green-crest rooms are entered only with the exact number of points."""
        return self.crest == "green"


class Step(msgspec.Struct, frozen=True):
    label: str
    """As printed on the step: "+10" (Hugo side) or "-10" (Midnight Party side)."""
    points: int
    """Fright points for a guest sent here."""


class Castle(msgspec.Struct, frozen=True):
    side: Side
    gallery: int
    """Spaces around the gallery; space 0 is the arrow space."""
    rooms: tuple[Room, ...]
    steps: tuple[Step, ...]
    hugo_starts_on_step: bool
    """Hugo side: Hugo waits at the cellar door, before the first step. Midnight Party:
    he starts on the first step ("-10")."""
    straggler_step: int = 8
    """Midnight Party: guests still on the gallery when a round ends go to this step
    ("-2")."""

    def room(self, room_id: RoomId) -> Room | None:
        return next((r for r in self.rooms if r.id == room_id), None)


def _steps(sign: str) -> tuple[Step, ...]:
    """Nine steps, 10 down to 2 (ASSUMPTION: "a nine-field staircase", -10 ... -2)."""
    return tuple(Step(label=f"{sign}{n}", points=n) for n in range(10, 1, -1))


# ASSUMPTION (door spaces): the first two doors are 4 and 5 points from the cellar (the
# page: a 4 or a 5 takes a guest off the steps straight into one of the first two rooms).
HUGO_SIDE = Castle(
    side="hugo",
    gallery=40,
    rooms=(
        Room(id="library", name="the Library", door=2),
        Room(id="chapel", name="the Chapel", door=3),
        Room(id="armoury", name="the Armoury", door=8, crest="hugo_junior", entry_fright=1),
        Room(id="kitchen", name="the Kitchen", door=12),
        Room(id="ballroom", name="the Ballroom", door=17, crest="green", entry_fright=-3),
        Room(id="bedchamber", name="the Bedchamber", door=21),
        Room(id="guard_room", name="the Guard Room", door=26),
        Room(id="banquet_hall", name="the Banquet Hall", door=31, crest="green", entry_fright=-3),
        Room(id="tower_room", name="the Tower Room", door=36),
    ),
    steps=_steps("+"),
    hugo_starts_on_step=False,
)

# ASSUMPTION: the Midnight Party side has the same gallery and 11 rooms (German reviews of
# the Ravensburger edition), two of them haunted by Hugo Junior (+1 each at scoring) and
# the two green-crest rooms (2 luck points each, counted as -2).
MIDNIGHT_PARTY_SIDE = Castle(
    side="midnight_party",
    gallery=40,
    rooms=(
        Room(id="library", name="the Library", door=2),
        Room(id="chapel", name="the Chapel", door=3),
        Room(id="armoury", name="the Armoury", door=8, crest="hugo_junior", party_points=1),
        Room(id="kitchen", name="the Kitchen", door=12),
        Room(id="ballroom", name="the Ballroom", door=17, crest="green", party_points=-2),
        Room(id="bedchamber", name="the Bedchamber", door=21),
        Room(
            id="abandoned_room",
            name="the Abandoned Room",
            door=24,
            crest="hugo_junior",
            party_points=1,
        ),
        Room(id="guard_room", name="the Guard Room", door=26),
        Room(id="banquet_hall", name="the Banquet Hall", door=31, crest="green", party_points=-2),
        Room(id="attic", name="the Attic", door=33),
        Room(id="tower_room", name="the Tower Room", door=36),
    ),
    steps=_steps("-"),
    hugo_starts_on_step=True,
)

CASTLES: dict[Side, Castle] = {c.side: c for c in (HUGO_SIDE, MIDNIGHT_PARTY_SIDE)}


class Hour(msgspec.Struct, frozen=True):
    label: str
    speed: int
    """Spaces Hugo moves on his die face while his counter is on this hour (0: the end)."""


CLOCK: tuple[Hour, ...] = (
    Hour(label="23:45", speed=3),
    Hour(label="24:00", speed=3),
    Hour(label="1:00", speed=4),
    Hour(label="2:00", speed=5),
    Hour(label="3:00", speed=6),
    Hour(label="4:00", speed=7),
    Hour(label="5:00", speed=0),
)
"""The Hugo side's turn track. ASSUMPTION: 3 spaces at 23:45 and 24:00, one more per
hour after, 7 at 4:00 (the English page: "starts at 3", "faster than 7 is the end")."""

MIDNIGHT = 1
"""Hugo's counter goes to 24:00 when he steps out of the cellar onto the arrow space."""

FIVE_OCLOCK = len(CLOCK) - 1
"""His counter reaching 5:00 ends the game at once."""

FRIGHT_START = 10
"""Every player's counter starts on 10 of the fright trail. ASSUMPTION (the page is
silent): the facts, rules-batch1.md section 6, put it there."""

FRIGHT_LIMIT = 46
"""A counter reaching or passing 46 ends the game."""

PARTY_ROUNDS = 3
"""Midnight Party: three frightful rounds."""


def party_speed(seats: int) -> int:
    """Midnight Party: Hugo always moves 3 spaces, 2 with 7 or 8 players."""
    return 2 if seats >= 7 else 3
