"""What happened at a Gatsby table, one Struct per event.

The face-down characters and the Special Action pile are secret: `view.redact` blanks them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.gatsby.board import ActionSpace, Bonus, Space, Step
from domain.games.gatsby.tiles import TileId
from domain.kernel import Seat

EndReason = Literal[
    "three_of_a_suit", "five_suits", "last_character", "location_emptied", "stalled"
]


class ScoreSheet(msgspec.Struct, frozen=True):
    prestige: int
    specials: int
    total: int
    characters: int


class CabaretLaid(msgspec.Struct, tag="gatsby.cabaret_laid", tag_field="type", frozen=True):
    """The shuffled Cabaret tiles, one per section, top section first (the last one unused)."""

    tiles: tuple[TileId, ...]


class CharactersLaid(msgspec.Struct, tag="gatsby.characters_laid", tag_field="type", frozen=True):
    """Shuffled face down onto the 12 spaces in order, 3 spares to the box (None: secret)."""

    placed: tuple[TileId, ...] | None
    spares: tuple[TileId, ...] | None


class CharacterRevealed(
    msgspec.Struct, tag="gatsby.character_revealed", tag_field="type", frozen=True
):
    space: Space
    character: TileId


class CharactersSwapped(
    msgspec.Struct, tag="gatsby.characters_swapped", tag_field="type", frozen=True
):
    """`seat` None: the setup swap in Finance or the Racetrack."""

    seat: Seat | None
    spaces: tuple[Space, Space]


class SpecialsShuffled(
    msgspec.Struct, tag="gatsby.specials_shuffled", tag_field="type", frozen=True
):
    """The face-down Special Action pile, top tile last (None: secret)."""

    tiles: tuple[TileId, ...] | None


class FirstPlayerChosen(
    msgspec.Struct, tag="gatsby.first_player_chosen", tag_field="type", frozen=True
):
    seat: Seat


class SpecialsDrawn(msgspec.Struct, tag="gatsby.specials_drawn", tag_field="type", frozen=True):
    """Drawn to choose from (None for the opponent)."""

    seat: Seat
    count: int
    tiles: tuple[TileId, ...] | None


class SpecialKept(msgspec.Struct, tag="gatsby.special_kept", tag_field="type", frozen=True):
    """The tile kept goes on the player's board; the others are discarded face up."""

    seat: Seat
    tile: TileId
    discarded: tuple[TileId, ...]


class SpecialTaken(msgspec.Struct, tag="gatsby.special_taken", tag_field="type", frozen=True):
    """A bonus: the top Special Action tile onto the board, replacing (discarding) `replaced`."""

    seat: Seat
    tile: TileId
    replaced: TileId | None


class FirstTokenAwaited(
    msgspec.Struct, tag="gatsby.first_token_awaited", tag_field="type", frozen=True
):
    """The second player places 1 Influence token in the Cabaret."""

    seat: Seat


class TurnBegan(msgspec.Struct, tag="gatsby.turn_began", tag_field="type", frozen=True):
    seat: Seat


class ActionChosen(msgspec.Struct, tag="gatsby.action_chosen", tag_field="type", frozen=True):
    seat: Seat
    space: ActionSpace
    steps: tuple[Step, ...]


class SpecialUsed(msgspec.Struct, tag="gatsby.special_used", tag_field="type", frozen=True):
    """The tile is discarded; its steps (and bonus) are done next."""

    seat: Seat
    tile: TileId
    steps: tuple[Step, ...]
    bonus: Bonus | None


class SpecialDone(msgspec.Struct, tag="gatsby.special_done", tag_field="type", frozen=True):
    seat: Seat


class StepSkipped(msgspec.Struct, tag="gatsby.step_skipped", tag_field="type", frozen=True):
    """A step that cannot be done (no token left, no free space, top of the track)."""

    seat: Seat
    step: Step


class CabaretInfluencePlaced(
    msgspec.Struct, tag="gatsby.cabaret_influence_placed", tag_field="type", frozen=True
):
    seat: Seat
    row: int
    col: int


class RaceInfluencePlaced(
    msgspec.Struct, tag="gatsby.race_influence_placed", tag_field="type", frozen=True
):
    seat: Seat
    line: int
    index: int


class AscensionAdvanced(
    msgspec.Struct, tag="gatsby.ascension_advanced", tag_field="type", frozen=True
):
    seat: Seat
    height: int
    by_step: bool
    """True for the turn's Finance step, False for a bonus."""


class BonusGained(msgspec.Struct, tag="gatsby.bonus_gained", tag_field="type", frozen=True):
    seat: Seat
    bonus: Bonus


class BonusLost(msgspec.Struct, tag="gatsby.bonus_lost", tag_field="type", frozen=True):
    """Skipped by choice, or nothing to do it with."""

    seat: Seat
    bonus: Bonus


class InfluenceSwapped(
    msgspec.Struct, tag="gatsby.influence_swapped", tag_field="type", frozen=True
):
    seat: Seat
    mine: str
    theirs: str


class ActionRestricted(
    msgspec.Struct, tag="gatsby.action_restricted", tag_field="type", frozen=True
):
    """`opponent` may not use `space` on their next turn."""

    seat: Seat
    opponent: Seat
    space: ActionSpace


class RaceFinished(msgspec.Struct, tag="gatsby.race_finished", tag_field="type", frozen=True):
    """A full line: the majority takes the character, tokens go home, the line closes."""

    line: int
    winner: Seat
    returned: tuple[int, ...]


class CharacterRallied(
    msgspec.Struct, tag="gatsby.character_rallied", tag_field="type", frozen=True
):
    seat: Seat
    space: Space
    character: TileId


class GameEnded(msgspec.Struct, tag="gatsby.game_ended", tag_field="type", frozen=True):
    reason: EndReason
    winner: Seat | None
    """The instant winner (three of a suit, five suits), else None."""
    sheets: tuple[ScoreSheet, ...]


Event = (
    CabaretLaid
    | CharactersLaid
    | CharacterRevealed
    | CharactersSwapped
    | SpecialsShuffled
    | FirstPlayerChosen
    | SpecialsDrawn
    | SpecialKept
    | SpecialTaken
    | FirstTokenAwaited
    | TurnBegan
    | ActionChosen
    | SpecialUsed
    | SpecialDone
    | StepSkipped
    | CabaretInfluencePlaced
    | RaceInfluencePlaced
    | AscensionAdvanced
    | BonusGained
    | BonusLost
    | InfluenceSwapped
    | ActionRestricted
    | RaceFinished
    | CharacterRallied
    | GameEnded
)
