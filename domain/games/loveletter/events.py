"""What happened at the table. A card id is None where the reader may not see it."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.loveletter.cards import CardId
from domain.kernel import Seat

TokenReason = Literal["round", "jester", "bishop", "constable"]
KnockOutReason = Literal["guard", "baron", "dowager_queen", "princess", "assassin", "left"]


class RoundStarted(msgspec.Struct, tag="loveletter.round_started", tag_field="type", frozen=True):
    """The deck was shuffled (`deck` is the order, top first; None for every reader)."""

    round: int
    first: Seat
    deck: tuple[CardId, ...] | None


class CardSetAside(msgspec.Struct, tag="loveletter.card_set_aside", tag_field="type", frozen=True):
    """The top card was set aside face down (nobody sees it)."""

    card: CardId | None


class CardsSetFaceUp(
    msgspec.Struct, tag="loveletter.cards_set_face_up", tag_field="type", frozen=True
):
    """Two players: three more cards were set aside face up, out of the round."""

    cards: tuple[CardId, ...]


class CardDealt(msgspec.Struct, tag="loveletter.card_dealt", tag_field="type", frozen=True):
    seat: Seat
    card: CardId | None


class TurnBegan(msgspec.Struct, tag="loveletter.turn_began", tag_field="type", frozen=True):
    """A player's turn began; the Handmaid's protection of that player ends."""

    seat: Seat


class CardDrawn(msgspec.Struct, tag="loveletter.card_drawn", tag_field="type", frozen=True):
    seat: Seat
    card: CardId | None
    from_set_aside: bool = False


class CardPlayed(msgspec.Struct, tag="loveletter.card_played", tag_field="type", frozen=True):
    """A card was discarded face up; `targets` empty for a choosing card means no effect."""

    seat: Seat
    card: CardId
    targets: tuple[Seat, ...] = ()
    guess: int | None = None


class GuessMissed(msgspec.Struct, tag="loveletter.guess_missed", tag_field="type", frozen=True):
    seat: Seat
    target: Seat
    guess: int


class GuessHit(msgspec.Struct, tag="loveletter.guess_hit", tag_field="type", frozen=True):
    seat: Seat
    target: Seat
    guess: int


class AssassinStruck(
    msgspec.Struct, tag="loveletter.assassin_struck", tag_field="type", frozen=True
):
    """The Guard's target revealed and discarded the Assassin; the Guard's player is out."""

    seat: Seat
    card: CardId
    guard_player: Seat


class HandSeen(msgspec.Struct, tag="loveletter.hand_seen", tag_field="type", frozen=True):
    """`viewer` looked at `seat`'s hand (the card only for those two)."""

    viewer: Seat
    seat: Seat
    card: CardId | None


class HandsCompared(msgspec.Struct, tag="loveletter.hands_compared", tag_field="type", frozen=True):
    """Baron or Dowager Queen: two hands compared in secret (cards only for those two)."""

    seat: Seat
    other: Seat
    card: CardId | None
    other_card: CardId | None
    loser: Seat | None


class ProtectionGained(
    msgspec.Struct, tag="loveletter.protection_gained", tag_field="type", frozen=True
):
    seat: Seat


class HandDiscarded(msgspec.Struct, tag="loveletter.hand_discarded", tag_field="type", frozen=True):
    """A card left a hand face up without its effect (Prince, or after a Bishop guess)."""

    seat: Seat
    card: CardId


class DiscardOffered(
    msgspec.Struct, tag="loveletter.discard_offered", tag_field="type", frozen=True
):
    """The Bishop guessed right: `seat` may now discard the card and draw a new one."""

    seat: Seat


class HandKept(msgspec.Struct, tag="loveletter.hand_kept", tag_field="type", frozen=True):
    seat: Seat


class HandsSwapped(msgspec.Struct, tag="loveletter.hands_swapped", tag_field="type", frozen=True):
    """King or Cardinal: `seat` and `other` traded hands (cards only for those two).

    `card` is what `seat` held before (now with `other`); `other_card` the reverse.
    """

    seat: Seat
    other: Seat
    card: CardId | None
    other_card: CardId | None


class PlayerMarked(msgspec.Struct, tag="loveletter.player_marked", tag_field="type", frozen=True):
    """The Sycophant chose `seat`: the next card played must choose that player if it can."""

    seat: Seat
    by: Seat


class JesterTokenGiven(
    msgspec.Struct, tag="loveletter.jester_token_given", tag_field="type", frozen=True
):
    seat: Seat
    target: Seat


class PlayerKnockedOut(
    msgspec.Struct, tag="loveletter.player_knocked_out", tag_field="type", frozen=True
):
    """Out of the round; the cards still in hand are discarded face up."""

    seat: Seat
    cards: tuple[CardId, ...]
    reason: KnockOutReason


class TokenAwarded(msgspec.Struct, tag="loveletter.token_awarded", tag_field="type", frozen=True):
    seat: Seat
    reason: TokenReason


class Reveal(msgspec.Struct, frozen=True):
    """One hand shown at the end of a round, with its strength and the discard sum."""

    seat: Seat
    card: CardId
    strength: int
    discard_sum: int


class RoundEnded(msgspec.Struct, tag="loveletter.round_ended", tag_field="type", frozen=True):
    """`showdown` is empty when one player was left standing (that hand stays hidden)."""

    winner: Seat | None
    starter: Seat
    showdown: tuple[Reveal, ...] = ()


class GameWon(msgspec.Struct, tag="loveletter.game_won", tag_field="type", frozen=True):
    winners: tuple[Seat, ...]


class SeatLeft(msgspec.Struct, tag="loveletter.seat_left", tag_field="type", frozen=True):
    seat: Seat


Event = (
    RoundStarted
    | CardSetAside
    | CardsSetFaceUp
    | CardDealt
    | TurnBegan
    | CardDrawn
    | CardPlayed
    | GuessMissed
    | GuessHit
    | AssassinStruck
    | HandSeen
    | HandsCompared
    | ProtectionGained
    | HandDiscarded
    | DiscardOffered
    | HandKept
    | HandsSwapped
    | PlayerMarked
    | JesterTokenGiven
    | PlayerKnockedOut
    | TokenAwarded
    | RoundEnded
    | GameWon
    | SeatLeft
)
