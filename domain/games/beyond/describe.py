"""Beyond events as one sentence for a reader (redacted forms included)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.beyond.cards import CARDS, COLOUR, NIAN_SHOU, SPIRIT_NAMES, CardId
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
from domain.kernel import Seat


def card(card_id: CardId) -> str:
    if card_id not in CARDS:
        return "a Nian Shou card"
    spirit, symbol = CARDS[card_id]
    return f"a {COLOUR[spirit]} {SPIRIT_NAMES[spirit]} ({symbol.capitalize()})"


def face(card_id: CardId) -> str:
    """A spirit card by its spirit, colour and symbol (spirit first, so that the Yellow
    Unicorn does not read "yellow Yellow"); a Nian Shou card by its name."""
    if card_id not in CARDS:
        return "Nian Shou"
    spirit, symbol = CARDS[card_id]
    return f"{SPIRIT_NAMES[spirit]} ({COLOUR[spirit]}, {symbol.capitalize()})"


def components() -> dict[str, str]:
    """What the table calls each card: the 80 spirit cards as their faces read, and the
    six Nian Shou cards, which are alike."""
    return {c: face(c) for c in (*CARDS, *NIAN_SHOU)}


def cards(ids: Sequence[CardId]) -> str:
    return ", ".join(card(c) for c in ids) if ids else "nothing"


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    match event:
        case PileShuffled():
            return "The 80 spirit cards were shuffled into the draw pile."
        case HandDealt(seat=seat, cards=dealt):
            if dealt is None:
                return f"{who(seat)} was dealt 4 cards."
            return f"{who(seat)} was dealt {cards(dealt)}."
        case HandToPlace(seat=seat):
            return f"{who(seat)} places the starting hand."
        case TurnBegan(seat=seat):
            return f"{who(seat)} began a turn."
        case RevealSkipped(seat=seat):
            return f"No card was left to reveal: {who(seat)} went straight to phase 3."
        case PileRebuilt():
            return "The discard pile was shuffled into the second draw pile."
        case CardRevealed(seat=seat, card=c):
            return f"{who(seat)} revealed {card(c)}."
        case NianShouGained(seat=seat):
            return f"{who(seat)} gained a Nian Shou card."
        case CardsTaken(seat=seat, cards=taken, lotus_paid=paid, discarded=rest):
            paying = f", paying {paid} Lotus" if paid else ""
            return f"{who(seat)} took {cards(taken)}{paying}; discarded {cards(rest)}."
        case CardsPlaced(seat=seat, spirit_side=spirits, capture_side=captures):
            return (
                f"{who(seat)} placed {cards(spirits)} spirit side up and "
                f"{cards(captures)} on the Stock."
            )
        case SpiritEnchanted(seat=seat, spirit=spirit):
            return f"{who(seat)} enchanted the {SPIRIT_NAMES[spirit]}."
        case CardCaptured(seat=seat, victim=victim, card=c, using=using):
            return f"{who(seat)} captured {card(c)} from {who(victim)} with {cards(using)}."
        case Compensated(seat=seat, lotus=lotus):
            return f"{who(seat)} took {lotus} Lotus token(s) from the supply in compensation."
        case SpiritProtected(seat=seat, card=c):
            return f"{who(seat)} protected {card(c)} with a token."
        case SpiritSummoned(seat=seat, spirit=spirit):
            return f"{who(seat)} summoned the {SPIRIT_NAMES[spirit]}."
        case CardsTurnedUp(seat=seat, cards=up):
            return f"{who(seat)} turned up {cards(up)}."
        case TurnedUpCardChosen(seat=seat, card=c):
            return f"{who(seat)} kept {card(c)}; the rest were discarded."
        case CaptureCardTaken(seat=seat, card=c):
            return f"{who(seat)} took {card(c)} from the discard pile onto the Stock."
        case LotusReclaimed(seat=seat, pattern=pattern):
            return f"{who(seat)} reclaimed the Lotus from the {SPIRIT_NAMES[pattern]}."
        case EndTriggered(reason=reason):
            why = "three spirits are enchanted" if reason == "three_spirits" else "no card is left"
            return f"The end is near ({why}): the round is played out."
        case PlayerConceded(seat=seat):
            return f"{who(seat)} left the game."
        case GameEnded(sheets=sheets, nian_shou_winner=winner):
            if winner is not None:
                return f"{who(winner)} holds all six Nian Shou cards and wins at once."
            table = ", ".join(f"{who(s)} {sheet.total}" for s, sheet in enumerate(sheets))
            return f"The game is over. Energy points: {table}."
        case _:
            raise TypeError(f"not a Beyond event: {event!r}")
