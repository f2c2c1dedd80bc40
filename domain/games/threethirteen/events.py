"""What happened at the 3-13 table, as past-tense facts."""

from __future__ import annotations

import msgspec

from domain.kernel import Seat

from .cards import CardId


class RoundDealt(msgspec.Struct, tag="threethirteen.round_dealt", tag_field="type", frozen=True):
    """A round was dealt. Redacted: only the reader's own hand, and no draw pile order."""

    round: int
    starter: Seat
    hands: tuple[tuple[CardId, ...] | None, ...]
    discard: CardId
    stock: tuple[CardId, ...] | None
    stock_size: int


class CardDrawn(msgspec.Struct, tag="threethirteen.card_drawn", tag_field="type", frozen=True):
    """A player drew from the draw pile; the card is None for everyone else."""

    seat: Seat
    card: CardId | None


class DiscardTaken(
    msgspec.Struct, tag="threethirteen.discard_taken", tag_field="type", frozen=True
):
    """A player took the (public) top card of the discard pile."""

    seat: Seat
    card: CardId


class StockReshuffled(
    msgspec.Struct, tag="threethirteen.stock_reshuffled", tag_field="type", frozen=True
):
    """The empty draw pile was rebuilt from the discard pile (all but its top card), shuffled."""

    cards: tuple[CardId, ...] | None
    size: int


class CardDiscarded(
    msgspec.Struct, tag="threethirteen.card_discarded", tag_field="type", frozen=True
):
    seat: Seat
    card: CardId


class WentOut(msgspec.Struct, tag="threethirteen.went_out", tag_field="type", frozen=True):
    """A player laid down a fully melded hand and discarded the last card."""

    seat: Seat
    discard: CardId
    melds: tuple[tuple[CardId, ...], ...]


class ScoredHand(msgspec.Struct, frozen=True):
    """One player's hand at the end of a round, arranged to leave the fewest points."""

    seat: Seat
    melds: tuple[tuple[CardId, ...], ...]
    deadwood: tuple[CardId, ...]
    points: int


class RoundScored(msgspec.Struct, tag="threethirteen.round_scored", tag_field="type", frozen=True):
    """The round ended: every hand still in play was laid open and its unmelded cards counted."""

    round: int
    went_out: Seat | None
    hands: tuple[ScoredHand, ...]
    totals: tuple[int, ...]


class PlayerConceded(
    msgspec.Struct, tag="threethirteen.player_conceded", tag_field="type", frozen=True
):
    """A player left the match; their turns are skipped and they take no more cards."""

    seat: Seat


Event = (
    RoundDealt
    | CardDrawn
    | DiscardTaken
    | StockReshuffled
    | CardDiscarded
    | WentOut
    | RoundScored
    | PlayerConceded
)
