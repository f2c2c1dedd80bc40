"""What each card does when played: one small function per card, named after it.

Each effect records events on a `Script` (the kernel's Recorder), which folds them as it
goes, so the next rule reads the table as it now is (after a knock-out, a trade, a drawn
card).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.games.loveletter.cards import CardName, name_of, value_of
from domain.games.loveletter.commands import PlayCard
from domain.games.loveletter.events import (
    AssassinStruck,
    CardDrawn,
    DiscardOffered,
    Event,
    GameWon,
    GuessHit,
    GuessMissed,
    HandDiscarded,
    HandsCompared,
    HandSeen,
    HandsSwapped,
    JesterTokenGiven,
    KnockOutReason,
    PlayerKnockedOut,
    PlayerMarked,
    ProtectionGained,
    TokenAwarded,
    TokenReason,
)
from domain.games.loveletter.state import State
from domain.kernel import Recorder, Seat

Script = Recorder[State, Event]
"""The events of one decision, folded onto the table as they are written."""


def over(s: Script) -> bool:
    """The game was won during this decision."""
    return s.state.phase == "over"


# --- consequences shared by several cards --------------------------------------------------


def knock_out(s: Script, seat: Seat, reason: KnockOutReason) -> None:
    """Out of the round, the hand discarded face up. Rule (premium, Constable): a player
    knocked out with the Constable already in the discards gains a token."""
    constable = any(name_of(c) == "constable" for c in s.state.discards[seat])
    s.record(PlayerKnockedOut(seat=seat, cards=tuple(s.state.hands[seat]), reason=reason))
    if constable and reason != "left":
        award(s, seat, "constable")
        settle(s)


def draw_replacement(s: Script, seat: Seat) -> None:
    """Draw from the deck; when it is empty, take the card set aside at the start."""
    if s.state.deck:
        s.record(CardDrawn(seat=seat, card=s.state.deck[0]))
    elif s.state.set_aside is not None:
        s.record(CardDrawn(seat=seat, card=s.state.set_aside, from_set_aside=True))


def award(s: Script, seat: Seat, reason: TokenReason) -> None:
    s.record(TokenAwarded(seat=seat, reason=reason))


def settle(s: Script) -> None:
    """The game is won as soon as a player holds enough tokens of affection."""
    st = s.state
    reached = tuple(
        p for p in range(st.seats) if not st.gone[p] and st.tokens[p] >= st.tokens_to_win
    )
    if reached and not over(s):
        s.record(GameWon(winners=reached))


def _held(s: Script, seat: Seat) -> str:
    return s.state.hands[seat][0]


# --- the cards --------------------------------------------------------------------------------


def guard(s: Script, seat: Seat, command: PlayCard) -> None:
    """Name a value other than 1; a target holding it is out. Rule (premium, Assassin):
    a Guard played on the Assassin knocks its own player out instead."""
    if not command.targets or command.guess is None:
        return
    target = command.targets[0]
    held = _held(s, target)
    if name_of(held) == "assassin":
        assassin_strikes(s, target, held, seat)
    elif value_of(held) == command.guess:
        s.record(GuessHit(seat=seat, target=target, guess=command.guess))
        knock_out(s, target, "guard")
    else:
        s.record(GuessMissed(seat=seat, target=target, guess=command.guess))


def assassin_strikes(s: Script, holder: Seat, card: str, guard_player: Seat) -> None:
    """The holder reveals and discards the Assassin, the Guard's player is out, and the
    holder draws a new card."""
    s.record(AssassinStruck(seat=holder, card=card, guard_player=guard_player))
    knock_out(s, guard_player, "assassin")
    if not over(s):
        draw_replacement(s, holder)


def priest(s: Script, seat: Seat, command: PlayCard) -> None:
    """Look at another player's hand, in private."""
    for target in command.targets:
        s.record(HandSeen(viewer=seat, seat=target, card=_held(s, target)))


baroness = priest  # Rule (premium, Baroness): the same look, at one or two players.


def baron(s: Script, seat: Seat, command: PlayCard) -> None:
    """Compare hands in secret; the lower value is knocked out; a tie, nobody."""
    _compare(s, seat, command, lower_loses=True)


