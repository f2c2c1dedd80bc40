"""What a seat sees of a Gallery Gambit table: its own hand, the market, every wall; of
the others' hands and the deck only how many cards they hold."""

from __future__ import annotations

import msgspec

from domain.games.gallerygambit.cards import CardId
from domain.games.gallerygambit.events import CardTaken, Event, HandDealt
from domain.games.gallerygambit.state import GalleryOptions, Phase, ScoreSheet, Table
from domain.kernel import BySeat, ComponentId, Seat


class GalleryView(msgspec.Struct):
    you: Seat | None
    options: GalleryOptions
    phase: Phase
    player: Seat
    deck: int
    market: list[CardId]
    hands: BySeat[list[CardId | None]]
    """Every hand: your own cards, and of the others those seen taken from the market
    (None for a card you cannot identify)."""
    walls: BySeat[list[list[CardId]]]
    conceded: list[Seat]
    sheets: list[ScoreSheet]


def view(state: Table, seat: Seat | None) -> GalleryView:
    return GalleryView(
        you=seat,
        options=state.options,
        phase=state.phase,
        player=state.player,
        deck=len(state.deck),
        market=state.market,
        hands=[
            [c if s == seat or c in state.seen else None for c in hand]
            for s, hand in enumerate(state.hands)
        ],
        walls=state.walls,
        conceded=state.conceded,
        sheets=state.sheets,
    )


def redact(event: Event, seat: Seat | None) -> Event:
    """A dealt hand and a card gambled from the deck are seen by their holder only."""
    match event:
        case HandDealt(seat=holder, cards=cards) if holder != seat:
            return HandDealt(seat=holder, cards=tuple(None for _ in cards))
        case CardTaken(seat=holder, from_deck=True) if holder != seat:
            return CardTaken(seat=holder, card=None, from_deck=True)
        case _:
            return event


def hidden(state: Table, seat: Seat | None) -> frozenset[ComponentId]:
    """The deck, and the cards of the others' hands not seen taken from the market."""
    others = [
        c for s, hand in enumerate(state.hands) if s != seat for c in hand if c not in state.seen
    ]
    return frozenset(state.deck) | frozenset(others)
