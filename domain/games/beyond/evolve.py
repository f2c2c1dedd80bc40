"""How each Beyond event changes the table: a flat fold that never rejects or rolls."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import msgspec

from domain.games.beyond.events import (
    CaptureCardTaken,
    CardCaptured,
    CardRevealed,
    CardsPlaced,
    CardsTaken,
    CardsTurnedUp,
    Compensated,
    EndTriggered,
    Event,
    GameEnded,
    HandDealt,
    HandToPlace,
    LotusReclaimed,
    NianShouGained,
    PileRebuilt,
    PileShuffled,
    PlayerConceded,
    RevealSkipped,
    SpiritEnchanted,
    SpiritProtected,
    SpiritSummoned,
    TurnBegan,
    TurnedUpCardChosen,
)
from domain.games.beyond.state import Area, State
from domain.kernel import Seat

replace = msgspec.structs.replace
T = TypeVar("T")


def _area(state: State, seat: Seat, change: Callable[[Area], Area]) -> list[Area]:
    return [change(a) if s == seat else a for s, a in enumerate(state.areas)]


def _without(items: list[T], gone: Sequence[T]) -> list[T]:
    return [c for c in items if c not in gone]


def evolve(state: State, event: Event) -> State:
    match event:
        case PileShuffled(cards=cards):
            return replace(state, pile=list(cards or ()))
        case HandDealt(seat=seat, cards=cards):
            dealt = list(cards or ())
            hands = [dealt if s == seat else h for s, h in enumerate(state.hands)]
            return replace(state, hands=hands, pile=_without(state.pile, dealt))
        case HandToPlace(seat=seat):
            return replace(state, phase="opening", player=seat)
        case TurnBegan(seat=seat):
            return replace(state, phase="reveal", player=seat, revealed=[], collected=[])
        case RevealSkipped():
            return replace(state, phase="act")
        case PileRebuilt(cards=cards):
            return replace(state, pile=list(cards or ()), discard=[], second_pile=True)
        case CardRevealed(card=card):
            return replace(
                state, pile=_without(state.pile, [card]), revealed=[*state.revealed, card]
            )
        case NianShouGained(seat=seat, card=card):
            areas = _area(state, seat, lambda a: replace(a, nian_shou=[*a.nian_shou, card]))
            return replace(state, areas=areas, nian_supply=_without(state.nian_supply, [card]))
        case CardsTaken(seat=seat, cards=cards, lotus_paid=paid, discarded=discarded):
            areas = _area(state, seat, lambda a: replace(a, lotus=a.lotus - paid))
            return replace(
                state,
                areas=areas,
                lotus_supply=state.lotus_supply + paid,
                revealed=[],
                collected=list(cards),
                discard=[*state.discard, *discarded],
                phase="place",
            )
        case CardsPlaced(seat=seat, spirit_side=spirits, capture_side=captures):
            areas = _area(
                state,
                seat,
                lambda a: replace(a, spirits=[*a.spirits, *spirits], stock=[*a.stock, *captures]),
            )
            hands = [[] if s == seat else h for s, h in enumerate(state.hands)]
            return replace(state, areas=areas, hands=hands, collected=[], phase="act")
        case SpiritEnchanted(seat=seat, spirit=spirit, cards=pattern, tokens_to_supply=tokens):
            areas = _area(
                state,
                seat,
                lambda a: replace(
                    a,
                    spirits=_without(a.spirits, pattern),
                    protected=_without(a.protected, pattern),
                    enchanted={**a.enchanted, spirit: list(pattern)},
                ),
            )
            return replace(state, areas=areas, lotus_supply=state.lotus_supply + tokens)
        case CardCaptured(seat=seat, victim=victim, card=card, using=using, token_back=back):
            areas = _area(
                state,
                victim,
                lambda a: replace(
                    a,
                    spirits=_without(a.spirits, [card]),
                    nian_shou=_without(a.nian_shou, [card]),
                    protected=_without(a.protected, [card]),
                    lotus=a.lotus + int(back),
                ),
            )
            is_nian = card in state.areas[victim].nian_shou
            areas = [
                replace(
                    a,
                    stock=_without(a.stock, using),
                    spirits=a.spirits if is_nian else [*a.spirits, card],
                    nian_shou=[*a.nian_shou, card] if is_nian else a.nian_shou,
                )
                if s == seat
                else a
                for s, a in enumerate(areas)
            ]
            return replace(state, areas=areas, discard=[*state.discard, *using])
        case Compensated(seat=seat, lotus=lotus):
            areas = _area(state, seat, lambda a: replace(a, lotus=a.lotus + lotus))
            return replace(state, areas=areas, lotus_supply=state.lotus_supply - lotus)
        case SpiritProtected(seat=seat, card=card):
            areas = _area(
                state, seat, lambda a: replace(a, lotus=a.lotus - 1, protected=[*a.protected, card])
            )
            return replace(state, areas=areas)
        case SpiritSummoned(seat=seat, spirit=spirit):
            areas = _area(
                state, seat, lambda a: replace(a, lotus=a.lotus - 1, summoned=[*a.summoned, spirit])
            )
            return replace(state, areas=areas)
        case CardsTurnedUp(cards=cards):
            return replace(
                state, pile=_without(state.pile, cards), turned_up=list(cards), phase="choose"
            )
        case TurnedUpCardChosen(seat=seat, card=card, discarded=discarded):
            areas = _area(state, seat, lambda a: replace(a, spirits=[*a.spirits, card]))
            return replace(
                state,
                areas=areas,
                turned_up=[],
                discard=[*state.discard, *discarded],
                phase="act",
            )
        case CaptureCardTaken(seat=seat, card=card):
            areas = _area(state, seat, lambda a: replace(a, stock=[*a.stock, card]))
            return replace(state, areas=areas, discard=_without(state.discard, [card]))
        case LotusReclaimed(seat=seat, pattern=pattern):
            areas = _area(
                state,
                seat,
                lambda a: replace(a, lotus=a.lotus + 1, summoned=_without(a.summoned, [pattern])),
            )
            return replace(state, areas=areas)
        case EndTriggered():
            return replace(state, ending=True)
        case PlayerConceded(seat=seat):
            if seat != state.player:
                return replace(state, conceded=sorted({*state.conceded, seat}))
            loose = [*state.revealed, *state.collected, *state.turned_up, *state.hands[seat]]
            hands = [[] if s == seat else h for s, h in enumerate(state.hands)]
            return replace(
                state,
                conceded=sorted({*state.conceded, seat}),
                revealed=[],
                collected=[],
                turned_up=[],
                hands=hands,
                discard=[*state.discard, *loose],
            )
        case GameEnded(sheets=sheets, nian_shou_winner=winner):
            return replace(state, phase="over", sheets=list(sheets), nian_shou_winner=winner)
        case _:
            raise TypeError(f"not a Beyond event: {event!r}")
