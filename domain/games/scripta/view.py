"""What a seat sees of a Scripta table: its own hand, the discard pile; of the others'
hands only the cards seen taken from the pile, and how many; of the deck its size."""

from __future__ import annotations

import msgspec

from domain.games.scripta.cards import CardId
from domain.games.scripta.events import CardDrawn, Event, HandDealt
from domain.games.scripta.state import Phase, ScriptaOptions, Table, Win
from domain.kernel import BySeat, ComponentId, Seat


class ScriptaView(msgspec.Struct):
    you: Seat | None
    options: ScriptaOptions
    phase: Phase
    player: Seat
    round: int
    deck: int
    discards: list[CardId]
    hands: BySeat[list[CardId | None]]
    """Your own cards; of the others', those seen taken (None for the rest)."""
    conceded: list[Seat]
    met: dict[int, Win]
    """Who met a way to win this round (the round is being played out)."""
    winners: list[Seat]


def view(state: Table, seat: Seat | None) -> ScriptaView:
    return ScriptaView(
        you=seat,
        options=state.options,
        phase=state.phase,
        player=state.player,
        round=state.round,
        deck=len(state.deck),
        discards=state.discards,
        hands=[
            [c if s == seat or c in state.seen else None for c in hand]
            for s, hand in enumerate(state.hands)
        ],
        conceded=state.conceded,
        met=state.met,
        winners=state.winners,
    )


def redact(event: Event, seat: Seat | None) -> Event:
    """A dealt hand and a card drawn from the deck are seen by their holder only."""
    match event:
        case HandDealt(seat=holder, cards=cards) if holder != seat:
            return HandDealt(seat=holder, cards=tuple(None for _ in cards))
        case CardDrawn(seat=holder, from_deck=True) if holder != seat:
            return CardDrawn(seat=holder, card=None, from_deck=True)
        case _:
            return event


def hidden(state: Table, seat: Seat | None) -> frozenset[ComponentId]:
    """The deck, and the cards of the others' hands not seen taken from the pile."""
    others = [
        c for s, hand in enumerate(state.hands) if s != seat for c in hand if c not in state.seen
    ]
    return frozenset(state.deck) | frozenset(others)
