"""Quinze jours en France events as one sentence for a reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.quinzejoursenfrance.cards import ENCOUNTERS, LOCATIONS, Encounter, Location
from domain.games.quinzejoursenfrance.events import (
    BonusAction,
    EncounterKept,
    EncountersDrawn,
    Event,
    GameEnded,
    ItineraryChanged,
    PlayerConceded,
    RowFilled,
    StepsGained,
    Travelled,
    TurnBegan,
)
from domain.kernel import Seat


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case RowFilled(row=row, card=card):
            return f"{_place(card).capitalize()} was laid in the {row.title()} row."
        case ItineraryChanged(day=day):
            return f"Day {day}: the itinerary changes; all 8 Location cards are replaced."
        case TurnBegan(seat=seat, day=day):
            return f"Day {day}: {who(seat)} took the turn."
        case Travelled(seat=seat, card=card, steps_paid=paid):
            return f"{who(seat)} travelled to {_place(card)} for {paid} step(s)."
        case StepsGained(seat=seat, steps=steps, rested=rested):
            how = "rested and gained" if rested else "gained"
            return f"{who(seat)} {how} {steps} Step tokens."
        case BonusAction(seat=seat):
            return f"{who(seat)} earned another action."
        case EncountersDrawn(seat=seat, cards=cards):
            return f"{who(seat)} drew {len(cards)} Encounter card(s)."
        case EncounterKept(seat=seat, put_under=put_under):
            rest = " and put the other under the deck" if put_under else ""
            return f"{who(seat)} kept an Encounter{rest}."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} went home and left the game."
        case GameEnded(sheets=sheets):
            table = ", ".join(f"{who(s)} {sheet.total}" for s, sheet in enumerate(sheets))
            return f"Day 15 is over. Final smileys: {table}."
        case _:
            raise TypeError(f"not a Quinze jours en France event: {event!r}")


def _place(card: str) -> str:
    found = LOCATIONS.get(card)
    if found is None:
        return "a place"
    return f"a {found.region.title()} place ({', '.join(found.symbols)})"


def components() -> dict[str, str]:
    """What the table calls each card: a Location by its region, symbols, price, smileys
    and reward; an Encounter by the mission it sets and the smileys it earns."""
    places = {card: _location(found) for card, found in LOCATIONS.items()}
    missions = {card: _encounter(found) for card, found in ENCOUNTERS.items()}
    return {**places, **missions}


def _location(card: Location) -> str:
    extras = [f"cost {card.cost}"]
    if card.smileys:
        extras.append(f"{card.smileys} smiley" + ("" if card.smileys == 1 else "s"))
    kind, _, amount = card.reward.partition(":")
    if kind == "steps":
        extras.append(f"+{amount} steps")
    elif kind == "bonus":
        extras.append("bonus action")
    return f"{card.region.title()}: {' + '.join(card.symbols)} ({', '.join(extras)})"


def _encounter(card: Encounter) -> str:
    kind, _, rest = card.condition.partition(":")
    match kind, rest.split(":"):
        case "most", [symbol]:
            goal = f"most {symbol}"
        case "count", [symbol, n]:
            goal = f"at least {n} {symbol}"
        case "none", [symbol]:
            goal = f"no {symbol}"
        case "smiley_cards", [n]:
            goal = f"{n} smiley cards"
        case "region", [region, n]:
            goal = f"{n} {region.title()} cards"
        case "distinct", [n]:
            goal = f"{n} different symbols"
        case _:
            # A new kind of mission must be named here before the table can show it.
            raise ValueError(f"unknown mission condition {card.condition!r}")
    return f"mission: {goal} ({card.smileys} smileys)"
