"""The dinosaur cards, the dig sites and the token supply (house-made numbers: the page
names the kinds of things, not the cards).

A card: its family (for the page's sets, "e.g. three carnivores"), its prestige (the
laurel), the bones that complete it for the exhibit, the amber its excavation costs, and
one effect:

- `instant:amber:<n>` on acquiring it, gain n amber (arrow icon);
- `instant:bag:<n>` on acquiring it, draw n random bones from the bag (fossil-set bag);
- `passive:discount` while in the workshop, excavating cards costs 1 amber less (infinity);
- `passive:boost:<site>` while in the workshop, 1 more token on each visit to that site;
- `reactive:exhibit:<family>` while in the workshop, 1 amber whenever you exhibit a card
  of that family (lightning bolt);
- `none`.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Family = Literal["carnivore", "herbivore", "flyer", "swimmer"]
FAMILIES: tuple[Family, ...] = ("carnivore", "herbivore", "flyer", "swimmer")
Bone = Literal["skull", "rib", "claw"]
BONES: tuple[Bone, ...] = ("skull", "rib", "claw")
Site = Literal["mountains", "desert", "jungle"]
SITES: tuple[Site, ...] = ("mountains", "desert", "jungle")
CardId = str


class Dinosaur(msgspec.Struct, frozen=True):
    family: Family
    prestige: int
    bones: dict[str, int]
    dig_cost: int
    effect: str


DINOSAURS: dict[CardId, Dinosaur] = {
    "fg-raptor": Dinosaur("carnivore", 2, {"skull": 1}, 0, "instant:amber:1"),
    "fg-allosaur": Dinosaur("carnivore", 2, {"rib": 1}, 0, "instant:bag:2"),
    "fg-tyrant": Dinosaur("carnivore", 3, {"claw": 1, "rib": 1}, 0, "passive:boost:mountains"),
    "fg-spinosaur": Dinosaur("carnivore", 3, {"claw": 1, "skull": 1}, 1, "passive:boost:desert"),
    "fg-ceratosaur": Dinosaur(
        "carnivore", 3, {"claw": 1, "rib": 1, "skull": 1}, 1, "passive:discount"
    ),
    "fg-carnotaur": Dinosaur(
        "carnivore", 3, {"claw": 1, "rib": 2}, 1, "reactive:exhibit:carnivore"
    ),
    "fg-dilophosaur": Dinosaur(
        "carnivore", 4, {"claw": 1, "rib": 1, "skull": 2}, 1, "passive:boost:jungle"
    ),
    "fg-megalosaur": Dinosaur("carnivore", 8, {"claw": 1, "rib": 2, "skull": 2}, 2, "none"),
    "fg-giganotosaur": Dinosaur("carnivore", 10, {"claw": 2, "rib": 2, "skull": 2}, 2, "none"),
    "fg-stegosaur": Dinosaur("herbivore", 2, {"rib": 1}, 0, "instant:amber:1"),
    "fg-triceratops": Dinosaur("herbivore", 2, {"claw": 1}, 0, "instant:bag:2"),
    "fg-iguanodon": Dinosaur("herbivore", 3, {"claw": 1, "skull": 1}, 0, "passive:boost:mountains"),
    "fg-ankylosaur": Dinosaur("herbivore", 3, {"rib": 1, "skull": 1}, 1, "passive:boost:desert"),
    "fg-brachiosaur": Dinosaur(
        "herbivore", 3, {"claw": 1, "rib": 1, "skull": 1}, 1, "passive:discount"
    ),
    "fg-diplodocus": Dinosaur(
        "herbivore", 3, {"claw": 2, "skull": 1}, 1, "reactive:exhibit:herbivore"
    ),
    "fg-parasaur": Dinosaur(
        "herbivore", 4, {"claw": 1, "rib": 2, "skull": 1}, 1, "passive:boost:jungle"
    ),
    "fg-pachycephalosaur": Dinosaur("herbivore", 8, {"claw": 2, "rib": 2, "skull": 1}, 2, "none"),
    "fg-hadrosaur": Dinosaur("herbivore", 10, {"claw": 2, "rib": 2, "skull": 2}, 2, "none"),
    "fg-pterodactyl": Dinosaur("flyer", 2, {"claw": 1}, 0, "instant:amber:1"),
    "fg-quetzalcoatl": Dinosaur("flyer", 2, {"skull": 1}, 0, "instant:bag:2"),
    "fg-rhamphorhynch": Dinosaur("flyer", 3, {"rib": 1, "skull": 1}, 0, "passive:boost:mountains"),
    "fg-pteranodon": Dinosaur("flyer", 3, {"claw": 1, "rib": 1}, 1, "passive:boost:desert"),
    "fg-dimorphodon": Dinosaur(
        "flyer", 3, {"claw": 1, "rib": 1, "skull": 1}, 1, "passive:discount"
    ),
    "fg-anurognath": Dinosaur("flyer", 5, {"rib": 1, "skull": 2}, 1, "reactive:exhibit:flyer"),
    "fg-tapejara": Dinosaur(
        "flyer", 4, {"claw": 2, "rib": 1, "skull": 1}, 1, "passive:boost:jungle"
    ),
    "fg-nyctosaur": Dinosaur("flyer", 8, {"claw": 2, "rib": 1, "skull": 2}, 2, "none"),
    "fg-dsungaripter": Dinosaur("flyer", 10, {"claw": 2, "rib": 2, "skull": 2}, 2, "none"),
    "fg-plesiosaur": Dinosaur("swimmer", 2, {"skull": 1}, 0, "instant:amber:1"),
    "fg-mosasaur": Dinosaur("swimmer", 2, {"rib": 1}, 0, "instant:bag:2"),
    "fg-ichthyosaur": Dinosaur("swimmer", 3, {"claw": 1, "rib": 1}, 0, "passive:boost:mountains"),
    "fg-liopleurodon": Dinosaur("swimmer", 3, {"claw": 1, "skull": 1}, 1, "passive:boost:desert"),
    "fg-elasmosaur": Dinosaur(
        "swimmer", 3, {"claw": 1, "rib": 1, "skull": 1}, 1, "passive:discount"
    ),
    "fg-kronosaur": Dinosaur("swimmer", 5, {"claw": 1, "rib": 2}, 1, "reactive:exhibit:swimmer"),
    "fg-nothosaur": Dinosaur(
        "swimmer", 4, {"claw": 1, "rib": 1, "skull": 2}, 1, "passive:boost:jungle"
    ),
    "fg-tylosaur": Dinosaur("swimmer", 8, {"claw": 1, "rib": 2, "skull": 2}, 2, "none"),
    "fg-shonisaur": Dinosaur("swimmer", 10, {"claw": 2, "rib": 2, "skull": 2}, 2, "none"),
}
"""36 cards, 9 per family."""

SITE_YIELD: dict[str, dict[str, int]] = {
    "mountains": {"skull": 1, "claw": 1},
    "desert": {"rib": 1, "claw": 1},
    "jungle": {"amber": 2},
}
"""Page: the Mountains and the Desert give specific fossil tokens, the Jungle amber."""
SITE_CARDS = 2
"""Cards shown at each dig site (facts: each dig site holds 2 cards)."""
BAG: dict[str, int] = {"skull": 14, "rib": 14, "claw": 14}
"""The bones in the supply bag at the start."""
START_AMBER = 2

INITIATIVE_COST = 3
"""Amber to move your marker first in the next round's turn order."""
DOUBLE_ACTION_COST = 4
"""Amber for a second main action this turn."""
NEWS_POINTS = 2
"""Each news token kept to the end."""
SET_TOKEN_POINTS = 3
"""Each completed fossil set (one skull, one rib, one claw) traded for a set token."""
AMBER_PER_POINT = 3
"""Remaining amber scores 1 point per this many."""
SET_TOKENS_BASE = 3
"""Set tokens in the supply: this many plus one per player."""
FAMILY_SET = 3
"""Page: a news token for each set of three exhibited cards of one family."""
MILESTONES = (3, 6)
"""Page: a news token for the first player to exhibit 3, and 6, dinosaurs."""
