"""What a seat sees of a Beyond table: everything but the draw pile and others' starting hands."""

from __future__ import annotations

import msgspec

from domain.games.beyond.cards import CardId
from domain.games.beyond.events import Event, HandDealt, PileRebuilt, PileShuffled, ScoreSheet
from domain.games.beyond.state import Area, Options, Phase, State
from domain.kernel import BySeat, ComponentId, Seat


class BeyondView(msgspec.Struct, frozen=True):
    you: Seat | None
    options: Options
    phase: Phase
    player: Seat
    pile_size: int
    """How many cards are left to draw (their order is secret)."""
    second_pile: bool
    discard: list[CardId]
    revealed: list[CardId]
    collected: list[CardId]
    turned_up: list[CardId]
    hand: list[CardId]
    """Your starting hand while it waits to be placed."""
    hand_sizes: BySeat[int]
    nian_shou_left: list[CardId]
    lotus_supply: int
    areas: BySeat[Area]
    ending: bool
    conceded: list[Seat]
    sheets: list[ScoreSheet]
    nian_shou_winner: Seat | None


def view(state: State, seat: Seat | None) -> BeyondView:
    return BeyondView(
        you=seat,
        options=state.options,
        phase=state.phase,
        player=state.player,
        pile_size=len(state.pile),
        second_pile=state.second_pile,
        discard=state.discard,
        revealed=state.revealed,
        collected=state.collected,
        turned_up=state.turned_up,
        hand=state.hands[seat] if seat is not None else [],
        hand_sizes=[len(h) for h in state.hands],
        nian_shou_left=state.nian_supply,
        lotus_supply=state.lotus_supply,
        areas=state.areas,
        ending=state.ending,
        conceded=state.conceded,
        sheets=state.sheets,
        nian_shou_winner=state.nian_shou_winner,
    )


def redact(event: Event, seat: Seat | None) -> Event:
    """Hide the shuffled order of every pile, and the starting hands of the others."""
    match event:
        case PileShuffled() | PileRebuilt():
            return msgspec.structs.replace(event, cards=None)
        case HandDealt(seat=holder) if holder != seat:
            return msgspec.structs.replace(event, cards=None)
        case _:
            return event


def hidden(state: State, seat: Seat | None) -> frozenset[ComponentId]:
    """The draw pile, and every starting hand but the seat's own until it is placed."""
    secret = set(state.pile)
    for other, hand in enumerate(state.hands):
        if other != seat:
            secret.update(hand)
    return frozenset(secret)
