"""The table: each tribe's cards by zone, the three supply piles, and the round in progress.

Secrets live in known places so that `view.py` stays mechanical: a tribe's `deck` is
face down (its owner knows what is in it, nobody knows the order), its `hand` and
`discard` are hidden from the others (except `discard_seen`, the cards everybody saw go
there face up), its skirmish `force`
from the others until revealed; the `junkyard` and the `contested` resources are face
down (the initiator may know the top contested card, `peeked`); `turn.looking` holds the
junkyard cards only the digger sees. Piles list their top card first.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.arcticscavengers.commands import Action
from domain.kernel import Seat

Phase = Literal["setup", "gathering", "skirmish", "round_over", "over"]
TieBreak = Literal["shared", "contested_resources"]
UsedCards = Literal["discarded", "aside"]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    two_player_variant: bool = True
    """With two players: two of each junkyard card out, no peeking, win by 2."""
    final_tie_break: TieBreak = "shared"
    """Equal tribes at the end share the win, or the one holding more contested resources wins."""
    used_cards: UsedCards = "discarded"
    """Cards used while gathering: "discarded" after use (so a draw that empties the deck
    later that round shuffles them back in), or set "aside" face up until the next round's
    drawing phase discards them."""


class Tribe(msgspec.Struct):
    deck: list[str] = []
    hand: list[str] = []
    discard: list[str] = []
    force: list[str] = []
    played: list[str] = []
    """Cards used while gathering this round, face up, under option `used_cards="aside"`."""
    discard_seen: list[str] = []
    """The part of the discard pile everybody saw arrive (cards played or revealed)."""
    withdrawn: bool = False


class Turn(msgspec.Struct):
    """The gathering turn of the player whose turn it is."""

    used: list[Action] = []
    open: Action | None = None
    team: list[str] = []
    food: int = 0
    meds: list[str] = []
    looking: list[str] = []


class Skirmish(msgspec.Struct):
    revealed: bool = False
    declared: list[int] = []
    acted: list[str] = []
    sniped: list[str] = []
    disarmed: list[str] = []


class Result(msgspec.Struct):
    """The last skirmish: fight and people per seat, and who won (None: deadlock)."""

    round: int
    fights: list[int]
    people: list[int]
    winner: Seat | None


class State(msgspec.Struct):
    options: Options
    seats: int
    phase: Phase = "setup"
    round: int = 0
    initiator: int = 0
    tribes: list[Tribe] = []
    junkyard: list[str] = []
    contested: list[str] = []
    mercenaries: dict[str, list[str]] = {}
    gathered: list[int] = []
    turn: Turn = msgspec.field(default_factory=Turn)
    skirmish: Skirmish = msgspec.field(default_factory=Skirmish)
    peeked: str | None = None
    last: Result | None = None
    final: list[int] | None = None

    def active(self) -> list[int]:
        """Seats still in the game, clockwise from the initiator."""
        n = self.seats
        order = [(self.initiator + i) % n for i in range(n)]
        return [s for s in order if not self.tribes[s].withdrawn]

    def two_player_rules(self) -> bool:
        return self.seats == 2 and self.options.two_player_variant


def current_gatherer(state: State) -> int | None:
    """The seat gathering now: the first active seat, from the initiator, not done yet."""
    if state.phase != "gathering":
        return None
    return next((s for s in state.active() if s not in state.gathered), None)


def initial(options: Options, seats: int) -> State:
    """The table before setup: a tribe per seat, nothing dealt."""
    return State(options=options, seats=seats, tribes=[Tribe() for _ in range(seats)])
