"""Zenith events as one sentence for a reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.zenith.agents import AGENTS
from domain.games.zenith.bonus import BONUSES
from domain.games.zenith.effects import Effect
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
from domain.kernel import Seat


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case TableSetUp(first=first, sides=sides):
            return f"{who(first)} start; the technology boards show sides {', '.join(sides)}."
        case CardsDrawn(seat=seat, count=count, cards=cards):
            shown = f": {_cards(cards)}" if cards else ""
            return f"{who(seat)} drew {count} card{'s' if count != 1 else ''}{shown}."
        case DiscardReshuffled(count=count):
            return f"The {count} discarded cards were shuffled into a new deck."
        case TurnBegan(seat=seat):
            return (
                f"{who(seat)} take the turn." if seat == reader else f"{who(seat)} takes the turn."
            )
        case CardPlayed(seat=seat, card=card, action=action, credits=credits, zenithium=zen):
            paid = f" for {credits} credits" if credits else f" for {zen} Zenithium" if zen else ""
            return f"{who(seat)} played {_card(card)} for {action}{paid}."
        case EffectsQueued(seat=seat, effects=effects):
            return f"Waiting for {who(seat)}: {'; '.join(_effect(e) for e in effects)}."
        case EffectBegan(seat=seat, effect=effect):
            return f"{who(seat)}: {_effect(effect)}."
        case InfluenceGained(seat=seat, planet=planet, steps=steps):
            return f"{who(seat)} gained {steps} influence on {planet.title()}."
        case TokenCaptured(seat=seat, planet=planet):
            return f"{who(seat)} won a {planet.title()} influence token."
        case DiscReset(planet=planet):
            return f"The {planet.title()} disc went back to the centre."
        case ResourcesChanged(seat=seat, credits=credits, zenithium=zen):
            parts = [
                f"{credits:+d} credits" if credits else "",
                f"{zen:+d} Zenithium" if zen else "",
            ]
            return f"{who(seat)}: {' and '.join(p for p in parts if p) or 'nothing'}."
        case BadgeTaken(seat=seat, side=side):
            return f"{who(seat)} hold the Leader Badge, {side} side up."
        case BonusTaken(seat=seat, token=token):
            return f"{who(seat)} took a bonus token: {BONUSES[token][0]}."
        case CardsMobilized(seat=seat, cards=cards):
            return f"{who(seat)} mobilized {_cards(cards)}."
        case CardTransferred(seat=seat, card=card):
            return f"{who(seat)} took {_card(card)} into their zone."
        case CardExiled(owner=owner, card=card):
            return f"{_card(card)} was exiled from the zone of {who(owner)}."
        case CardsDiscarded(seat=seat, cards=cards):
            return f"{who(seat)} discarded {_cards(cards)}."
        case TechnologyAdvanced(seat=seat, track=track, level=level):
            return f"{who(seat)} reached level {level} of the {track.title()} track."
        case RowBonusEarned(seat=seat, level=level):
            return f"{who(seat)} completed technology row {level}."
        case TurnPassed(seat=seat):
            return f"{who(seat)} had no card to play and passed."
        case GameWon(seat=None):
            return "Neither player can play any more; the game ends."
        case GameWon(seat=seat, victory=victory) if seat is not None:
            return f"{who(seat)} won a {victory.title()} Victory."
        case _:
            raise TypeError(f"not a Zenith event: {event!r}")


def components() -> dict[str, str]:
    """What the table calls each Agent card and bonus token: the card by its name,
    planet and faction, as the card itself reads; the token by its reward."""
    tokens = {token: f"bonus: {name}" for token, (name, _) in BONUSES.items()}
    return {**{card: _card(card) for card in AGENTS}, **tokens}


def _card(card: str) -> str:
    agent = AGENTS[card]
    return f"{agent.name} ({agent.planet.title()}, {agent.faction.title()})"


def _cards(cards: tuple[str, ...]) -> str:
    return ", ".join(_card(c) for c in cards) or "no card"


def _effect(effect: Effect) -> str:
    """The effect in a few words: its kind and its numbers."""
    kind = type(effect).__name__
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in kind).strip()
    numbers = [
        f"{name} {value}"
        for name in ("amount", "count", "planet", "credits", "zenithium")
        if (value := getattr(effect, name, None))
    ]
    return f"{words} ({', '.join(numbers)})" if numbers else words
