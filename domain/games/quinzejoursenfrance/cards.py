"""The Location and Encounter cards (house-made: the page and the facts give the kinds,
not the cards).

A Location card: its region (Nord or Sud row), its symbols, its smileys, its price in
Step tokens (0-3) and its reward: `steps:<n>` (n Step tokens), `bonus` (another action
at once) or `none`.

An Encounter card is a mission: a condition and the smileys it earns when met at the end:
`most:<symbol>` (nobody has more of it, and you have one), `count:<symbol>:<n>` (at least
n), `none:<symbol>` (not one), `smiley_cards:<n>` (n Location cards showing a smiley),
`region:<nord|sud>:<n>` (n cards of that region), `distinct:<n>` (n different symbols).
"""

from __future__ import annotations

from typing import Literal

import msgspec

Region = Literal["nord", "sud"]
REGIONS: tuple[Region, ...] = ("nord", "sud")
SYMBOLS = ("chateau", "nature", "water", "city", "village", "industry")
CardId = str


class Location(msgspec.Struct, frozen=True):
    region: Region
    symbols: tuple[str, ...]
    smileys: int
    cost: int
    reward: str


class Encounter(msgspec.Struct, frozen=True):
    condition: str
    smileys: int


LOCATIONS: dict[CardId, Location] = {
    "qj-n01": Location("nord", ("industry",), 0, 1, "none"),
    "qj-n02": Location("nord", ("chateau",), 0, 1, "none"),
    "qj-n03": Location("nord", ("nature", "village"), 0, 1, "none"),
    "qj-n04": Location("nord", ("industry",), 1, 2, "none"),
    "qj-n05": Location("nord", ("chateau",), 1, 2, "none"),
    "qj-n06": Location("nord", ("city", "village"), 0, 1, "none"),
    "qj-n07": Location("nord", ("village",), 0, 0, "none"),
    "qj-n08": Location("nord", ("industry",), 0, 2, "steps:2"),
    "qj-n09": Location("nord", ("nature",), 0, 0, "none"),
    "qj-n10": Location("nord", ("city",), 1, 1, "none"),
    "qj-n11": Location("nord", ("nature",), 1, 1, "bonus"),
    "qj-n12": Location("nord", ("nature",), 0, 0, "none"),
    "qj-n13": Location("nord", ("village",), 0, 0, "none"),
    "qj-n14": Location("nord", ("village",), 0, 0, "none"),
    "qj-n15": Location("nord", ("nature", "village"), 0, 1, "none"),
    "qj-n16": Location("nord", ("industry",), 1, 3, "steps:2"),
    "qj-n17": Location("nord", ("water",), 1, 1, "none"),
    "qj-n18": Location("nord", ("nature", "water"), 0, 1, "none"),
    "qj-n19": Location("nord", ("water",), 0, 0, "none"),
    "qj-n20": Location("nord", ("chateau",), 0, 1, "none"),
    "qj-n21": Location("nord", ("city", "nature"), 0, 1, "none"),
    "qj-n22": Location("nord", ("city",), 1, 1, "bonus"),
    "qj-n23": Location("nord", ("industry",), 1, 2, "none"),
    "qj-n24": Location("nord", ("city", "water"), 0, 2, "steps:2"),
    "qj-n25": Location("nord", ("village",), 0, 0, "none"),
    "qj-n26": Location("nord", ("industry",), 0, 1, "none"),
    "qj-n27": Location("nord", ("industry", "water"), 0, 2, "none"),
    "qj-n28": Location("nord", ("chateau",), 1, 2, "none"),
    "qj-n29": Location("nord", ("nature",), 1, 1, "none"),
    "qj-n30": Location("nord", ("industry", "nature"), 0, 2, "none"),
    "qj-n31": Location("nord", ("city",), 0, 0, "none"),
    "qj-n32": Location("nord", ("city",), 0, 1, "steps:2"),
    "qj-n33": Location("nord", ("nature", "water"), 0, 1, "bonus"),
    "qj-n34": Location("nord", ("village",), 1, 1, "none"),
    "qj-n35": Location("nord", ("chateau",), 1, 2, "none"),
    "qj-n36": Location("nord", ("chateau",), 0, 1, "none"),
    "qj-n37": Location("nord", ("water",), 0, 0, "none"),
    "qj-n38": Location("nord", ("village",), 0, 0, "none"),
    "qj-n39": Location("nord", ("water",), 0, 0, "none"),
    "qj-n40": Location("nord", ("water",), 1, 2, "steps:2"),
    "qj-n41": Location("nord", ("nature",), 1, 1, "none"),
    "qj-n42": Location("nord", ("industry", "nature"), 0, 2, "none"),
    "qj-n43": Location("nord", ("nature",), 0, 0, "none"),
    "qj-n44": Location("nord", ("nature",), 0, 0, "bonus"),
    "qj-n45": Location("nord", ("nature", "village"), 0, 1, "none"),
    "qj-n46": Location("nord", ("village",), 1, 1, "none"),
    "qj-n47": Location("nord", ("nature",), 1, 1, "none"),
    "qj-n48": Location("nord", ("chateau", "water"), 0, 3, "steps:2"),
    "qj-s01": Location("sud", ("village",), 0, 0, "none"),
    "qj-s02": Location("sud", ("village",), 0, 0, "none"),
    "qj-s03": Location("sud", ("chateau", "water"), 0, 2, "none"),
    "qj-s04": Location("sud", ("water",), 1, 1, "none"),
    "qj-s05": Location("sud", ("water",), 1, 1, "none"),
    "qj-s06": Location("sud", ("industry", "village"), 0, 2, "none"),
    "qj-s07": Location("sud", ("village",), 0, 0, "none"),
    "qj-s08": Location("sud", ("nature",), 0, 1, "steps:2"),
    "qj-s09": Location("sud", ("chateau", "village"), 0, 2, "none"),
    "qj-s10": Location("sud", ("industry",), 1, 2, "none"),
    "qj-s11": Location("sud", ("nature",), 1, 1, "bonus"),
    "qj-s12": Location("sud", ("water",), 0, 0, "none"),
    "qj-s13": Location("sud", ("industry",), 0, 1, "none"),
    "qj-s14": Location("sud", ("chateau",), 0, 1, "none"),
    "qj-s15": Location("sud", ("chateau", "village"), 0, 2, "none"),
    "qj-s16": Location("sud", ("city",), 1, 2, "steps:2"),
    "qj-s17": Location("sud", ("water",), 1, 1, "none"),
    "qj-s18": Location("sud", ("city", "village"), 0, 1, "none"),
    "qj-s19": Location("sud", ("city",), 0, 0, "none"),
    "qj-s20": Location("sud", ("nature",), 0, 0, "none"),
    "qj-s21": Location("sud", ("chateau",), 0, 1, "none"),
    "qj-s22": Location("sud", ("nature",), 1, 1, "bonus"),
    "qj-s23": Location("sud", ("city",), 1, 1, "none"),
    "qj-s24": Location("sud", ("nature", "water"), 0, 2, "steps:2"),
    "qj-s25": Location("sud", ("city",), 0, 0, "none"),
    "qj-s26": Location("sud", ("city",), 0, 0, "none"),
    "qj-s27": Location("sud", ("city", "nature"), 0, 1, "none"),
    "qj-s28": Location("sud", ("village",), 1, 1, "none"),
    "qj-s29": Location("sud", ("village",), 1, 1, "none"),
    "qj-s30": Location("sud", ("village",), 0, 0, "none"),
    "qj-s31": Location("sud", ("chateau",), 0, 1, "none"),
    "qj-s32": Location("sud", ("city",), 0, 1, "steps:2"),
    "qj-s33": Location("sud", ("nature", "water"), 0, 1, "bonus"),
    "qj-s34": Location("sud", ("water",), 1, 1, "none"),
    "qj-s35": Location("sud", ("nature",), 1, 1, "none"),
    "qj-s36": Location("sud", ("industry", "nature"), 0, 2, "none"),
    "qj-s37": Location("sud", ("nature",), 0, 0, "none"),
    "qj-s38": Location("sud", ("village",), 0, 0, "none"),
    "qj-s39": Location("sud", ("city", "nature"), 0, 1, "none"),
    "qj-s40": Location("sud", ("nature",), 1, 2, "steps:2"),
    "qj-s41": Location("sud", ("city",), 1, 1, "none"),
    "qj-s42": Location("sud", ("city", "nature"), 0, 1, "none"),
    "qj-s43": Location("sud", ("chateau",), 0, 1, "none"),
    "qj-s44": Location("sud", ("nature",), 0, 0, "bonus"),
    "qj-s45": Location("sud", ("village",), 0, 0, "none"),
    "qj-s46": Location("sud", ("chateau",), 1, 2, "none"),
    "qj-s47": Location("sud", ("village",), 1, 1, "none"),
    "qj-s48": Location("sud", ("city", "nature"), 0, 2, "steps:2"),
}
"""96 Location cards, 48 per region (the facts: about 96)."""

