"""The First Giants table: the deck (secret), the three dig sites, the bone bag, each
museum's workshop, exhibit and tokens, and the round's turn order."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.games.firstgiants.cards import (
    BAG,
    DINOSAURS,
    SET_TOKENS_BASE,
    SITES,
    START_AMBER,
    CardId,
)
from domain.kernel import Seat

Phase = Literal["setup", "main", "after", "over"]
"""main: a main action is due; after: free actions, then End Turn."""


class FirstGiantsOptions(msgspec.Struct, forbid_unknown_fields=True):
    exhibit_cost: Literal["bones", "amber"] = "bones"
    """bones (the page): a card's fossils complete it for the exhibit, amber standing in
    for missing ones; amber (the published game, per the facts file): pay its prestige in
    amber."""
    max_rounds: Annotated[int, msgspec.Meta(ge=5, le=60)] = 30
    """House-made: a game not ended by then is scored after this round."""


class Museum(msgspec.Struct):
    workshop: list[CardId] = []
    exhibit: list[CardId] = []
    bones: dict[str, int] = msgspec.field(default_factory=lambda: {"skull": 0, "rib": 0, "claw": 0})
    amber: int = START_AMBER
    news: int = 0
    set_tokens: int = 0


class ScoreSheet(msgspec.Struct, frozen=True):
    prestige: int
    news: int
    sets: int
    amber: int
    total: int


class Table(msgspec.Struct):
    seats: int
    options: FirstGiantsOptions
    deck: list[CardId]
    """Sorted; cards are drawn at random, so hidden."""
    sites: dict[str, list[CardId]]
    bag: dict[str, int]
    museums: list[Museum]
    set_tokens: int
    order: list[Seat]
    """This round's turn order."""
    phase: Phase = "setup"
    player: Seat = 0
    round: int = 0
    main_left: int = 0
    doubled: bool = False
    initiative: Seat | None = None
    """Who secured first place in the next round's order."""
    milestones: list[int] = []
    """The exhibit milestones someone has reached first."""
    end_triggered: bool = False
    conceded: list[Seat] = []
    sheets: list[ScoreSheet] = []


def initial(options: FirstGiantsOptions, seats: int) -> Table:
    return Table(
        seats=seats,
        options=options,
        deck=sorted(DINOSAURS),
        sites={site: [] for site in SITES},
        bag=dict(BAG),
        museums=[Museum() for _ in range(seats)],
        set_tokens=SET_TOKENS_BASE + seats,
        order=list(range(seats)),
    )
