"""The Abrachadabra table. Secrets are grouped: the piles (their order), the top card a
vision put back (known to its drinker), and the cards being looked at right now."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.abrachadabra.cards import CardId, PileName, Time
from domain.kernel import Seat

Phase = Literal["setup", "draw", "vision", "diploma", "over"]
"""draw: potion or draw; vision: keep one of the cards seen; diploma: take the diploma the
rabbits match, or study on; over: someone passed the winning points."""

Standing = Literal["studying", "graduated", "lost", "stopped", "out"]
"""How a student stands in this exam: still playing, diploma taken, exam lost, no card
left to draw, or left the game."""


class AbrachadabraOptions(msgspec.Struct, forbid_unknown_fields=True):
    ends_at_22: bool = False
    """False: the game ends once a player has more than 22 points (the page); True: at 22
    or more (the newer BGA wording in rules-batch2.md)."""


class Student(msgspec.Struct):
    cards: list[CardId] = []
    """The cards laid face up in front of this student in this exam, in the order drawn."""
    standing: Standing = "studying"
    diploma: int | None = None
    points: int = 0


class KnownTop(msgspec.Struct):
    """A pile's top card as a vision put it back, and who saw it."""

    card: CardId
    seen_by: list[Seat]


class Table(msgspec.Struct):
    seats: int
    options: AbrachadabraOptions
    phase: Phase = "setup"
    exam: int = 0
    time: Time = "day"
    first: Seat = 0
    player: Seat = 0
    students: list[Student] = []
    diplomas: list[int] = []
    """The diplomas still on offer in this exam, lowest first."""
    piles: dict[str, list[CardId]] = {}
    """The four face-down piles, each kept sorted: its order is secret, so a draw is a
    random card of it (or the known top, when a vision put one back)."""
    tops: dict[str, KnownTop] = {}
    vision: list[CardId] = []
    """The cards the player is looking at with a potion, top first."""
    vision_pile: PileName | None = None
    feather: Seat | None = None
    conceded: list[Seat] = []