ENCOUNTERS: dict[CardId, Encounter] = {
    "qj-m01": Encounter("most:chateau", 5),
    "qj-m02": Encounter("most:nature", 4),
    "qj-m03": Encounter("most:water", 4),
    "qj-m04": Encounter("most:city", 4),
    "qj-m05": Encounter("most:village", 4),
    "qj-m06": Encounter("most:industry", 5),
    "qj-m07": Encounter("count:nature:4", 4),
    "qj-m08": Encounter("count:water:3", 4),
    "qj-m09": Encounter("count:village:3", 4),
    "qj-m10": Encounter("count:city:3", 5),
    "qj-m11": Encounter("count:chateau:2", 5),
    "qj-m12": Encounter("count:industry:2", 6),
    "qj-m13": Encounter("count:nature:6", 7),
    "qj-m14": Encounter("count:water:5", 7),
    "qj-m15": Encounter("none:industry", 3),
    "qj-m16": Encounter("none:chateau", 3),
    "qj-m17": Encounter("none:city", 3),
    "qj-m18": Encounter("smiley_cards:2", 3),
    "qj-m19": Encounter("smiley_cards:3", 5),
    "qj-m20": Encounter("smiley_cards:4", 6),
    "qj-m21": Encounter("region:nord:4", 3),
    "qj-m22": Encounter("region:nord:6", 6),
    "qj-m23": Encounter("region:sud:4", 3),
    "qj-m24": Encounter("region:sud:6", 6),
    "qj-m25": Encounter("distinct:4", 3),
    "qj-m26": Encounter("distinct:5", 5),
    "qj-m27": Encounter("distinct:6", 7),
}

DAYS = 15
"""Page: 15 rounds, one per day."""
ITINERARY_CHANGES = (4, 8, 12)
"""Page: at the start of days 4, 8 and 12 all 8 Location cards are replaced."""
ROW_SIZE = 4
"""Facts: 4 Location cards face up in the Nord row, 4 in the Sud row."""
REST_STEPS = 4
"""Page: Récupérer gains 4 Step tokens."""
ENCOUNTERS_DRAWN = 2
"""Page: Rencontrer draws 2 Encounter cards and keeps 1."""
START_STEPS = 3
"""House-made: Step tokens each traveller starts with."""
