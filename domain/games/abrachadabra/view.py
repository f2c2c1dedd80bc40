"""What a seat sees at the Abrachadabra table, and what it may not identify."""

from __future__ import annotations

import msgspec

from domain.games.abrachadabra.cards import MIX, PILES, CardId, PileName, Time
from domain.games.abrachadabra.events import Event, VisionSeen
from domain.games.abrachadabra.rules import count, exam_points, loose_cats, rabbits
from domain.games.abrachadabra.state import AbrachadabraOptions, Phase, Standing, Table
from domain.kernel import ComponentId, Seat


class StudentView(msgspec.Struct):
    """One student: every card in front of them is face up."""

    cards: list[CardId]
    rabbits: int
    black_cats: int
    loose_cats: int
    wool_balls: int
    feather: bool
    standing: Standing
    diploma: int | None
    exam_points: int
    points: int


class PileView(msgspec.Struct):
    name: PileName
    cards_left: int
    mix: dict[str, int]
    """What the pile holds in all, as printed on its backs."""
    top_known: CardId | None
    """The top card, when the reader saw it in a vision and put it back."""


class AbrachadabraView(msgspec.Struct):
    options: AbrachadabraOptions
    phase: Phase
    exam: int
    time: Time
    player: Seat
    diplomas: list[int]
    piles: list[PileView]
    vision: list[CardId] | None
    """The cards the reader is looking at with a potion (None for everyone else)."""
    feather_holder: Seat | None
    players: list[StudentView]
    scores: list[int]


def view(state: Table, seat: Seat | None) -> AbrachadabraView:
    players = [
        StudentView(
            cards=list(st.cards),
            rabbits=rabbits(st.cards),
            black_cats=count(st.cards, "cat"),
            loose_cats=loose_cats(st.cards),
            wool_balls=count(st.cards, "wool"),
            feather=state.feather == s,
            standing=st.standing,
            diploma=st.diploma,
            exam_points=exam_points(state, s) if state.phase != "setup" else 0,
            points=st.points,
        )
        for s, st in enumerate(state.students)
    ]
    piles = []
    for name in PILES:
        known = state.tops.get(name)
        piles.append(
            PileView(
                name=name,
                cards_left=len(state.piles.get(name, [])),
                mix=dict(MIX[name]),
                top_known=known.card if known is not None and seat in known.seen_by else None,
            )
        )
    looking = seat is not None and seat == state.player and state.phase == "vision"
    return AbrachadabraView(
        options=state.options,
        phase=state.phase,
        exam=state.exam,
        time=state.time,
        player=state.player,
        diplomas=list(state.diplomas),
        piles=piles,
        vision=list(state.vision) if looking else None,
        feather_holder=state.feather,
        players=players,
        scores=[st.points for st in state.students],
    )


def redact(event: Event, seat: Seat | None) -> Event:
    match event:
        case VisionSeen(seat=drinker) if seat != drinker:
            return msgspec.structs.replace(event, cards=None)
        case _:
            return event


def hidden(state: Table, seat: Seat | None) -> frozenset[ComponentId]:
    """Every card still in a pile, but a top the seat saw put back and the cards it is
    looking at now."""
    secret = {card for pile in state.piles.values() for card in pile}
    for top in state.tops.values():
        if seat in top.seen_by:
            secret.discard(top.card)
    if seat is not None and seat == state.player and state.phase == "vision":
        secret.difference_update(state.vision)
    return frozenset(secret)
