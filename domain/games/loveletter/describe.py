"""One sentence per event, for the reader ("You" for the reader's own seat)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.loveletter.cards import CARDS, CardId, deck, name_of, title_of, value_of
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
from domain.kernel import Seat

_WHY_OUT = {
    "guard": "the Guard named the card",
    "baron": "the Baron found the lower hand",
    "dowager_queen": "the Dowager Queen found the higher hand",
    "princess": "the Princess was discarded",
    "assassin": "the Guard met the Assassin",
    "left": "the player left the table",
}
_WHY_TOKEN = {
    "round": "for winning the round",
    "jester": "thanks to the Jester",
    "bishop": "for the Bishop's right guess",
    "constable": "thanks to the Constable",
}


def describe(event: Event, reader: Seat | None, names: Sequence[str]) -> str:
    def who(seat: Seat) -> str:
        if seat == reader:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    def whom(seat: Seat) -> str:
        return "you" if seat == reader else who(seat)

    def whose(seat: Seat) -> str:
        return "your" if seat == reader else f"{who(seat)}'s"

    def card(c: CardId | None) -> str:
        return "a card" if c is None else f"the {title_of(c)}"

    match event:
        case RoundStarted(round=number, first=first):
            return f"Round {number} begins; {who(first)} plays first."
        case CardSetAside():
            return "The top card was set aside face down."
        case CardsSetFaceUp(cards=cards):
            return f"Set aside face up: {', '.join(card(c) for c in cards)}."
        case CardDealt(seat=seat, card=c):
            return (
                f"{who(seat)} were dealt {card(c)}."
                if seat == reader
                else (f"{who(seat)} was dealt {card(c)}.")
            )
        case TurnBegan(seat=seat):
            return f"{who(seat)} begin a turn." if seat == reader else f"{who(seat)} begins a turn."
        case CardDrawn(seat=seat, card=c, from_set_aside=aside):
            where = " (the card set aside at the start)" if aside else ""
            return f"{who(seat)} drew {card(c)}{where}."
        case CardPlayed(seat=seat, card=c, targets=targets, guess=guess):
            return _played(who(seat), c, [whom(t) for t in targets], guess)
        case GuessMissed(target=target, guess=guess):
            return f"Wrong: {whose(target)} card is not of value {guess}."
        case GuessHit(target=target, guess=guess):
            return f"Right: {whose(target)} card is of value {guess}."
        case AssassinStruck(seat=seat, guard_player=guard):
            return f"{who(seat)} revealed the Assassin: the Guard of {whom(guard)} turns back."
        case HandSeen(viewer=viewer, seat=seat, card=c):
            if c is None:
                return f"{who(viewer)} looked at {whose(seat)} hand."
            return f"{who(viewer)} looked at {whose(seat)} hand: {card(c)}."
        case HandsCompared(seat=a, other=b, card=ca, other_card=cb, loser=loser):
            shown = "" if ca is None else f" ({whose(a)} {_t(ca)} against {whose(b)} {_t(cb)})"
            result = "a tie" if loser is None else f"{whom(loser)} lost"
            return f"{who(a)} and {whom(b)} compared hands in secret{shown}: {result}."
        case ProtectionGained(seat=seat):
            until = "your" if seat == reader else f"{who(seat)}'s"
            return f"The Handmaid protects {whom(seat)} until the start of {until} next turn."
        case HandDiscarded(seat=seat, card=c):
            return f"{who(seat)} discarded {card(c)} without its effect."
        case DiscardOffered(seat=seat):
            return f"{who(seat)} may keep the card or discard it and draw a new one."
        case HandKept(seat=seat):
            return f"{who(seat)} kept the card."
        case HandsSwapped(seat=a, other=b, card=ca, other_card=cb):
            shown = "" if ca is None else f": {who(a)} gave {card(ca)} for {card(cb)}"
            return f"{who(a)} and {whom(b)} traded hands{shown}."
        case PlayerMarked(seat=seat, by=by):
            return f"The Sycophant of {whom(by)} chose {whom(seat)} for the next card played."
        case JesterTokenGiven(seat=seat, target=target):
            return f"{who(seat)} gave the Jester token to {whom(target)}."
        case PlayerKnockedOut(seat=seat, cards=cards, reason=reason):
            shown = f", discarding {' and '.join(card(c) for c in cards)}" if cards else ""
            verb = "are" if seat == reader else "is"
            return f"{who(seat)} {verb} out of the round ({_WHY_OUT[reason]}){shown}."
        case TokenAwarded(seat=seat, reason=reason):
            return f"{who(seat)} gained a token of affection {_WHY_TOKEN[reason]}."
        case RoundEnded(winner=winner, showdown=showdown):
            hands = "; ".join(
                f"{who(r.seat)}: {card(r.card)} ({r.strength}, discards {r.discard_sum})"
                for r in showdown
            )
            if winner is None:
                return f"The round ends in a tie that nobody wins ({hands})."
            if not showdown:
                return f"The round ends: {whom(winner)} alone remained."
            return f"The round ends: {who(winner)} won it ({hands})."
        case GameWon(winners=winners):
            return f"{' and '.join(who(w) for w in winners)} won the game."
        case SeatLeft(seat=seat):
            return f"{who(seat)} left the table."
        case _:
            return "Something happened at the table."


def components() -> dict[str, str]:
    """What the table calls each card of the premium deck (the classic one is a part
    of it): its title and value, as printed on the card."""
    return {c: f"{title_of(c)} ({value_of(c)})" for c in deck(premium=True)}


def _t(card: CardId | None) -> str:
    return "card" if card is None else title_of(card)


def _played(player: str, card: CardId, targets: list[str], guess: int | None) -> str:
    info = CARDS[name_of(card)]
    text = f"{player} played the {info.title}"
    if info.chooses != "nobody" and not targets:
        return text + " with no effect: nobody could be chosen."
    if targets:
        text += " choosing " + " and ".join(targets)
    if guess is not None:
        text += f", naming {guess}"
    return text + "."
