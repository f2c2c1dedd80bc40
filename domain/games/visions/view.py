"""What a seat sees of a Visions table: its own hand and nightmares, the River, every
face-up dream card and every track; never the deck, other hands or others' nightmares."""

from __future__ import annotations

import msgspec

from domain.games.visions.cards import CardId
from domain.games.visions.events import CardsDealt, CardStolen, Event, NightmarePlayed
from domain.games.visions.state import Options, Phase, State
from domain.kernel import ComponentId, Seat


class DreamCard(msgspec.Struct, frozen=True):
    card: CardId | None
    """None: a nightmare this reader cannot see."""
    nightmare: bool


class PlayerView(msgspec.Struct, frozen=True):
    seat: Seat
    hand_size: int
    hand: list[CardId] | None
    dreams: list[list[DreamCard]]
    reflection: int


class TableView(msgspec.Struct, frozen=True):
    you: Seat | None
    options: Options
    phase: Phase
    player: Seat
    refilling: list[Seat]
    deck_size: int
    river: list[CardId]
    players: list[PlayerView]
    scores: list[int]
    woke: Seat | None


def view(state: State, seat: Seat | None) -> TableView:
    players = [
        PlayerView(
            seat=s,
            hand_size=len(state.hands[s]),
            hand=list(state.hands[s]) if s == seat else None,
            dreams=[
                [
                    DreamCard(
                        card=slot.card if not slot.nightmare or s == seat else None,
                        nightmare=slot.nightmare,
                    )
                    for slot in dream
                ]
                for dream in state.dreams[s]
            ],
            reflection=state.track[s],
        )
        for s in range(state.seats)
    ]
    return TableView(
        you=seat,
        options=state.options,
        phase=state.phase,
        player=state.player,
        refilling=list(state.refilling),
        deck_size=len(state.deck),
        river=list(state.river),
        players=players,
        scores=list(state.scores),
        woke=state.woke,
    )


def redact(event: Event, seat: Seat | None) -> Event:
    """Deals and nightmares are seen by their player; a theft by thief and victim."""
    match event:
        case CardsDealt(seat=holder) | NightmarePlayed(seat=holder) if seat != holder:
            return (
                msgspec.structs.replace(event, cards=())
                if isinstance(event, CardsDealt)
                else (msgspec.structs.replace(event, card=None))
            )
        case CardStolen(seat=thief, target=victim) if seat not in (thief, victim):
            return msgspec.structs.replace(event, card=None)
        case _:
            return event


def hidden(state: State, seat: Seat | None) -> frozenset[ComponentId]:
    """The deck, other hands and others' nightmares, but for the hand cards everyone saw
    taken from the River and the cards stolen from this seat (it saw which)."""
    secret = set(state.deck)
    for s in range(state.seats):
        if s == seat:
            continue
        secret.update(state.hands[s])
        secret.update(slot.card for dream in state.dreams[s] for slot in dream if slot.nightmare)
    known = {card for _, victim, card in state.stolen if victim == seat} | set(state.open_hands)
    return frozenset(secret - known)
