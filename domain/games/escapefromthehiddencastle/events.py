"""What happened at the table, in the past tense. Every roll of the die is written here."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.escapefromthehiddencastle.castle import RoomId
from domain.games.escapefromthehiddencastle.figures import Face, GuestId
from domain.games.escapefromthehiddencastle.state import Ending, Spot
from domain.kernel import Seat


class _Fact(msgspec.Struct, tag_field="type", frozen=True):
    """Shared config: tagged on "type", immutable."""


class StartingPlayerChosen(
    _Fact, tag="escapefromthehiddencastle.starting_player_chosen", frozen=True
):
    """Setup: the player who places the first guest and rolls first, drawn at random."""

    seat: Seat
    placing_order: tuple[GuestId, ...]


class GuestPlaced(_Fact, tag="escapefromthehiddencastle.guest_placed", frozen=True):
    seat: Seat
    guest: GuestId
    space: int


class PlayBegan(_Fact, tag="escapefromthehiddencastle.play_began", frozen=True):
    """Every guest is placed; `seat` rolls first."""

    seat: Seat


class DieRolled(_Fact, tag="escapefromthehiddencastle.die_rolled", frozen=True):
    seat: Seat
    face: Face


class HugoMoved(_Fact, tag="escapefromthehiddencastle.hugo_moved", frozen=True):
    """Hugo went through these places, in order (the last is where he stands)."""

    seat: Seat
    path: tuple[Spot, ...]


class ClockStruck(_Fact, tag="escapefromthehiddencastle.clock_struck", frozen=True):
    """Hugo's counter moved on the turn track to hour `hour` (index into the clock)."""

    hour: int


class GuestsCaptured(_Fact, tag="escapefromthehiddencastle.guests_captured", frozen=True):
    """Guests on gallery space `space` were caught and sent to cellar step `step`."""

    space: int
    guests: tuple[GuestId, ...]
    step: int
    label: str
    """The step as printed ("+10")."""


class FrightChanged(_Fact, tag="escapefromthehiddencastle.fright_changed", frozen=True):
    """A counter moved on the fright trail: for a capture (`room` None) or a crested room."""

    seat: Seat
    change: int
    total: int
    room: RoomId | None = None


class GuestMoved(_Fact, tag="escapefromthehiddencastle.guest_moved", frozen=True):
    seat: Seat
    guest: GuestId
    origin: Spot
    to: Spot
    points_lost: int = 0
    """Points of the roll left over when the guest went into a room (they are lost)."""


class GuestExpelled(_Fact, tag="escapefromthehiddencastle.guest_expelled", frozen=True):
    """An exact entry put the room's guest out on the space in front of its door."""

    guest: GuestId
    room: RoomId
    space: int


class StayedPut(_Fact, tag="escapefromthehiddencastle.stayed_put", frozen=True):
    """Midnight Party: the player left their last gallery guest where it was."""

    seat: Seat


class NothingToMove(_Fact, tag="escapefromthehiddencastle.nothing_to_move", frozen=True):
    """Midnight Party: a number was rolled but no guest of the player may move."""

    seat: Seat


class TurnPassed(_Fact, tag="escapefromthehiddencastle.turn_passed", frozen=True):
    seat: Seat
    to: Seat


class RoundEnded(_Fact, tag="escapefromthehiddencastle.round_ended", frozen=True):
    """Midnight Party: the gallery is empty or every room is taken; stragglers go down."""

    round: int
    reason: Literal["gallery_empty", "rooms_full"]
    stragglers: tuple[GuestId, ...]
    step: int
    label: str


class RoundScored(_Fact, tag="escapefromthehiddencastle.round_scored", frozen=True):
    round: int
    points: tuple[int, ...]
    totals: tuple[int, ...]


class RoundBegan(_Fact, tag="escapefromthehiddencastle.round_began", frozen=True):
    """Midnight Party: guests in rooms step out in front of their doors, Hugo goes back to
    the first step, the cellar guests are put back on the gallery in this order."""

    round: int
    starter: Seat
    placing_order: tuple[GuestId, ...]


class PlayerConceded(_Fact, tag="escapefromthehiddencastle.player_conceded", frozen=True):
    """The player left; their guests went back into the box."""

    seat: Seat


class GameEnded(_Fact, tag="escapefromthehiddencastle.game_ended", frozen=True):
    reason: Ending


Event = (
    StartingPlayerChosen
    | GuestPlaced
    | PlayBegan
    | DieRolled
    | HugoMoved
    | ClockStruck
    | GuestsCaptured
    | FrightChanged
    | GuestMoved
    | GuestExpelled
    | StayedPut
    | NothingToMove
    | TurnPassed
    | RoundEnded
    | RoundScored
    | RoundBegan
    | PlayerConceded
    | GameEnded
)
