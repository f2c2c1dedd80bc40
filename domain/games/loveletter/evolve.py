"""The fold of one event onto the table: a flat `match`, never random, never refusing."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.loveletter.cards import CardId
from domain.games.loveletter.events import (
    AssassinStruck,
    CardDealt,
    CardDrawn,
    CardPlayed,
    CardSetAside,
    CardsSetFaceUp,
    DiscardOffered,
    Event,
    GameWon,
    GuessHit,
    GuessMissed,
    HandDiscarded,
    HandKept,
    HandsCompared,
    HandSeen,
    HandsSwapped,
    JesterTokenGiven,
    PlayerKnockedOut,
    PlayerMarked,
    ProtectionGained,
    RoundEnded,
    RoundStarted,
    SeatLeft,
    TokenAwarded,
    TurnBegan,
)
from domain.games.loveletter.state import JesterBet, State
from domain.kernel import Seat


def evolve(state: State, event: Event) -> State:
    match event:
        case RoundStarted(round=number, deck=deck):
            n = state.seats
            return replace(
                state,
                phase="turn",
                round=number,
                turn=None,
                hands=[[] for _ in range(n)],
                deck=list(deck or ()),
                set_aside=None,
                known=[[] for _ in range(n)],
                face_up=[],
                discards=[[] for _ in range(n)],
                out=list(state.gone),
                protected=[False] * n,
                marked=None,
                jester=None,
                chooser=None,
                starter=None,
                showdown=False,
            )
        case CardSetAside(card=card):
            return replace(state, set_aside=card, deck=_without(state.deck, card))
        case CardsSetFaceUp(cards=cards):
            rest = [c for c in state.deck if c not in cards]
            return replace(state, face_up=[*state.face_up, *cards], deck=rest)
        case (
            CardDealt(seat=seat, card=card) | CardDrawn(seat=seat, card=card, from_set_aside=False)
        ):
            hands = _put(state.hands, seat, [*state.hands[seat], *_some(card)])
            return replace(state, hands=hands, deck=_without(state.deck, card))
        case CardDrawn(seat=seat, card=card):
            hands = _put(state.hands, seat, [*state.hands[seat], *_some(card)])
            return replace(state, hands=hands, set_aside=None)
        case TurnBegan(seat=seat):
            return replace(state, turn=seat, protected=_put(state.protected, seat, False))
        case CardPlayed(seat=seat, card=card):
            return replace(_discard(state, seat, card), marked=None)
        case GuessMissed() | GuessHit():
            return state
        case AssassinStruck(seat=seat, card=card):
            return _discard(state, seat, card)
        case HandSeen(viewer=viewer, card=card):
            return replace(state, known=_learn(state.known, viewer, card))
        case HandsCompared(seat=seat, other=other, card=card, other_card=other_card):
            known = _learn(_learn(state.known, seat, other_card), other, card)
            return replace(state, known=known)
        case ProtectionGained(seat=seat):
            return replace(state, protected=_put(state.protected, seat, True))
        case HandDiscarded(seat=seat, card=card):
            return _end_choice(_discard(state, seat, card))
        case DiscardOffered(seat=seat):
            return replace(state, phase="bishop", chooser=seat)
        case HandKept():
            return _end_choice(state)
        case HandsSwapped(seat=seat, other=other, card=card, other_card=other_card):
            hands = _put(_put(state.hands, seat, state.hands[other]), other, state.hands[seat])
            known = _learn(_learn(state.known, seat, card), other, other_card)
            return replace(state, hands=hands, known=known)
        case PlayerMarked(seat=seat):
            return replace(state, marked=seat)
        case JesterTokenGiven(seat=seat, target=target):
            return replace(state, jester=JesterBet(player=seat, target=target))
        case PlayerKnockedOut(seat=seat, cards=cards):
            after = replace(
                state,
                hands=_put(state.hands, seat, []),
                discards=_put(state.discards, seat, [*state.discards[seat], *cards]),
                out=_put(state.out, seat, True),
                protected=_put(state.protected, seat, False),
            )
            return _end_choice(after) if state.chooser == seat else after
        case TokenAwarded(seat=seat):
            return replace(state, tokens=_put(state.tokens, seat, state.tokens[seat] + 1))
        case RoundEnded(starter=starter, showdown=showdown):
            return replace(
                state,
                phase="between_rounds",
                turn=None,
                starter=starter,
                showdown=bool(showdown),
                marked=None,
                chooser=None,
            )
        case GameWon(winners=winners):
            return replace(state, phase="over", winners=list(winners))
        case SeatLeft(seat=seat):
            return replace(state, gone=_put(state.gone, seat, True))
        case _:
            raise TypeError(f"not a Love Letter event: {event!r}")


def _put(items: list[Any], index: int, value: Any) -> list[Any]:
    """A copy of `items` with one entry replaced (the input stays untouched)."""
    out = list(items)
    out[index] = value
    return out


def _some(card: CardId | None) -> list[CardId]:
    return [] if card is None else [card]


def _without(cards: list[CardId], card: CardId | None) -> list[CardId]:
    return [c for c in cards if c != card]


def _discard(state: State, seat: Seat, card: CardId) -> State:
    """A card moves from a hand to that player's discards, face up."""
    return replace(
        state,
        hands=_put(state.hands, seat, _without(state.hands[seat], card)),
        discards=_put(state.discards, seat, [*state.discards[seat], card]),
    )


def _learn(known: list[list[CardId]], seat: Seat, card: CardId | None) -> list[list[CardId]]:
    if card is None or card in known[seat]:
        return known
    return _put(known, seat, sorted([*known[seat], card]))


def _end_choice(state: State) -> State:
    """The Bishop's target has answered (or is out): the turn goes on."""
    if state.phase != "bishop":
        return state
    return replace(state, phase="turn", chooser=None)
