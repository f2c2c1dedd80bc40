"""The Quinze jours en France table: the two Location rows and decks, the Encounter deck
(secret; cards put under it come out last), each traveller's cards, steps and missions."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.quinzejoursenfrance.cards import ENCOUNTERS, LOCATIONS, START_STEPS, CardId
from domain.kernel import Seat

Phase = Literal["setup", "act", "keep", "over"]
"""act: the traveller picks an action; keep: keeps one of the two Encounters drawn."""


class QuinzeOptions(msgspec.Struct, forbid_unknown_fields=True):
    most_ties: Literal["count", "fail"] = "count"
    """A "most of a symbol" mission when another traveller has as many: met (`count`,
    house default) or failed (`fail`)."""


class Traveller(msgspec.Struct):
    cards: list[CardId] = []
    steps: int = START_STEPS
    missions: list[CardId] = []
    drawn: list[CardId] = []
    """Two Encounters drawn, one to keep (secret to the others)."""


class ScoreSheet(msgspec.Struct, frozen=True):
    missions: tuple[CardId, ...]
    met: tuple[bool, ...]
    mission_smileys: int
    location_smileys: int
    all_missions_bonus: int
    steps: int
    total: int


class Table(msgspec.Struct):
    seats: int
    options: QuinzeOptions
    decks: dict[str, list[CardId]]
    """nord / sud Location cards not yet dealt (sorted; dealt at random, so hidden)."""
    rows: dict[str, list[CardId]]
    encounters: list[CardId]
    """Encounter cards drawn at random (hidden)."""
    under: list[CardId]
    """Encounters put under the deck, in order; drawn once the rest is gone."""
    under_by: list[Seat]
    """Who put each card of `under` there (that traveller knows it)."""
    travellers: list[Traveller]
    phase: Phase = "setup"
    player: Seat = 0
    day: int = 0
    order: list[Seat] = []
    bonus: int = 0
    """Extra actions due at once (a `bonus` reward)."""
    conceded: list[Seat] = []
    sheets: list[ScoreSheet] = []


def initial(options: QuinzeOptions, seats: int) -> Table:
    return Table(
        seats=seats,
        options=options,
        decks={
            region: sorted(c for c, card in LOCATIONS.items() if card.region == region)
            for region in ("nord", "sud")
        },
        rows={"nord": [], "sud": []},
        encounters=sorted(ENCOUNTERS),
        under=[],
        under_by=[],
        travellers=[Traveller() for _ in range(seats)],
    )
