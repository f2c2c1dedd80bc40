"""view / redact / hidden: who sees which card.

A deck is seen by nobody; a hand and a discard pile by their owner; a skirmish force by
its owner until the forces are revealed; the junkyard and the contested resources by
nobody, except the top contested card by the initiator who peeked at it; dug cards by
the digger. Cards played for actions are face up for all.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from domain.games.arcticscavengers.events import (
    CardsDrawn,
    CardsTrashed,
    ContestedResourcePeeked,
    DeckShuffled,
    DugCardKept,
    Event,
    JunkyardDug,
    MercenaryHired,
    SkirmishDeadlocked,
    SkirmishWon,
    TableSetUp,
)
from domain.games.arcticscavengers.gathering import strength
from domain.games.arcticscavengers.skirmish import resolver
from domain.games.arcticscavengers.state import Phase, Result, State, current_gatherer
from domain.kernel import Seat


class TribeView(msgspec.Struct):
    seat: Seat
    withdrawn: bool
    deck_size: int
    hand_size: int
    discard_size: int
    force_size: int
    played: list[str]
    hand: list[str] | None = None
    discard: list[str] | None = None
    force: list[str] | None = None


class TurnView(msgspec.Struct):
    seat: Seat
    used: list[str]
    open: str | None
    team: list[str]
    strength: int
    food: int
    meds: list[str]
    looking_size: int
    looking: list[str] | None = None


class SkirmishView(msgspec.Struct):
    resolver: Seat | None
    declared: list[Seat]
    acted: list[str]
    sniped: list[str]
    disarmed: list[str]


class TableView(msgspec.Struct):
    round: int
    phase: Phase
    initiator: Seat
    tribes: list[TribeView]
    junkyard_size: int
    contested_size: int
    mercenaries: dict[str, int]
    you: Seat | None = None
    turn: TurnView | None = None
    peeked: str | None = None
    skirmish: SkirmishView | None = None
    last_skirmish: Result | None = None
    final_tribes: list[int] | None = None


def view(state: State, seat: Seat | None) -> TableView:
    revealed = state.skirmish.revealed
    tribes = []
    for s, t in enumerate(state.tribes):
        mine = s == seat
        tribes.append(
            TribeView(
                seat=s,
                withdrawn=t.withdrawn,
                deck_size=len(t.deck),
                hand_size=len(t.hand),
                discard_size=len(t.discard),
                force_size=len(t.force),
                played=list(t.played),
                hand=list(t.hand) if mine else None,
                discard=list(t.discard) if mine else None,
                force=list(t.force) if mine or revealed else None,
            )
        )
    gatherer = current_gatherer(state)
    turn = None
    if gatherer is not None:
        tn = state.turn
        turn = TurnView(
            seat=gatherer,
            used=list(tn.used),
            open=tn.open,
            team=list(tn.team),
            strength=strength(tn.team, tn.open) if tn.open else 0,
            food=tn.food,
            meds=list(tn.meds),
            looking_size=len(tn.looking),
            looking=list(tn.looking) if gatherer == seat else None,
        )
    sk = None
    if state.phase == "skirmish":
        s_ = state.skirmish
        sk = SkirmishView(
            resolver=resolver(state),
            declared=list(s_.declared),
            acted=list(s_.acted),
            sniped=list(s_.sniped),
            disarmed=list(s_.disarmed),
        )
    return TableView(
        round=state.round,
        phase=state.phase,
        initiator=state.initiator,
        tribes=tribes,
        junkyard_size=len(state.junkyard),
        contested_size=len(state.contested),
        mercenaries={kind: len(pile) for kind, pile in state.mercenaries.items()},
        you=seat,
        turn=turn,
        peeked=state.peeked if seat is not None and seat == state.initiator else None,
        skirmish=sk,
        last_skirmish=state.last,
        final_tribes=state.final,
    )


def redact(event: Event, seat: Seat | None) -> Event:
    match event:
        case TableSetUp():
            return replace(event, decks=None, junkyard=None, contested=None)
        case DeckShuffled():
            return replace(event, order=None)
        case CardsTrashed():
            return replace(event, cards=None, junkyard=None)
        case SkirmishDeadlocked():
            return replace(event, junkyard=None)
        case CardsDrawn() | JunkyardDug() if event.seat != seat:
            return replace(event, cards=None)
        case ContestedResourcePeeked() | DugCardKept() | MercenaryHired() | SkirmishWon() if (
            event.seat != seat
        ):
            return replace(event, card=None)
    return event


def hidden(state: State, seat: Seat | None) -> frozenset[str]:
    """Ids `seat` cannot place. Its own deck is not among them: every card in it came from
    its starting deck or its own discard pile, so it knows what is there; the order stays
    secret because no view or redacted event ever carries it."""
    secret: set[str] = set(state.junkyard) | set(state.contested)
    if seat is not None and seat == state.initiator and state.peeked is not None:
        secret.discard(state.peeked)
    for s, t in enumerate(state.tribes):
        if s != seat:
            secret.update(t.deck)
            secret.update(t.hand)
            secret.update(set(t.discard) - set(t.discard_seen))
            if not state.skirmish.revealed:
                secret.update(t.force)
    if current_gatherer(state) != seat:
        secret.update(state.turn.looking)
    return frozenset(secret)
