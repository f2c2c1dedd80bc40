"""What happened at the table, in the past tense. Chance is written down: every shuffled
order and every card drawn is in an event (redacted for the seats that may not see it)."""

from __future__ import annotations

import msgspec

from domain.games.arcticscavengers.commands import Action


class TableSetUp(
    msgspec.Struct, tag="arcticscavengers.table_set_up", tag_field="type", frozen=True
):
    """Starting decks shuffled, junkyard and contested resources shuffled, piles laid out."""

    initiator: int
    deck_sizes: list[int]
    junkyard_size: int
    contested_size: int
    mercenaries: dict[str, list[str]]
    decks: list[list[str]] | None = None
    junkyard: list[str] | None = None
    contested: list[str] | None = None


class RoundStarted(
    msgspec.Struct, tag="arcticscavengers.round_started", tag_field="type", frozen=True
):
    """Everything from the previous round went to its owner's discard pile."""

    round: int
    initiator: int


class DeckShuffled(
    msgspec.Struct, tag="arcticscavengers.deck_shuffled", tag_field="type", frozen=True
):
    """A tribe's discard pile was shuffled into its new deck."""

    seat: int
    size: int
    order: list[str] | None = None


class CardsDrawn(msgspec.Struct, tag="arcticscavengers.cards_drawn", tag_field="type", frozen=True):
    seat: int
    count: int
    cards: list[str] | None = None


class ContestedResourcePeeked(
    msgspec.Struct, tag="arcticscavengers.contested_resource_peeked", tag_field="type", frozen=True
):
    seat: int
    card: str | None = None


class CardPlayed(msgspec.Struct, tag="arcticscavengers.card_played", tag_field="type", frozen=True):
    seat: int
    card: str
    action: Action


class JunkyardDug(
    msgspec.Struct, tag="arcticscavengers.junkyard_dug", tag_field="type", frozen=True
):
    seat: int
    strength: int
    count: int
    cards: list[str] | None = None


class DugCardKept(
    msgspec.Struct, tag="arcticscavengers.dug_card_kept", tag_field="type", frozen=True
):
    """One dug card (or none) went to the digger's discard, the rest to the junkyard bottom."""

    seat: int
    kept: bool
    returned: int
    card: str | None = None


class DrawPerformed(
    msgspec.Struct, tag="arcticscavengers.draw_performed", tag_field="type", frozen=True
):
    seat: int
    strength: int


class FoodHunted(msgspec.Struct, tag="arcticscavengers.food_hunted", tag_field="type", frozen=True):
    seat: int
    strength: int


class CardsTrashed(
    msgspec.Struct, tag="arcticscavengers.cards_trashed", tag_field="type", frozen=True
):
    """The trashed cards joined the junkyard, which was shuffled."""

    seat: int
    count: int
    junkyard_size: int
    cards: list[str] | None = None
    junkyard: list[str] | None = None


class MercenaryHired(
    msgspec.Struct, tag="arcticscavengers.mercenary_hired", tag_field="type", frozen=True
):
    seat: int
    kind: str
    food: int
    meds: int
    card: str | None = None


class GatheringEnded(
    msgspec.Struct, tag="arcticscavengers.gathering_ended", tag_field="type", frozen=True
):
    """The player stopped gathering; `force_size` cards went face down to the skirmish."""

    seat: int
    force_size: int


class ForcesRevealed(
    msgspec.Struct, tag="arcticscavengers.forces_revealed", tag_field="type", frozen=True
):
    forces: list[list[str]]


class TribeMemberSniped(
    msgspec.Struct, tag="arcticscavengers.tribe_member_sniped", tag_field="type", frozen=True
):
    seat: int
    sniper: str
    target_seat: int
    target: str


class ToolDisarmed(
    msgspec.Struct, tag="arcticscavengers.tool_disarmed", tag_field="type", frozen=True
):
    seat: int
    saboteur: str
    target_seat: int
    tool: str


class SkirmishActionsEnded(
    msgspec.Struct, tag="arcticscavengers.skirmish_actions_ended", tag_field="type", frozen=True
):
    seat: int


class SkirmishWon(
    msgspec.Struct, tag="arcticscavengers.skirmish_won", tag_field="type", frozen=True
):
    """The winner took the top contested resource into their discard pile, unseen by others."""

    seat: int
    fights: list[int]
    people: list[int]
    card: str | None = None


class SkirmishDeadlocked(
    msgspec.Struct, tag="arcticscavengers.skirmish_deadlocked", tag_field="type", frozen=True
):
    """Nobody won: the top contested resource went unseen into the junkyard, then shuffled."""

    fights: list[int]
    people: list[int]
    junkyard_size: int
    junkyard: list[str] | None = None


class GameEnded(msgspec.Struct, tag="arcticscavengers.game_ended", tag_field="type", frozen=True):
    """The contested resources ran out; each tribe counted its people."""

    tribes: list[int]


class TribeWithdrew(
    msgspec.Struct, tag="arcticscavengers.tribe_withdrew", tag_field="type", frozen=True
):
    seat: int


Event = (
    TableSetUp
    | RoundStarted
    | DeckShuffled
    | CardsDrawn
    | ContestedResourcePeeked
    | CardPlayed
    | JunkyardDug
    | DugCardKept
    | DrawPerformed
    | FoodHunted
    | CardsTrashed
    | MercenaryHired
    | GatheringEnded
    | ForcesRevealed
    | TribeMemberSniped
    | ToolDisarmed
    | SkirmishActionsEnded
    | SkirmishWon
    | SkirmishDeadlocked
    | GameEnded
    | TribeWithdrew
)
