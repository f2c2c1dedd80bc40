"""What happened at a Beyond table, one Struct per event.

The shuffled pile and the starting hands are secret: `view.redact` blanks them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.beyond.cards import CardId, Spirit
from domain.kernel import Seat

EndReason = Literal["three_spirits", "pile_exhausted"]


class ScoreSheet(msgspec.Struct, frozen=True):
    """A player's energy points by source, and the face-up spirit cards for the tie-break."""

    enchanted: int
    spare_spirits: int
    nian_shou: int
    capture_cards: int
    lotus: int
    total: int
    face_up_spirits: int


class PileShuffled(msgspec.Struct, tag="beyond.pile_shuffled", tag_field="type", frozen=True):
    """The 80 spirit cards shuffled, top card last (None: the order is secret)."""

    cards: tuple[CardId, ...] | None


class HandDealt(msgspec.Struct, tag="beyond.hand_dealt", tag_field="type", frozen=True):
    """Four cards from the top of the pile (None for the others)."""

    seat: Seat
    cards: tuple[CardId, ...] | None


class HandToPlace(msgspec.Struct, tag="beyond.hand_to_place", tag_field="type", frozen=True):
    """The seat places its starting hand as in phase 2."""

    seat: Seat


class TurnBegan(msgspec.Struct, tag="beyond.turn_began", tag_field="type", frozen=True):
    seat: Seat


class RevealSkipped(msgspec.Struct, tag="beyond.reveal_skipped", tag_field="type", frozen=True):
    """No card is left to reveal: the turn goes straight to phase 3."""

    seat: Seat


class PileRebuilt(msgspec.Struct, tag="beyond.pile_rebuilt", tag_field="type", frozen=True):
    """The first pile ran out: the discard pile, shuffled, is the second (None: secret)."""

    cards: tuple[CardId, ...] | None


class CardRevealed(msgspec.Struct, tag="beyond.card_revealed", tag_field="type", frozen=True):
    seat: Seat
    card: CardId


class NianShouGained(msgspec.Struct, tag="beyond.nian_shou_gained", tag_field="type", frozen=True):
    seat: Seat
    card: CardId


class CardsTaken(msgspec.Struct, tag="beyond.cards_taken", tag_field="type", frozen=True):
    """Phase 1 ends: the cards taken, the Lotus paid for extras, the rest discarded."""

    seat: Seat
    cards: tuple[CardId, ...]
    lotus_paid: int
    discarded: tuple[CardId, ...]


class CardsPlaced(msgspec.Struct, tag="beyond.cards_placed", tag_field="type", frozen=True):
    seat: Seat
    spirit_side: tuple[CardId, ...]
    capture_side: tuple[CardId, ...]


class SpiritEnchanted(msgspec.Struct, tag="beyond.spirit_enchanted", tag_field="type", frozen=True):
    """`tokens_to_supply`: protection tokens on those cards go back to the supply."""

    seat: Seat
    spirit: Spirit
    cards: tuple[CardId, ...]
    tokens_to_supply: int


class CardCaptured(msgspec.Struct, tag="beyond.card_captured", tag_field="type", frozen=True):
    """`token_back`: a protection token on the card goes back to the victim."""

    seat: Seat
    victim: Seat
    card: CardId
    using: tuple[CardId, ...]
    token_back: bool


class Compensated(msgspec.Struct, tag="beyond.compensated", tag_field="type", frozen=True):
    """The victim of a capture takes Lotus tokens from the supply, one per card lost."""

    seat: Seat
    lotus: int


class SpiritProtected(msgspec.Struct, tag="beyond.spirit_protected", tag_field="type", frozen=True):
    seat: Seat
    card: CardId


class SpiritSummoned(msgspec.Struct, tag="beyond.spirit_summoned", tag_field="type", frozen=True):
    """A Lotus token goes on the centre of an enchanted spirit."""

    seat: Seat
    spirit: Spirit


class CardsTurnedUp(msgspec.Struct, tag="beyond.cards_turned_up", tag_field="type", frozen=True):
    """The top cards of the pile, turned face up for a summoning."""

    seat: Seat
    cards: tuple[CardId, ...]


class TurnedUpCardChosen(
    msgspec.Struct, tag="beyond.turned_up_card_chosen", tag_field="type", frozen=True
):
    seat: Seat
    card: CardId
    discarded: tuple[CardId, ...]


class CaptureCardTaken(
    msgspec.Struct, tag="beyond.capture_card_taken", tag_field="type", frozen=True
):
    """From the discard pile onto the Stock (Vermilion Bird)."""

    seat: Seat
    card: CardId


class LotusReclaimed(msgspec.Struct, tag="beyond.lotus_reclaimed", tag_field="type", frozen=True):
    seat: Seat
    pattern: Spirit


class EndTriggered(msgspec.Struct, tag="beyond.end_triggered", tag_field="type", frozen=True):
    """The round is played out so that everybody has had the same number of turns."""

    reason: EndReason


class PlayerConceded(msgspec.Struct, tag="beyond.player_conceded", tag_field="type", frozen=True):
    seat: Seat


class GameEnded(msgspec.Struct, tag="beyond.game_ended", tag_field="type", frozen=True):
    """`nian_shou_winner`: the seat holding all six Nian Shou cards, if any."""

    sheets: tuple[ScoreSheet, ...]
    nian_shou_winner: Seat | None


Event = (
    PileShuffled
    | HandDealt
    | HandToPlace
    | TurnBegan
    | RevealSkipped
    | PileRebuilt
    | CardRevealed
    | NianShouGained
    | CardsTaken
    | CardsPlaced
    | SpiritEnchanted
    | CardCaptured
    | Compensated
    | SpiritProtected
    | SpiritSummoned
    | CardsTurnedUp
    | TurnedUpCardChosen
    | CaptureCardTaken
    | LotusReclaimed
    | EndTriggered
    | PlayerConceded
    | GameEnded
)
