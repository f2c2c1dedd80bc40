"""The Five Pairs table: options and state. Secrets are the hands and the deck."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel import Seat

from .cards import CardId

Phase = Literal["dealing", "play", "discard", "round_over", "game_over"]
"""`play`: pair or draw; `discard`: after drawing two, put one in the common area."""


class Options(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    discard_from: Literal["hand", "drawn"] = "hand"
    """After drawing two, the card put in the common area is any card in hand
    (ASSUMPTION, the default) or one of the two just drawn."""


class State(msgspec.Struct):
    seats: int
    options: Options
    phase: Phase = "dealing"
    round: int = 0
    starter: Seat = 0
    turn: Seat = 0
    hands: list[list[CardId]] = []
    """Secret: each player's cards (the conceded keep theirs face down, out of play)."""
    deck: list[CardId] = []
    """Secret: drawn from the end."""
    common: list[CardId] = []
    """The face-up common area."""
    drawn: list[CardId] = []
    """The cards drawn by the current draw-two move (read by `discard_from="drawn"`)."""
    pairs: list[list[tuple[CardId, CardId]]] = []
    """This round's pairs in front of each player: (hand card, common card)."""
    round_points: list[int] = []
    token_holder: Seat | None = None
    token_flipped: bool = False
    totals: list[int] = []
    history: list[list[int]] = []
    """Each finished round's points per seat, token included."""
    conceded: list[Seat] = []
