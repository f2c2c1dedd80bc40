"""The cards of the base game, as data: who they are, what they do, what they cost.

Values follow the facts sheet (rules-batch1.md, Arctic Scavengers): a person card has
*base* skills (a skill at 0 still exists, so a tool can raise it; a missing skill cannot
be used at all); a tool or the Group Leaders carry *bonuses* that ride on one person.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Skill = Literal["draw", "dig", "hunt", "fight"]
Role = Literal["person", "leader", "tool", "medicine", "junk"]
Kind = Literal[
    "refugee",
    "scavenger",
    "brawler",
    "hunter",
    "saboteur",
    "scout",
    "group-leaders",
    "sniper-team",
    "thugs",
    "junk",
    "multitool",
    "net",
    "spear",
    "pickaxe",
    "shovel",
    "medkit",
    "pills",
    "wolf-pack",
    "grenade",
    "sled-team",
    "field-crew",
    "tribe-family-3",
    "tribe-family-4",
    "tribe-family-5",
]
Mercenary = Literal[
    "scavenger",
    "brawler",
    "hunter",
    "saboteur",
    "scout",
    "group-leaders",
    "sniper-team",
    "thugs",
]
CardId = str


class Cost(msgspec.Struct, frozen=True):
    """A hiring price: food AND meds, plus `either` units payable in any mix (Thugs)."""

    food: int = 0
    meds: int = 0
    either: int = 0


class Card(msgspec.Struct, frozen=True):
    title: str
    role: Role
    people: int = 0
    skills: dict[str, int] = {}
    med: int = 0
    cost: Cost | None = None
    special: Literal["snipe", "disarm"] | None = None


def _person(title: str, people: int, **skills: int) -> Card:
    return Card(title=title, role="person", people=people, skills=skills)


CARDS: dict[str, Card] = {
    # The refugees of the starting decks.
    "refugee": _person("Refugee", 1, dig=0, hunt=0),
    # The eight mercenary piles.
    "scavenger": Card(
        "Scavenger", "person", 1, {"draw": 1, "dig": 1, "hunt": 1, "fight": 1}, cost=Cost(food=1)
    ),
    "brawler": Card("Brawler", "person", 1, {"dig": 1, "fight": 2}, cost=Cost(food=2)),
    "hunter": Card("Hunter", "person", 1, {"hunt": 2, "fight": 1}, cost=Cost(meds=1)),
    "saboteur": Card(
        "Saboteur", "person", 1, {"dig": 1, "fight": 1}, cost=Cost(food=1, meds=1), special="disarm"
    ),
    "scout": Card("Scout", "person", 1, {"draw": 2, "fight": 2}, cost=Cost(food=2, meds=1)),
    "group-leaders": Card(
        "Group Leaders",
        "leader",
        2,
        {"draw": 2, "dig": 2, "hunt": 2, "fight": 2},
        cost=Cost(food=2, meds=2),
    ),
    "sniper-team": Card("Sniper Team", "person", 2, {}, cost=Cost(food=2, meds=2), special="snipe"),
    "thugs": Card("Thugs", "person", 3, {"dig": 1, "fight": 3}, cost=Cost(either=6)),
    # The junkyard.
    "junk": Card("Junk", "junk"),
    "multitool": Card("Multitool", "tool", skills={"dig": 1, "hunt": 1, "fight": 1}),
    "net": Card("Net", "tool", skills={"hunt": 2, "fight": 1}),
    "spear": Card("Spear", "tool", skills={"hunt": 1, "fight": 2}),
    "pickaxe": Card("Pickaxe", "tool", skills={"dig": 1, "fight": 2}),
    "shovel": Card("Shovel", "tool", skills={"dig": 2, "fight": 1}),
    "medkit": Card("Medkit", "medicine", med=2),
    "pills": Card("Pills", "medicine", med=1),
    # The contested resources.
    "wolf-pack": Card("Wolf Pack", "tool", skills={"hunt": 3, "fight": 2}),
    "grenade": Card("Grenade", "tool", skills={"fight": 3}),
    "sled-team": _person("Sled Team", 2, draw=2, fight=1),
    "field-crew": _person("Field Crew", 4, dig=2, hunt=2, fight=2),
    "tribe-family-3": _person("Tribe Family", 3, hunt=0, fight=0),
    "tribe-family-4": _person("Tribe Family", 4, hunt=0, fight=0),
    "tribe-family-5": _person("Tribe Family", 5, hunt=0, fight=0),
}

MERCENARIES: dict[str, int] = {
    "scavenger": 20,
    "brawler": 10,
    "hunter": 8,
    "saboteur": 8,
    "scout": 8,
    "group-leaders": 5,
    "sniper-team": 5,
    "thugs": 5,
}
JUNKYARD: dict[str, int] = {
    "junk": 7,
    "multitool": 4,
    "net": 4,
    "spear": 6,
    "pickaxe": 4,
    "shovel": 6,
    "medkit": 6,
    "pills": 9,
}
CONTESTED: dict[str, int] = {
    "wolf-pack": 2,
    "grenade": 2,
    "sled-team": 2,
    "field-crew": 2,
    "tribe-family-3": 2,
    "tribe-family-4": 2,
    "tribe-family-5": 2,
}
STARTING_DECK: dict[str, int] = {
    "refugee": 4,
    "scavenger": 3,
    "brawler": 1,
    "spear": 1,
    "shovel": 1,
}
HAND_SIZE = 5
FIRST_SKIRMISH_ROUND = 3


def card_id(kind: str, number: int) -> CardId:
    """The id of the `number`-th card (1-based) of a kind: "as-scavenger-03"."""
    return f"as-{kind}-{number:02d}"


def kind_of(card: CardId) -> str:
    return card[3:].rsplit("-", 1)[0]


def card_of(card: CardId) -> Card:
    return CARDS[kind_of(card)]


def title(card: CardId) -> str:
    return card_of(card).title


def people(card: CardId) -> int:
    return card_of(card).people


def is_person(card: CardId) -> bool:
    """A tribe member: what a sniper team can shoot (Group Leaders included)."""
    return card_of(card).role in ("person", "leader")


def is_tool(card: CardId) -> bool:
    return card_of(card).role == "tool"


def medicine(card: CardId) -> int:
    return card_of(card).med


def is_contested(card: CardId) -> bool:
    return kind_of(card) in CONTESTED