def dowager_queen(s: Script, seat: Seat, command: PlayCard) -> None:
    """Compare hands in secret; the higher value is knocked out; a tie, nobody."""
    _compare(s, seat, command, lower_loses=False)


def _compare(s: Script, seat: Seat, command: PlayCard, *, lower_loses: bool) -> None:
    if not command.targets:
        return
    other = command.targets[0]
    mine, theirs = _held(s, seat), _held(s, other)
    loser: Seat | None = None
    if value_of(mine) != value_of(theirs):
        mine_lower = value_of(mine) < value_of(theirs)
        loser = seat if mine_lower == lower_loses else other
    s.record(HandsCompared(seat=seat, other=other, card=mine, other_card=theirs, loser=loser))
    if loser is not None:
        knock_out(s, loser, "baron" if lower_loses else "dowager_queen")


def handmaid(s: Script, seat: Seat, command: PlayCard) -> None:
    """Other players' cards cannot choose you until the start of your next turn."""
    s.record(ProtectionGained(seat=seat))


def prince(s: Script, seat: Seat, command: PlayCard) -> None:
    """The chosen player discards the hand without effect (the Princess still knocks
    out) and draws a new card (the set-aside card when the deck is empty)."""
    target = command.targets[0]
    discard_and_draw(s, target)


def discard_and_draw(s: Script, seat: Seat) -> None:
    card = _held(s, seat)
    s.record(HandDiscarded(seat=seat, card=card))
    if name_of(card) == "princess":
        knock_out(s, seat, "princess")
    else:
        draw_replacement(s, seat)


def king(s: Script, seat: Seat, command: PlayCard) -> None:
    """Trade hands with another player."""
    if command.targets:
        _swap(s, seat, command.targets[0])


def _swap(s: Script, a: Seat, b: Seat) -> None:
    s.record(HandsSwapped(seat=a, other=b, card=_held(s, a), other_card=_held(s, b)))


def cardinal(s: Script, seat: Seat, command: PlayCard) -> None:
    """Two players trade hands; then you look at one of those two hands."""
    if len(command.targets) != 2 or command.look_at is None:
        return
    _swap(s, command.targets[0], command.targets[1])
    look = command.look_at
    s.record(HandSeen(viewer=seat, seat=look, card=_held(s, look)))


def bishop(s: Script, seat: Seat, command: PlayCard) -> None:
    """Name a value other than 1; right, you gain a token (the game may end on the spot)
    and the target may discard the card and draw a new one."""
    if not command.targets or command.guess is None:
        return
    target = command.targets[0]
    if value_of(_held(s, target)) != command.guess:
        s.record(GuessMissed(seat=seat, target=target, guess=command.guess))
        return
    s.record(GuessHit(seat=seat, target=target, guess=command.guess))
    award(s, seat, "bishop")
    settle(s)
    if not over(s):
        s.record(DiscardOffered(seat=target))


def sycophant(s: Script, seat: Seat, command: PlayCard) -> None:
    """Choose a player: the next card played must choose them if it can."""
    s.record(PlayerMarked(seat=command.targets[0], by=seat))


def jester(s: Script, seat: Seat, command: PlayCard) -> None:
    """Give another player the Jester token: if they win the round, you gain a token."""
    if command.targets:
        s.record(JesterTokenGiven(seat=seat, target=command.targets[0]))


def no_effect(s: Script, seat: Seat, command: PlayCard) -> None:
    """Countess, Constable, Count, Assassin: nothing happens when played."""


EFFECTS: dict[CardName, Callable[[Script, Seat, PlayCard], None]] = {
    "guard": guard,
    "priest": priest,
    "baron": baron,
    "handmaid": handmaid,
    "prince": prince,
    "king": king,
    "countess": no_effect,
    "princess": no_effect,  # never played: see choosing.playable
    "bishop": bishop,
    "dowager_queen": dowager_queen,
    "constable": no_effect,
    "count": no_effect,
    "sycophant": sycophant,
    "baroness": baroness,
    "cardinal": cardinal,
    "jester": jester,
    "assassin": no_effect,
}
