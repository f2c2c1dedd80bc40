"""The Zenith table: the secrets (hands, deck, face-down bonus tokens) and the open board."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.zenith.agents import AGENTS, CardId
from domain.games.zenith.board import PLANETS, START_CREDITS, START_ZENITHIUM
from domain.games.zenith.bonus import BONUSES, BonusId
from domain.games.zenith.effects import Effect, Planet
from domain.games.zenith.events import BadgeSide, Victory
from domain.kernel import Seat

Phase = Literal["setup", "action", "effects", "over"]
"""action: the player picks a card and an action; effects: the first waiting effect
asks its seat for a choice; over: someone has won."""

Sides = Literal["random", "first", "second"]


class Options(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    board_sides: Sides = "random"
    """Which side each technology board shows: random (the rules), or all first
    (Animod S, Human U, Robot N) or all second (Animod D, Human O, Robot P)."""


class Step(msgspec.Struct, frozen=True):
    """An effect waiting to be carried out for `seat`."""

    seat: Seat
    effect: Effect


class Player(msgspec.Struct, frozen=True):
    credits: int = START_CREDITS
    zenithium: int = START_ZENITHIUM
    hand: tuple[CardId, ...] = ()
    zone: dict[Planet, tuple[CardId, ...]] = msgspec.field(
        default_factory=lambda: {p: () for p in PLANETS}
    )
    """Per planet, the stack of cards, bottom first (the top card is last)."""
    tracks: dict[str, int] = msgspec.field(
        default_factory=lambda: {"animod": 0, "human": 0, "robot": 0}
    )
    tokens: tuple[Planet, ...] = ()
    """The influence tokens won, in the order won."""
    row_bonuses: tuple[int, ...] = ()


class State(msgspec.Struct):
    options: Options
    phase: Phase = "setup"
    player: Seat = 0
    first: Seat = 0
    sides: tuple[str, ...] = ()
    players: tuple[Player, Player] = (Player(), Player())
    discs: dict[Planet, int] = msgspec.field(default_factory=lambda: {p: 0 for p in PLANETS})
    """Signed steps from the centre: positive toward seat 1 (0-based seat 0), negative
    toward the other seat."""
    planet_bonuses: dict[Planet, BonusId | None] = msgspec.field(default_factory=dict)
    track_bonuses: dict[str, BonusId | None] = msgspec.field(default_factory=dict)
    reserve: tuple[BonusId, ...] = ()
    """The face-down bonus tokens (sorted: taken at random)."""
    deck: tuple[CardId, ...] = ()
    """The face-down deck (sorted: cards are drawn at random)."""
    discard: tuple[CardId, ...] = ()
    badge: Seat | None = None
    badge_side: BadgeSide = "silver"
    pending: tuple[Step, ...] = ()
    chain: Planet | None = None
    """The last planet of a different-planet chain in progress."""
    passes: int = 0
    """Turns passed in a row (both players: the game is stuck)."""
    winner: Seat | None = None
    victory: Victory | None = None


def initial(options: Options, seats: int) -> State:
    """Nothing dealt: every card in the deck, every bonus token face down."""
    return State(options=options, deck=tuple(sorted(AGENTS)), reserve=tuple(sorted(BONUSES)))
