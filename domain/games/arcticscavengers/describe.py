"""One sentence per event, for the reader: "You" for their own seat, names for the others.

Called on already-redacted events, so a card the reader may not see is simply None.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.arcticscavengers.cards import (
    CARDS,
    CONTESTED,
    JUNKYARD,
    MERCENARIES,
    STARTING_DECK,
    card_id,
    title,
)
from domain.games.arcticscavengers.events import (
    CardPlayed,
    CardsDrawn,
    CardsTrashed,
    ContestedResourcePeeked,
    DeckShuffled,
    DrawPerformed,
    DugCardKept,
    Event,
    FoodHunted,
    ForcesRevealed,
    GameEnded,
    GatheringEnded,
    JunkyardDug,
    MercenaryHired,
    RoundStarted,
    SkirmishActionsEnded,
    SkirmishDeadlocked,
    SkirmishWon,
    TableSetUp,
    ToolDisarmed,
    TribeMemberSniped,
    TribeWithdrew,
)
from domain.kernel import Seat

_MOST_TRIBES = 5
"""The largest table (the game's max_players): how many starting decks the box holds."""

PURPOSE = {
    "dig": "to dig",
    "draw": "to draw",
    "hunt": "to hunt",
    "hire": "towards a hire",
    "trash": "onto the trash",
}


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: int) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    def cards(ids: list[str] | None, count: int) -> str:
        if ids is None:
            return f"{count} card{'s' if count != 1 else ''}"
        return ", ".join(title(c) for c in ids) or "nothing"

    match event:
        case TableSetUp(initiator=initiator):
            return (
                f"The tribes were dealt their starting decks; "
                f"{who(initiator)} took the initiator card."
            )
        case RoundStarted(round=number, initiator=initiator):
            return f"Round {number} began with {who(initiator)} as initiator."
        case DeckShuffled(seat=seat, size=size):
            return f"{who(seat)} shuffled a discard pile of {size} cards into a new deck."
        case CardsDrawn(seat=seat, count=count, cards=ids):
            return f"{who(seat)} drew {cards(ids, count)}."
        case ContestedResourcePeeked(seat=seat, card=card):
            seen = f": {title(card)}" if card else ""
            return f"{who(seat)} peeked at the top contested resource{seen}."
        case CardPlayed(seat=seat, card=card, action=action):
            return f"{who(seat)} played the {title(card)} {PURPOSE[action]}."
        case JunkyardDug(seat=seat, strength=strength, count=count, cards=ids):
            return f"{who(seat)} dug {strength} deep and looked at {cards(ids, count)}."
        case DugCardKept(seat=seat, kept=kept, card=card):
            if not kept:
                return f"{who(seat)} kept nothing from the junkyard."
            found = f"the {title(card)}" if card else "one card"
            return f"{who(seat)} kept {found} from the junkyard."
        case DrawPerformed(seat=seat, strength=strength):
            return f"{who(seat)} drew with a strength of {strength}."
        case FoodHunted(seat=seat, strength=strength):
            return f"{who(seat)} hunted {strength} food."
        case CardsTrashed(seat=seat, count=count):
            return f"{who(seat)} trashed {count} card{'s' if count != 1 else ''} into the junkyard."
        case MercenaryHired(seat=seat, kind=kind, food=food, meds=meds):
            return f"{who(seat)} hired {CARDS[kind].title} for {food} food and {meds} meds."
        case GatheringEnded(seat=seat, force_size=size):
            if size:
                held = f"{size} card{'s' if size != 1 else ''}"
                return f"{who(seat)} finished gathering and kept {held} for the skirmish."
            return f"{who(seat)} finished gathering."
        case ForcesRevealed(forces=forces):
            shown = "; ".join(f"{who(s)}: {cards(f, len(f))}" for s, f in enumerate(forces))
            return f"The skirmish forces were revealed ({shown})."
        case TribeMemberSniped(seat=seat, sniper=sniper, target_seat=target_seat, target=target):
            return (
                f"{who(seat)} had the {title(sniper)} snipe {who(target_seat)}'s {title(target)}."
            )
        case ToolDisarmed(seat=seat, saboteur=saboteur, target_seat=target_seat, tool=tool):
            return (
                f"{who(seat)} had the {title(saboteur)} disarm {who(target_seat)}'s {title(tool)}."
            )
        case SkirmishActionsEnded(seat=seat):
            return f"{who(seat)} declared no more skirmish actions."
        case SkirmishWon(seat=seat, fights=fights, card=card):
            prize = f" the {title(card)}" if card else " the top contested resource"
            return f"{who(seat)} won the skirmish with {fights[seat]} fight and took{prize}."
        case SkirmishDeadlocked():
            return "The skirmish was a deadlock; the contested resource went into the junkyard."
        case GameEnded(tribes=sizes):
            listing = ", ".join(f"{who(s)} {n}" for s, n in enumerate(sizes))
            return f"The contested resources ran out. Tribe sizes: {listing}."
        case TribeWithdrew(seat=seat):
            return f"{who(seat)} left the arctic; the tribe is out of the game."
    raise TypeError(f"not an Arctic Scavengers event: {event!r}")


def components() -> dict[str, str]:
    """What the table calls each card: its title, and a Tribe Family its people, since
    the three families share a title and differ only in that number."""
    stocks = {**MERCENARIES, **JUNKYARD, **CONTESTED}
    # Refugees have no stock: the starting decks are all of them, one set per tribe.
    counts = {
        kind: max(stocks.get(kind, 0), STARTING_DECK.get(kind, 0) * _MOST_TRIBES) for kind in CARDS
    }
    return {
        card_id(kind, n): _name(kind) for kind, count in counts.items() for n in range(1, count + 1)
    }


def _name(kind: str) -> str:
    card = CARDS[kind]
    if card.title == "Tribe Family":
        return f"Tribe Family ({card.people} people)"
    return card.title
