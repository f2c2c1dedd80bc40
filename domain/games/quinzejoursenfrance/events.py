"""What happened on the road. Encounters are private: the others see `None` where a
mission is hidden (see view.redact); everything else is public."""

from __future__ import annotations

import msgspec

from domain.games.quinzejoursenfrance.cards import CardId
from domain.games.quinzejoursenfrance.state import ScoreSheet
from domain.kernel import Seat


class RowFilled(
    msgspec.Struct, tag="quinzejoursenfrance.row_filled", tag_field="type", frozen=True
):
    row: str
    card: CardId


class ItineraryChanged(
    msgspec.Struct, tag="quinzejoursenfrance.itinerary_changed", tag_field="type", frozen=True
):
    """The 8 face-up Location cards are discarded, to be dealt anew."""

    day: int
    discarded: tuple[CardId, ...]


class TurnBegan(
    msgspec.Struct, tag="quinzejoursenfrance.turn_began", tag_field="type", frozen=True
):
    seat: Seat
    day: int
    order: tuple[Seat, ...]


class Travelled(msgspec.Struct, tag="quinzejoursenfrance.travelled", tag_field="type", frozen=True):
    seat: Seat
    card: CardId
    row: str
    steps_paid: int


class StepsGained(
    msgspec.Struct, tag="quinzejoursenfrance.steps_gained", tag_field="type", frozen=True
):
    """From resting (`rested`) or a Location card's reward."""

    seat: Seat
    steps: int
    rested: bool


class BonusAction(
    msgspec.Struct, tag="quinzejoursenfrance.bonus_action", tag_field="type", frozen=True
):
    seat: Seat
    card: CardId


class EncountersDrawn(
    msgspec.Struct, tag="quinzejoursenfrance.encounters_drawn", tag_field="type", frozen=True
):
    seat: Seat
    cards: tuple[CardId | None, ...]


class EncounterKept(
    msgspec.Struct, tag="quinzejoursenfrance.encounter_kept", tag_field="type", frozen=True
):
    seat: Seat
    card: CardId | None
    under: CardId | None
    """The other card, now under the deck (None when only one was drawn, or hidden)."""
    put_under: bool


class PlayerConceded(
    msgspec.Struct, tag="quinzejoursenfrance.player_conceded", tag_field="type", frozen=True
):
    seat: Seat


class GameEnded(
    msgspec.Struct, tag="quinzejoursenfrance.game_ended", tag_field="type", frozen=True
):
    """After day 15; every mission is shown."""

    sheets: tuple[ScoreSheet, ...]


Event = (
    RowFilled
    | ItineraryChanged
    | TurnBegan
    | Travelled
    | StepsGained
    | BonusAction
    | EncountersDrawn
    | EncounterKept
    | PlayerConceded
    | GameEnded
)
