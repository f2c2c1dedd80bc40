"""The Carnuta cards and boards (house-made where the page and the facts are silent).

Public facts: 72 ingredient cards in a day deck and a night deck, each holding four
ingredient kinds; 22 double-sided runes (sun / moon); sickle and bonus-ingredient tokens.
The cards' costs and scoring conditions are not public: these are the house's.

A cost is a list of runes: `flip:<symbol>` turns one of your runes showing that symbol
to its other side (the page's swoosh and arrow), `discard:<symbol>` returns one to the
reserve (the page's "X"). Each rune pays for one item, as it shows before paying.

A scoring condition: `per:<ingredient>:<n>` n points per card (or bonus token) of that
ingredient in your tableau; `flat:<n>` n points; `distinct:<n>` n points per ingredient
kind in your tableau; `runes:<symbol>:<n>` n points per rune showing that symbol.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Deck = Literal["day", "night"]
Symbol = Literal["sun", "moon"]
SYMBOLS: tuple[Symbol, ...] = ("sun", "moon")
DAY_INGREDIENTS = ("mistletoe", "oak", "honey", "wheat")
NIGHT_INGREDIENTS = ("mushroom", "fern", "berry", "moss")
INGREDIENTS = DAY_INGREDIENTS + NIGHT_INGREDIENTS
CardId = str


class Card(msgspec.Struct, frozen=True):
    deck: Deck
    ingredient: str
    cost: tuple[str, ...]
    scoring: str


CARDS: dict[CardId, Card] = {
    "cn-mistletoe-1": Card("day", "mistletoe", ("flip:sun",), "per:mistletoe:1"),
    "cn-mistletoe-2": Card("day", "mistletoe", ("flip:moon",), "per:mistletoe:1"),
    "cn-mistletoe-3": Card("day", "mistletoe", ("discard:sun",), "per:mistletoe:1"),
    "cn-mistletoe-4": Card("day", "mistletoe", ("flip:sun", "flip:moon"), "flat:3"),
    "cn-mistletoe-5": Card("day", "mistletoe", ("discard:moon", "flip:sun"), "flat:3"),
    "cn-mistletoe-6": Card(
        "day", "mistletoe", ("discard:sun", "discard:moon", "flip:sun"), "flat:5"
    ),
    "cn-mistletoe-7": Card("day", "mistletoe", ("flip:sun", "discard:sun"), "per:oak:1"),
    "cn-mistletoe-8": Card("day", "mistletoe", ("flip:moon", "discard:sun"), "distinct:1"),
    "cn-mistletoe-9": Card("day", "mistletoe", ("flip:moon",), "runes:moon:1"),
    "cn-oak-1": Card("day", "oak", ("flip:sun",), "per:oak:1"),
    "cn-oak-2": Card("day", "oak", ("flip:moon",), "per:oak:1"),
    "cn-oak-3": Card("day", "oak", ("discard:sun",), "per:oak:1"),
    "cn-oak-4": Card("day", "oak", ("flip:sun", "flip:moon"), "flat:3"),
    "cn-oak-5": Card("day", "oak", ("discard:moon", "flip:sun"), "flat:3"),
    "cn-oak-6": Card("day", "oak", ("discard:sun", "discard:moon", "flip:sun"), "flat:5"),
    "cn-oak-7": Card("day", "oak", ("flip:sun", "discard:sun"), "per:honey:1"),
    "cn-oak-8": Card("day", "oak", ("flip:moon", "discard:sun"), "distinct:1"),
    "cn-oak-9": Card("day", "oak", ("flip:moon",), "runes:moon:1"),
    "cn-honey-1": Card("day", "honey", ("flip:sun",), "per:honey:1"),
    "cn-honey-2": Card("day", "honey", ("flip:moon",), "per:honey:1"),
    "cn-honey-3": Card("day", "honey", ("discard:sun",), "per:honey:1"),
    "cn-honey-4": Card("day", "honey", ("flip:sun", "flip:moon"), "flat:3"),
    "cn-honey-5": Card("day", "honey", ("discard:moon", "flip:sun"), "flat:3"),
    "cn-honey-6": Card("day", "honey", ("discard:sun", "discard:moon", "flip:sun"), "flat:5"),
    "cn-honey-7": Card("day", "honey", ("flip:sun", "discard:sun"), "per:wheat:1"),
    "cn-honey-8": Card("day", "honey", ("flip:moon", "discard:sun"), "distinct:1"),
    "cn-honey-9": Card("day", "honey", ("flip:moon",), "runes:moon:1"),
    "cn-wheat-1": Card("day", "wheat", ("flip:sun",), "per:wheat:1"),
    "cn-wheat-2": Card("day", "wheat", ("flip:moon",), "per:wheat:1"),
    "cn-wheat-3": Card("day", "wheat", ("discard:sun",), "per:wheat:1"),
    "cn-wheat-4": Card("day", "wheat", ("flip:sun", "flip:moon"), "flat:3"),
    "cn-wheat-5": Card("day", "wheat", ("discard:moon", "flip:sun"), "flat:3"),
    "cn-wheat-6": Card("day", "wheat", ("discard:sun", "discard:moon", "flip:sun"), "flat:5"),
    "cn-wheat-7": Card("day", "wheat", ("flip:sun", "discard:sun"), "per:mistletoe:1"),
    "cn-wheat-8": Card("day", "wheat", ("flip:moon", "discard:sun"), "distinct:1"),
    "cn-wheat-9": Card("day", "wheat", ("flip:moon",), "runes:moon:1"),
    "cn-mushroom-1": Card("night", "mushroom", ("flip:moon",), "per:mushroom:1"),
    "cn-mushroom-2": Card("night", "mushroom", ("flip:sun",), "per:mushroom:1"),
    "cn-mushroom-3": Card("night", "mushroom", ("discard:moon",), "per:mushroom:1"),
    "cn-mushroom-4": Card("night", "mushroom", ("flip:moon", "flip:sun"), "flat:3"),
    "cn-mushroom-5": Card("night", "mushroom", ("discard:sun", "flip:moon"), "flat:3"),
    "cn-mushroom-6": Card(
        "night", "mushroom", ("discard:moon", "discard:sun", "flip:moon"), "flat:5"
    ),
    "cn-mushroom-7": Card("night", "mushroom", ("flip:moon", "discard:moon"), "per:fern:1"),
    "cn-mushroom-8": Card("night", "mushroom", ("flip:sun", "discard:moon"), "distinct:1"),
    "cn-mushroom-9": Card("night", "mushroom", ("flip:sun",), "runes:sun:1"),
    "cn-fern-1": Card("night", "fern", ("flip:moon",), "per:fern:1"),
    "cn-fern-2": Card("night", "fern", ("flip:sun",), "per:fern:1"),
    "cn-fern-3": Card("night", "fern", ("discard:moon",), "per:fern:1"),
    "cn-fern-4": Card("night", "fern", ("flip:moon", "flip:sun"), "flat:3"),
    "cn-fern-5": Card("night", "fern", ("discard:sun", "flip:moon"), "flat:3"),
    "cn-fern-6": Card("night", "fern", ("discard:moon", "discard:sun", "flip:moon"), "flat:5"),
    "cn-fern-7": Card("night", "fern", ("flip:moon", "discard:moon"), "per:berry:1"),
    "cn-fern-8": Card("night", "fern", ("flip:sun", "discard:moon"), "distinct:1"),
    "cn-fern-9": Card("night", "fern", ("flip:sun",), "runes:sun:1"),
    "cn-berry-1": Card("night", "berry", ("flip:moon",), "per:berry:1"),
    "cn-berry-2": Card("night", "berry", ("flip:sun",), "per:berry:1"),
    "cn-berry-3": Card("night", "berry", ("discard:moon",), "per:berry:1"),
    "cn-berry-4": Card("night", "berry", ("flip:moon", "flip:sun"), "flat:3"),
    "cn-berry-5": Card("night", "berry", ("discard:sun", "flip:moon"), "flat:3"),
    "cn-berry-6": Card("night", "berry", ("discard:moon", "discard:sun", "flip:moon"), "flat:5"),
    "cn-berry-7": Card("night", "berry", ("flip:moon", "discard:moon"), "per:moss:1"),
    "cn-berry-8": Card("night", "berry", ("flip:sun", "discard:moon"), "distinct:1"),
    "cn-berry-9": Card("night", "berry", ("flip:sun",), "runes:sun:1"),
    "cn-moss-1": Card("night", "moss", ("flip:moon",), "per:moss:1"),
    "cn-moss-2": Card("night", "moss", ("flip:sun",), "per:moss:1"),
    "cn-moss-3": Card("night", "moss", ("discard:moon",), "per:moss:1"),
    "cn-moss-4": Card("night", "moss", ("flip:moon", "flip:sun"), "flat:3"),
    "cn-moss-5": Card("night", "moss", ("discard:sun", "flip:moon"), "flat:3"),
    "cn-moss-6": Card("night", "moss", ("discard:moon", "discard:sun", "flip:moon"), "flat:5"),
    "cn-moss-7": Card("night", "moss", ("flip:moon", "discard:moon"), "per:mushroom:1"),
    "cn-moss-8": Card("night", "moss", ("flip:sun", "discard:moon"), "distinct:1"),
    "cn-moss-9": Card("night", "moss", ("flip:sun",), "runes:sun:1"),
}
"""72 cards: 9 of each ingredient, ids `cn-<ingredient>-<1..9>`."""

ROW_SIZE = 4
"""Public fact: the market shows 4 day cards and 4 night cards, one row each."""
HAND_LIMIT = 3
"""Page: hand limit is 3."""
ACTIONS_PER_TURN = 2
"""Page: perform two of the four actions, the same one twice if you like."""
RUNES = 22
"""Public fact: 22 double-sided runes, the reserve holding those nobody has."""
START_RUNES: tuple[Symbol, ...] = ("sun", "sun", "moon", "moon")
"""Public fact: each player starts with 4 runes, 2 showing the sun, 2 the moon."""
START_SICKLES = 2
"""Public fact: each player starts with 2 sickles."""
BASE_SLOTS = 4
SLOT_OPENED_AT = {4: 5, 8: 6}
"""Page: the 4th card in your tableau opens a 5th rune slot, the 8th a 6th."""
TOKEN_AT = (6, 10)
"""Page (newest revision): the 6th and 10th cards let you pick a bonus token."""
END_AT = 11
"""Page: a player adding an 11th card to their tableau triggers the end."""
