"""The table: where every pawn stands, the centre, the scores and the dice of the turn.

Nothing is secret in Hypnosia.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.hypnosia.board import Colour, SpaceId
from domain.games.hypnosia.track import COLOUR_OF, HOME, PAWNS, PawnId, seating
from domain.kernel import Seat

Phase = Literal["setup", "rolling", "moving", "over"]
"""setup: before the first player is chosen; rolling: the player on turn throws the
dice; moving: dice are left to burn; over: the game has ended."""


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    stacks_cannot_cross: bool = False
    """The rules page's variant: a stack never crosses a bridge (nor enters the centre)."""
    must_use_both_dice: bool = False
    """A house rule the page does not state: when some order of moves burns both dice, a
    first move that strands the other die is refused (even an entry into the centre).
    Off: each die is used if it can be when its turn comes."""


class State(msgspec.Struct):
    options: Options
    colours: list[Colour]
    """The colour each seat plays."""
    scores: list[int]
    positions: dict[PawnId, SpaceId]
    """Every pawn still on the board (start squares included). A pawn missing here and
    from `centre` has been captured (or taken off when its player conceded)."""
    centre: list[PawnId] = []
    """Pawns in the centre, in arrival order."""
    phase: Phase = "setup"
    turn: Seat = 0
    dice: list[int] = []
    """Dice of this turn still to burn."""
    conceded: list[Seat] = []

    def owner(self, pawn: PawnId) -> Seat | None:
        colour = COLOUR_OF.get(pawn)
        return self.colours.index(colour) if colour in self.colours else None


def initial(options: Options, seats: int) -> State:
    """Each player's four pawns on the four start squares of their colour."""
    colours = list(seating(seats))
    positions = {pawn: HOME[pawn] for colour in colours for pawn in PAWNS[colour]}
    return State(options=options, colours=colours, scores=[0] * seats, positions=positions)
