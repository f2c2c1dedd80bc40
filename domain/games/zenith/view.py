"""What a seat sees of a Zenith table: all but the deck, the other hand and the
face-down bonus tokens."""

from __future__ import annotations

import msgspec

from domain.games.zenith.agents import CardId
from domain.games.zenith.bonus import BonusId
from domain.games.zenith.effects import Effect, Planet
from domain.games.zenith.events import BadgeSide, CardsDrawn, Event, Victory
from domain.games.zenith.state import Options, Phase, State
from domain.games.zenith.table import hand_size, price
from domain.kernel import ComponentId, Seat


class PlayerView(msgspec.Struct, frozen=True):
    seat: Seat
    credits: int
    zenithium: int
    hand_size: int
    hand_limit: int
    hand: list[CardId] | None
    """Only for the seat itself."""
    prices: dict[CardId, int] | None
    """What each hand card costs this player now (credit discount applied)."""
    zone: dict[Planet, list[CardId]]
    tracks: dict[str, int]
    tokens: list[Planet]
    row_bonuses: list[int]


class WaitingEffect(msgspec.Struct, frozen=True):
    seat: Seat
    effect: Effect


class TableView(msgspec.Struct, frozen=True):
    you: Seat | None
    options: Options
    phase: Phase
    player: Seat
    first: Seat
    tech_sides: dict[str, str]
    discs: dict[Planet, int]
    """Steps from the centre: positive toward seat 1, negative toward seat 2."""
    planet_bonuses: dict[Planet, BonusId | None]
    track_bonuses: dict[str, BonusId | None]
    face_down_bonuses: int
    deck_size: int
    discard: list[CardId]
    badge: Seat | None
    badge_side: BadgeSide | None
    players: list[PlayerView]
    waiting: list[WaitingEffect]
    winner: Seat | None
    victory: Victory | None


def view(state: State, seat: Seat | None) -> TableView:
    players = []
    for s, p in enumerate(state.players):
        mine = seat == s
        players.append(
            PlayerView(
                seat=s,
                credits=p.credits,
                zenithium=p.zenithium,
                hand_size=len(p.hand),
                hand_limit=hand_size(state, s),
                hand=list(p.hand) if mine else None,
                prices={c: price(state, s, c) for c in p.hand} if mine else None,
                zone={planet: list(stack) for planet, stack in p.zone.items()},
                tracks=dict(p.tracks),
                tokens=list(p.tokens),
                row_bonuses=list(p.row_bonuses),
            )
        )
    return TableView(
        you=seat,
        options=state.options,
        phase=state.phase,
        player=state.player,
        first=state.first,
        tech_sides=dict(zip(("animod", "human", "robot"), state.sides, strict=False)),
        discs=dict(state.discs),
        planet_bonuses=dict(state.planet_bonuses),
        track_bonuses=dict(state.track_bonuses),
        face_down_bonuses=len(state.reserve),
        deck_size=len(state.deck),
        discard=list(state.discard),
        badge=state.badge,
        badge_side=state.badge_side if state.badge is not None else None,
        players=players,
        waiting=[WaitingEffect(seat=step.seat, effect=step.effect) for step in state.pending],
        winner=state.winner,
        victory=state.victory,
    )


def redact(event: Event, seat: Seat | None) -> Event:
    """Drawn cards are seen by the drawer only; the others learn how many."""
    match event:
        case CardsDrawn(seat=drawer) if seat != drawer:
            return msgspec.structs.replace(event, cards=())
        case _:
            return event


def hidden(state: State, seat: Seat | None) -> frozenset[ComponentId]:
    """The deck, the face-down bonus tokens and every hand but the seat's own."""
    secret = {*state.deck, *state.reserve}
    for s, p in enumerate(state.players):
        if s != seat:
            secret.update(p.hand)
    return frozenset(secret)
