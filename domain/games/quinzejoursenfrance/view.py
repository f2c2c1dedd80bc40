"""What a traveller sees: the rows, every traveller's Location cards and steps, their own
missions (the others' only counted, until the end), the decks' sizes."""

from __future__ import annotations

import msgspec

from domain.games.quinzejoursenfrance.cards import CardId
from domain.games.quinzejoursenfrance.events import EncounterKept, EncountersDrawn, Event
from domain.games.quinzejoursenfrance.state import Phase, QuinzeOptions, ScoreSheet, Table
from domain.kernel import BySeat, ComponentId, Seat


class TravellerView(msgspec.Struct):
    cards: list[CardId]
    steps: int
    missions: list[CardId | None]
    drawn: list[CardId | None]


class QuinzeView(msgspec.Struct):
    you: Seat | None
    options: QuinzeOptions
    phase: Phase
    player: Seat
    day: int
    order: list[Seat]
    bonus: int
    decks: dict[str, int]
    rows: dict[str, list[CardId]]
    encounters: int
    """Encounter cards left to draw (their order and faces are secret)."""
    travellers: BySeat[TravellerView]
    conceded: list[Seat]
    sheets: list[ScoreSheet]


def view(state: Table, seat: Seat | None) -> QuinzeView:
    over = state.phase == "over"
    travellers = [
        TravellerView(
            cards=t.cards,
            steps=t.steps,
            missions=[m if over or s == seat else None for m in t.missions],
            drawn=[c if s == seat else None for c in t.drawn],
        )
        for s, t in enumerate(state.travellers)
    ]
    return QuinzeView(
        you=seat,
        options=state.options,
        phase=state.phase,
        player=state.player,
        day=state.day,
        order=state.order,
        bonus=state.bonus,
        decks={row: len(cards) for row, cards in state.decks.items()},
        rows=state.rows,
        encounters=len(state.encounters) + len(state.under),
        travellers=travellers,
        conceded=state.conceded,
        sheets=state.sheets,
    )


def redact(event: Event, seat: Seat | None) -> Event:
    """Encounters drawn and kept are the traveller's secret."""
    match event:
        case EncountersDrawn(seat=holder, cards=cards) if holder != seat:
            return EncountersDrawn(seat=holder, cards=tuple(None for _ in cards))
        case EncounterKept(seat=holder, put_under=put_under) if holder != seat:
            return EncounterKept(seat=holder, card=None, under=None, put_under=put_under)
        case _:
            return event


def hidden(state: Table, seat: Seat | None) -> frozenset[ComponentId]:
    """The Location decks, the Encounter deck (but the cards this traveller put under it),
    the others' drawn Encounters and, until the end, their missions."""
    secret = {c for cards in state.decks.values() for c in cards} | set(state.encounters)
    secret |= {c for c, by in zip(state.under, state.under_by, strict=True) if by != seat}
    for s, t in enumerate(state.travellers):
        if s != seat:
            secret |= set(t.drawn)
            if state.phase != "over":
                secret |= set(t.missions)
    return frozenset(secret)
