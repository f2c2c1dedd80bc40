"""What a player may ask for: play a card, answer the Bishop, start the next round."""

from __future__ import annotations

import msgspec

from domain.games.loveletter.cards import CardName
from domain.kernel import Seat


class PlayCard(
    msgspec.Struct,
    tag="loveletter.play_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Discard one of your two cards and apply it.

    `targets` are the chosen players, in seat order; empty for a card that chooses
    nobody, and for a choosing card when nobody may be chosen (it is then played with
    no effect). `guess` is the value a Guard or Bishop names. `look_at` is the one of
    the Cardinal's two players whose hand you look at.
    """

    card: CardName
    targets: tuple[Seat, ...] = ()
    guess: int | None = None
    look_at: Seat | None = None


class KeepHand(
    msgspec.Struct,
    tag="loveletter.keep_hand",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After a right Bishop guess on you: keep your card."""


class DiscardHand(
    msgspec.Struct,
    tag="loveletter.discard_hand",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After a right Bishop guess on you: discard your card (no effect) and draw a new one."""


class StartNextRound(
    msgspec.Struct,
    tag="loveletter.start_next_round",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The starting player (the last round's winner) shuffles and deals the next round."""


Command = PlayCard | KeepHand | DiscardHand | StartNextRound
