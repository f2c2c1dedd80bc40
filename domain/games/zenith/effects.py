"""The vocabulary of Zenith effects: what a card, a technology level or a bonus token
does, as plain data the rules carry out from left to right.

Each effect is carried out for the seat whose step it is ("you"); the opponent is the
other seat. Where an effect names no planet, the player chooses one.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Planet = Literal["mercury", "venus", "terra", "mars", "jupiter"]
Faction = Literal["animod", "human", "robot"]

Where = Literal["any", "opponent_side", "centre"]
"""Which discs an influence may move: any, only one on the opponent's half, only one
still in the centre."""
Chain = Literal["start", "different"]
"""start: this influence starts a different-planet chain; different: it must go to a
planet other than the chain's last one."""
Track = Literal["animod", "human", "robot", "any", "least"]
CostKind = Literal[
    "exile_own",
    "give_zenithium",
    "give_credits",
    "give_badge",
    "spend_zenithium",
    "spend_credits",
    "discard_card",
    "transfer_card",
    "mobilize_card",
    "exile_opponent_card",
    "hold_badge",
    "have_credits",
]
"""What an optional effect asks first. hold_badge and have_credits are conditions that
cost nothing."""


class Frozen(msgspec.Struct, frozen=True, tag_field="type"):
    """Base of the effect structs (frozen data, tagged by kind)."""


class Influence(Frozen, frozen=True, tag="zenith.influence"):
    amount: int
    planet: Planet | None = None
    exclude: Planet | None = None
    where: Where = "any"
    chain: Chain | None = None


class OpponentInfluence(Frozen, frozen=True, tag="zenith.opponent_influence"):
    """The opponent gains influence on a planet you choose (not `exclude`)."""

    amount: int
    exclude: Planet | None = None


class Neighbours(Frozen, frozen=True, tag="zenith.neighbours"):
    """Influence on consecutive planets of the board, amounts in board order."""

    amounts: tuple[int, ...]


class EveryPlanet(Frozen, frozen=True, tag="zenith.every_planet"):
    amount: int


class ResetDisc(Frozen, frozen=True, tag="zenith.reset_disc"):
    """A disc on the opponent's half goes back to the centre."""


class Credits(Frozen, frozen=True, tag="zenith.credits"):
    amount: int


class Zenithium(Frozen, frozen=True, tag="zenith.zenithium"):
    amount: int


class OpponentGains(Frozen, frozen=True, tag="zenith.opponent_gains"):
    """The opponent gains resources from the bank."""

    credits: int = 0
    zenithium: int = 0


class GiveOpponent(Frozen, frozen=True, tag="zenith.give_opponent"):
    """You hand the opponent resources of your own."""

    credits: int = 0
    zenithium: int = 0


class Spend(Frozen, frozen=True, tag="zenith.spend"):
    credits: int = 0
    zenithium: int = 0


class Steal(Frozen, frozen=True, tag="zenith.steal"):
    """Take resources from the opponent (as many as they have, up to the amount)."""

    credits: int = 0
    zenithium: int = 0


class CreditsPerColour(Frozen, frozen=True, tag="zenith.credits_per_colour"):
    per: int
    whose: Literal["own", "opponent"]


class ByTechTracks(Frozen, frozen=True, tag="zenith.by_tech_tracks"):
    """A reward by how many of your tracks are at level 1 or more (1, 2, 3 tracks)."""

    credits: tuple[int, ...] = ()
    zenithium: tuple[int, ...] = ()


class Mobilize(Frozen, frozen=True, tag="zenith.mobilize"):
    """The top cards of the deck go straight into your zone: no cost, no effects."""

    count: int


class Transfer(Frozen, frozen=True, tag="zenith.transfer"):
    """Move a card from the opponent's zone to yours (the top card of a stack)."""

    count: int = 1
    planet: Planet | None = None
    refund: bool = False
    """Gain credits equal to the moved card's cost."""


class ExileOpponent(Frozen, frozen=True, tag="zenith.exile_opponent"):
    """Discard the top card of one of the opponent's stacks."""

    count: int = 1
    refund: bool = False


class ExileOwn(Frozen, frozen=True, tag="zenith.exile_own"):
    """Discard the top card of one of your stacks (only `planet`, or not `exclude`)."""

    count: int = 1
    planet: Planet | None = None
    exclude: Planet | None = None


class Sacrifice(Frozen, frozen=True, tag="zenith.sacrifice"):
    """Exile one of your cards and gain influence on its planet."""

    amount: int
    chain: Chain | None = None


class TakeBadge(Frozen, frozen=True, tag="zenith.take_badge"):
    gold: bool = False


class GiveBadge(Frozen, frozen=True, tag="zenith.give_badge"):
    """The Leader Badge goes to the opponent, silver side up."""


class TakeBonus(Frozen, frozen=True, tag="zenith.take_bonus"):
    face_up: bool = False
    """True: one of the face-up tokens still on the board; False: the face-down reserve."""


class DiscardFromHand(Frozen, frozen=True, tag="zenith.discard_from_hand"):
    count: int = 1
    refund: bool = False


class DiscardHand(Frozen, frozen=True, tag="zenith.discard_hand"):
    pass


class Develop(Frozen, frozen=True, tag="zenith.develop"):
    """Advance one technology track a level (the card's own action, as an effect)."""

    track: Track
    discount: int = 0
    free: bool = False


class Cost(msgspec.Struct, frozen=True):
    kind: CostKind
    planet: Planet | None = None
    exclude: Planet | None = None
    refund: bool = False


class Optional(Frozen, frozen=True, tag="zenith.optional"):
    """IF you pay `cost` (tiers[i] of it) THEN `reward` (multiplied by multipliers[i]).
    Mandatory ones are carried out whenever they can be."""

    cost: Cost
    reward: tuple[Simple, ...] = ()
    tiers: tuple[int, ...] = (1,)
    multipliers: tuple[int, ...] = (1,)
    mandatory: bool = False


class Choice(Frozen, frozen=True, tag="zenith.choice"):
    """CHOOSE one of the options."""

    options: tuple[tuple[Simple, ...], ...]


Simple = (
    Influence
    | OpponentInfluence
    | Neighbours
    | EveryPlanet
    | ResetDisc
    | Credits
    | Zenithium
    | OpponentGains
    | GiveOpponent
    | Spend
    | Steal
    | CreditsPerColour
    | ByTechTracks
    | Mobilize
    | Transfer
    | ExileOpponent
    | ExileOwn
    | Sacrifice
    | TakeBadge
    | GiveBadge
    | TakeBonus
    | DiscardFromHand
    | DiscardHand
    | Develop
)
"""An effect that holds no other effect: what an IF's reward and a CHOOSE's options are
made of (none of them nests another IF or CHOOSE, which keeps the schemas flat)."""

Effect = Simple | Optional | Choice
