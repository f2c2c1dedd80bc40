"""First Giants events as one sentence for a reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.firstgiants.cards import DINOSAURS
from domain.games.firstgiants.events import (
    ActionDoubled,
    AmberGained,
    BonesDrawn,
    CardAcquired,
    CardExhibited,
    EndTriggered,
    Event,
    Excavated,
    GameEnded,
    InitiativeSecured,
    NewsEarned,
    NewsSpent,
    PlayerConceded,
    SetCompleted,
    SiteFilled,
    TurnBegan,
)
from domain.kernel import Seat


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case SiteFilled(site=site, card=card):
            return f"The {_card(card)} was unearthed at the {site} dig site."
        case TurnBegan(seat=seat, round=number):
            return f"Round {number}: {who(seat)} took the turn."
        case Excavated(seat=seat, site=site, gained=gained):
            got = ", ".join(f"{n} {kind}" for kind, n in sorted(gained.items())) or "nothing"
            return f"{who(seat)} dug at the {site} and found {got}."
        case CardAcquired(seat=seat, card=card, site=site, amber_paid=paid):
            where = f"from the {site}" if site else "from the deck, for news"
            return f"{who(seat)} brought the {_card(card)} {where} to the workshop ({paid} amber)."
        case AmberGained(seat=seat, amount=amount, card=card):
            return f"The {_card(card)} gave {who(seat)} {amount} amber."
        case BonesDrawn(seat=seat, bones=bones):
            got = ", ".join(bones) or "nothing"
            return f"{who(seat)} drew from the bone bag: {got}."
        case CardExhibited(seat=seat, card=card, prestige=prestige):
            return f"{who(seat)} exhibited the {_card(card)} for {prestige} prestige."
        case NewsEarned(seat=seat, reason=reason):
            kind, _, what = reason.partition(":")
            why = f"three {what}s" if kind == "family" else f"being first to {what} exhibits"
            return f"{who(seat)} made the news for {why}."
        case NewsSpent(seat=seat):
            return f"{who(seat)} spent a news token to draw a card."
        case SetCompleted(seat=seat):
            return f"{who(seat)} completed a fossil set and took a set token."
        case InitiativeSecured(seat=seat, amber_paid=paid):
            return f"{who(seat)} paid {paid} amber to lead the next round."
        case ActionDoubled(seat=seat, amber_paid=paid):
            return f"{who(seat)} paid {paid} amber for a second main action."
        case EndTriggered(seat=seat, reason=reason):
            why = "took the last set token" if reason == "last_set_token" else "emptied the deck"
            return f"{who(seat)} {why}: this round is the last."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} closed the museum and left the game."
        case GameEnded(sheets=sheets):
            table = ", ".join(f"{who(s)} {sheet.total}" for s, sheet in enumerate(sheets))
            return f"The game is over. Final prestige: {table}."
        case _:
            raise TypeError(f"not a First Giants event: {event!r}")


def _card(card: str) -> str:
    return card.removeprefix("fg-")


def components() -> dict[str, str]:
    """What the table calls each dinosaur card: its name, family and prestige, as printed."""
    return {
        card: f"{_card(card).capitalize()} ({dino.family}, prestige {dino.prestige})"
        for card, dino in DINOSAURS.items()
    }
