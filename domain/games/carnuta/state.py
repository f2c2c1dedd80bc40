"""The Carnuta table: the two decks (secret), the two market rows, the rune reserve and
each player's hand, tableau, runes, sickles and bonus tokens."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.games.carnuta.cards import (
    CARDS,
    INGREDIENTS,
    RUNES,
    START_RUNES,
    START_SICKLES,
    CardId,
)
from domain.kernel import Seat

Phase = Literal["setup", "act", "token", "over"]
"""act: the player has actions left; token: the player picks a bonus token."""


class CarnutaOptions(msgspec.Struct, forbid_unknown_fields=True):
    last_round: Literal["another", "finish"] = "another"
    """The page: after the 11th card "the round is finished and another round is played"
    (`another`); the facts file reads only "finish the round" (`finish`)."""
    max_rounds: Annotated[int, msgspec.Meta(ge=5, le=60)] = 30
    """House-made: a game that has not ended by then ends after this round."""


class Player(msgspec.Struct):
    hand: list[CardId] = []
    tableau: list[CardId] = []
    runes: dict[str, int] = msgspec.field(default_factory=lambda: {"sun": 0, "moon": 0})
    """How many of the player's runes show each symbol."""
    sickles: int = START_SICKLES
    tokens: list[str] = []
    """Bonus-ingredient tokens: each counts as one more of its ingredient."""


class ScoreSheet(msgspec.Struct, frozen=True):
    cards: tuple[int, ...]
    """Each tableau card's points, in tableau order."""
    best_ingredient: int
    """The tie-break: the most points scored by the cards of one ingredient."""
    total: int


class Table(msgspec.Struct):
    seats: int
    options: CarnutaOptions
    decks: dict[str, list[CardId]]
    """day / night: the cards not yet dealt (sorted; dealt at random, so hidden)."""
    rows: dict[str, list[CardId]]
    reserve: dict[str, int]
    tokens: list[str]
    """The bonus-ingredient tokens still in the reserve."""
    players: list[Player]
    phase: Phase = "setup"
    player: Seat = 0
    round: int = 0
    actions_left: int = 0
    tokens_due: int = 0
    final_round: int | None = None
    """Set once someone has 11 cards: the game ends after this round."""
    conceded: list[Seat] = []
    sheets: list[ScoreSheet] = []


def initial(options: CarnutaOptions, seats: int) -> Table:
    """Empty boards with 2 sun and 2 moon runes and 2 sickles each; the rest in reserve."""
    spare = RUNES - len(START_RUNES) * seats
    return Table(
        seats=seats,
        options=options,
        decks={
            deck: sorted(c for c, card in CARDS.items() if card.deck == deck)
            for deck in ("day", "night")
        },
        rows={"day": [], "night": []},
        reserve={"sun": (spare + 1) // 2, "moon": spare // 2},
        tokens=list(INGREDIENTS),
        players=[
            Player(runes={s: START_RUNES.count(s) for s in ("sun", "moon")}) for _ in range(seats)
        ],
    )
