"""The fold: each Zenith event onto the table. Never random, never rejects."""

from __future__ import annotations

import msgspec

from domain.games.zenith.agents import AGENTS
from domain.games.zenith.board import EDGE, FACTIONS, PLANETS
from domain.games.zenith.events import (
    BadgeTaken,
    BonusTaken,
    CardExiled,
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    CardsMobilized,
    CardTransferred,
    DiscardReshuffled,
    DiscReset,
    EffectBegan,
    EffectsQueued,
    Event,
    GameWon,
    InfluenceGained,
    ResourcesChanged,
    RowBonusEarned,
    TableSetUp,
    TechnologyAdvanced,
    TokenCaptured,
    TurnBegan,
    TurnPassed,
)
from domain.games.zenith.state import Player, State, Step
from domain.kernel import Seat

replace = msgspec.structs.replace


def _with(state: State, seat: Seat, player: Player) -> tuple[Player, Player]:
    a, b = state.players
    return (player, b) if seat == 0 else (a, player)


def _to_zone(player: Player, cards: tuple[str, ...]) -> Player:
    zone = dict(player.zone)
    for card in cards:
        planet = AGENTS[card].planet
        zone[planet] = (*zone[planet], card)
    return replace(player, zone=zone)


def _from_zone(player: Player, card: str) -> Player:
    planet = AGENTS[card].planet
    zone = dict(player.zone)
    zone[planet] = tuple(c for c in zone[planet] if c != card)
    return replace(player, zone=zone)


def evolve(state: State, event: Event) -> State:
    match event:
        case TableSetUp(
            first=first, sides=sides, planet_bonuses=on_planets, track_bonuses=on_tracks
        ):
            taken = {*on_planets, *on_tracks}
            return replace(
                state,
                first=first,
                player=first,
                sides=sides,
                planet_bonuses=dict(zip(PLANETS, on_planets, strict=True)),
                track_bonuses=dict(zip(FACTIONS, on_tracks, strict=True)),
                reserve=tuple(t for t in state.reserve if t not in taken),
            )
        case CardsDrawn(seat=seat, cards=cards):
            me = state.players[seat]
            return replace(
                state,
                players=_with(state, seat, replace(me, hand=(*me.hand, *cards))),
                deck=tuple(c for c in state.deck if c not in cards),
            )
        case DiscardReshuffled():
            return replace(state, deck=tuple(sorted((*state.deck, *state.discard))), discard=())
        case TurnBegan(seat=seat):
            return replace(state, phase="action", player=seat, chain=None)
        case CardPlayed(seat=seat, card=card, action=action, credits=credits, zenithium=zen):
            me = state.players[seat]
            me = replace(
                me,
                hand=tuple(c for c in me.hand if c != card),
                credits=me.credits - credits,
                zenithium=me.zenithium - zen,
            )
            discard = state.discard
            if action == "influence":
                me = _to_zone(me, (card,))
            else:
                discard = (*discard, card)
            return replace(
                state, players=_with(state, seat, me), discard=discard, chain=None, passes=0
            )
        case EffectsQueued(seat=seat, effects=queued):
            steps = tuple(Step(seat=seat, effect=e) for e in queued)
            return replace(state, pending=(*steps, *state.pending), phase="effects")
        case EffectBegan():
            pending = state.pending[1:]
            return replace(state, pending=pending, phase="effects" if pending else "action")
        case InfluenceGained(seat=seat, planet=planet, steps=steps, chain=chain):
            discs = dict(state.discs)
            discs[planet] += steps if seat == 0 else -steps
            assert abs(discs[planet]) <= EDGE
            return replace(state, discs=discs, chain=planet if chain else state.chain)
        case TokenCaptured(seat=seat, planet=planet):
            me = state.players[seat]
            discs = {**state.discs, planet: 0}
            me = replace(me, tokens=(*me.tokens, planet))
            return replace(state, players=_with(state, seat, me), discs=discs)
        case DiscReset(planet=planet):
            return replace(state, discs={**state.discs, planet: 0})
        case ResourcesChanged(seat=seat, credits=credits, zenithium=zen):
            me = state.players[seat]
            me = replace(me, credits=me.credits + credits, zenithium=me.zenithium + zen)
            return replace(state, players=_with(state, seat, me))
        case BadgeTaken(seat=seat, side=side):
            return replace(state, badge=seat, badge_side=side)
        case BonusTaken(token=token):
            return replace(
                state,
                reserve=tuple(t for t in state.reserve if t != token),
                planet_bonuses={
                    p: None if t == token else t for p, t in state.planet_bonuses.items()
                },
                track_bonuses={
                    f: None if t == token else t for f, t in state.track_bonuses.items()
                },
            )
        case CardsMobilized(seat=seat, cards=cards):
            me = _to_zone(state.players[seat], cards)
            deck = tuple(c for c in state.deck if c not in cards)
            return replace(state, players=_with(state, seat, me), deck=deck)
        case CardTransferred(seat=seat, card=card):
            them = _from_zone(state.players[1 - seat], card)
            me = _to_zone(state.players[seat], (card,))
            players = (me, them) if seat == 0 else (them, me)
            return replace(state, players=players)
        case CardExiled(owner=owner, card=card):
            me = _from_zone(state.players[owner], card)
            return replace(state, players=_with(state, owner, me), discard=(*state.discard, card))
        case CardsDiscarded(seat=seat, cards=cards):
            me = state.players[seat]
            me = replace(me, hand=tuple(c for c in me.hand if c not in cards))
            return replace(state, players=_with(state, seat, me), discard=(*state.discard, *cards))
        case TechnologyAdvanced(seat=seat, track=track, level=level):
            me = state.players[seat]
            me = replace(me, tracks={**me.tracks, track: level})
            return replace(state, players=_with(state, seat, me))
        case RowBonusEarned(seat=seat, level=level):
            me = state.players[seat]
            me = replace(me, row_bonuses=(*me.row_bonuses, level))
            return replace(state, players=_with(state, seat, me))
        case TurnPassed():
            return replace(state, passes=state.passes + 1)
        case GameWon(seat=seat, victory=victory):
            return replace(state, phase="over", pending=(), winner=seat, victory=victory)
        case _:
            raise TypeError(f"not a Zenith event: {event!r}")
