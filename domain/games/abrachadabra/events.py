"""What happened at an Abrachadabra table, one Struct per event.

Hidden part: the cards a vision potion shows (`VisionSeen.cards`) are None for every
seat but the drinker's.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.abrachadabra.cards import CardId, PileName, Time
from domain.kernel import Seat

LossReason = Literal["rabbits", "cats"]


class ExamBegan(msgspec.Struct, tag="abrachadabra.exam_began", tag_field="type", frozen=True):
    """Every card went back to its own pile, each pile was shuffled, the diplomas were laid."""

    exam: int
    time: Time
    first: Seat
    diplomas: tuple[int, ...]


class TurnBegan(msgspec.Struct, tag="abrachadabra.turn_began", tag_field="type", frozen=True):
    seat: Seat


class CardDrawn(msgspec.Struct, tag="abrachadabra.card_drawn", tag_field="type", frozen=True):
    """Drawn face up: every seat sees it."""

    seat: Seat
    pile: PileName
    card: CardId


class VisionSeen(msgspec.Struct, tag="abrachadabra.vision_seen", tag_field="type", frozen=True):
    """The potion is spent; its drinker alone sees the pile's top cards."""

    seat: Seat
    potion: CardId
    pile: PileName
    count: int
    cards: tuple[CardId, ...] | None


class CardKept(msgspec.Struct, tag="abrachadabra.card_kept", tag_field="type", frozen=True):
    """One card of the vision is laid face up; the other went back on the pile unseen."""

    seat: Seat
    pile: PileName
    card: CardId


class FeatherTaken(msgspec.Struct, tag="abrachadabra.feather_taken", tag_field="type", frozen=True):
    """A grimoire brought the feather: from the supply (`stolen_from` None) or a player."""

    seat: Seat
    stolen_from: Seat | None


class ExamLost(msgspec.Struct, tag="abrachadabra.exam_lost", tag_field="type", frozen=True):
    seat: Seat
    reason: LossReason


class DiplomaTaken(msgspec.Struct, tag="abrachadabra.diploma_taken", tag_field="type", frozen=True):
    seat: Seat
    value: int


class StudiesStopped(
    msgspec.Struct, tag="abrachadabra.studies_stopped", tag_field="type", frozen=True
):
    """Every pile is empty: the student can draw no more and leaves the exam unbeaten."""

    seat: Seat


class ExamScored(msgspec.Struct, tag="abrachadabra.exam_scored", tag_field="type", frozen=True):
    """Each student who did not lose scored diploma + black cats + the feather."""

    exam: int
    points: tuple[int, ...]
    totals: tuple[int, ...]


class PlayerConceded(
    msgspec.Struct, tag="abrachadabra.player_conceded", tag_field="type", frozen=True
):
    seat: Seat


class GameEnded(msgspec.Struct, tag="abrachadabra.game_ended", tag_field="type", frozen=True):
    totals: tuple[int, ...]


Event = (
    ExamBegan
    | TurnBegan
    | CardDrawn
    | VisionSeen
    | CardKept
    | FeatherTaken
    | ExamLost
    | DiplomaTaken
    | StudiesStopped
    | ExamScored
    | PlayerConceded
    | GameEnded
)
