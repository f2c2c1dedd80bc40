"""The Yokai Pagoda table. Secrets are grouped: hands, deck, failed offerings; plus who
knows which secret card (a gift's giver, a card taken from a pile, a shown hand)."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.yokaipagoda.cards import CardId, Pile
from domain.kernel import Seat

Phase = Literal["setup", "play", "give", "take", "decide", "between", "over"]
"""play: offer a card; give / take / decide: resolve its effect; between: a round is
over and the next one waits to be dealt; over: scored."""


class YokaiPagodaOptions(msgspec.Struct, forbid_unknown_fields=True):
    must_give: bool = False
    """False: after a match you may give a card (publisher's wording "allows you");
    True: you must (a review's wording)."""


class Table(msgspec.Struct):
    seats: int
    options: YokaiPagodaOptions
    phase: Phase = "setup"
    round: int = 0
    player: Seat = 0
    played_on: Pile | None = None
    """The pile the current player offered on this turn (the other one may be taken from)."""
    piles: dict[str, list[CardId]] = {}
    """The offering piles, bottom to top (face up: public)."""
    hands: list[list[CardId]] = []
    deck: list[CardId] = []
    """The Pagoda deck, sorted: its order is secret, so a draw is a random card of it."""
    failed: list[list[CardId]] = []
    """Each player's face-down failed offerings."""
    public: list[CardId] = []
    """Cards in hands or failed offerings that every seat can identify."""
    known: list[list[CardId]] = []
    """Per seat, cards in other hands or failed offerings that this seat can identify."""
    conceded: list[Seat] = []
