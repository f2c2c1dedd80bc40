"""The cards, as data: value, copies in each deck, whom the card chooses, one-line effect.

The classic deck (16 cards) serves 2-4 players; 5-8 players add the premium cards
(16 more, 32 in all). Every card instance has an id such as "ll-guard-3" or
"ll-dowager-queen-1", so the name can be read back from the id.
"""

from __future__ import annotations

from typing import Literal

import msgspec

CardName = Literal[
    "guard",
    "priest",
    "baron",
    "handmaid",
    "prince",
    "king",
    "countess",
    "princess",
    "bishop",
    "dowager_queen",
    "constable",
    "count",
    "sycophant",
    "baroness",
    "cardinal",
    "jester",
    "assassin",
]
CardId = str

Choosing = Literal["nobody", "another", "anyone", "one_or_two_others", "two_players"]
"""Whom a card chooses: nobody; another player; anyone (yourself included);
one or two other players (Baroness); two players, yourself allowed (Cardinal)."""


class Card(msgspec.Struct, frozen=True):
    name: CardName
    title: str
    value: int
    classic: int  # copies in the 16-card deck
    premium: int  # extra copies added for 5-8 players
    chooses: Choosing = "nobody"
    names_a_value: bool = False  # Guard and Bishop name a value
    looks: bool = False  # Cardinal looks at one of the two hands it traded
    effect: str = ""


CARDS: dict[CardName, Card] = {
    c.name: c
    for c in (
        Card("guard", "Guard", 1, 5, 3, "another", True,
             effect="Name a value other than 1; a player holding it is knocked out."),
        Card("priest", "Priest", 2, 2, 0, "another", effect="Look at another player's hand."),
        Card("baron", "Baron", 3, 2, 0, "another",
             effect="Compare hands in secret; the lower value is knocked out."),
        Card("handmaid", "Handmaid", 4, 2, 0,
             effect="Other players' cards cannot choose you until your next turn."),
        Card("prince", "Prince", 5, 2, 0, "anyone",
             effect="A player discards the hand (no effect, but the Princess) and draws."),
        Card("king", "King", 6, 1, 0, "another", effect="Trade hands with another player."),
        Card("countess", "Countess", 7, 1, 0,
             effect="Must be played when held with the King or a Prince."),
        Card("princess", "Princess", 8, 1, 0, effect="Whoever discards her is knocked out."),
        Card("bishop", "Bishop", 9, 0, 1, "another", True,
             effect="Name a value; right, you gain a token and they may discard and draw."),
        Card("dowager_queen", "Dowager Queen", 7, 0, 1, "another",
             effect="Compare hands in secret; the higher value is knocked out."),
        Card("constable", "Constable", 6, 0, 1,
             effect="Knocked out while he lies in your discards, you gain a token."),
        Card("count", "Count", 5, 0, 2,
             effect="Each Count in your discards adds 1 to your hand at round end."),
        Card("sycophant", "Sycophant", 4, 0, 2, "anyone",
             effect="The next card played must choose this player if it can."),
        Card("baroness", "Baroness", 3, 0, 2, "one_or_two_others",
             effect="Look at the hands of one or two other players."),
        Card("cardinal", "Cardinal", 2, 0, 2, "two_players", looks=True,
             effect="Two players trade hands; look at one of those hands."),
        Card("jester", "Jester", 0, 0, 1, "another",
             effect="If the chosen player wins the round, you gain a token."),
        Card("assassin", "Assassin", 0, 0, 1,
             effect="A Guard played on you knocks its player out instead."),
    )
}  # fmt: skip

ROYALS: frozenset[CardName] = frozenset({"king", "prince"})
"""The cards that force the Countess to be played."""


def card_id(name: CardName, copy: int) -> CardId:
    return f"ll-{name.replace('_', '-')}-{copy}"


def name_of(card: CardId) -> CardName:
    stem = card[len("ll-") : card.rindex("-")].replace("-", "_")
    return _NAMES[stem]


def value_of(card: CardId) -> int:
    return CARDS[name_of(card)].value


def title_of(card: CardId) -> str:
    return CARDS[name_of(card)].title


def deck(premium: bool) -> list[CardId]:
    """Every card of the deck, in a fixed order (the shuffle is recorded in an event)."""
    out: list[CardId] = []
    for c in CARDS.values():
        copies = c.classic + (c.premium if premium else 0)
        out += [card_id(c.name, i) for i in range(1, copies + 1)]
    return out


def guessable_values(premium: bool) -> tuple[int, ...]:
    """The values a Guard or Bishop may name: every value of the deck but 1."""
    return tuple(sorted({c.value for c in CARDS.values() if c.classic or premium} - {1}))


_NAMES: dict[str, CardName] = {name: name for name in CARDS}
