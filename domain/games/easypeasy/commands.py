"""What an Easy Peasy player may ask for: one Struct per command."""

from __future__ import annotations

import msgspec

from domain.games.easypeasy.cards import Pile


class PlayCard(
    msgspec.Struct,
    tag="easypeasy.play_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Play a card from your hand, or face up on top of your row, onto a discard pile."""

    card: str
    pile: Pile


class DrawCards(
    msgspec.Struct,
    tag="easypeasy.draw_cards",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """The second action: draw two cards and flip the Up&Down card, then play a card."""


class RevealCard(
    msgspec.Struct,
    tag="easypeasy.reveal_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Bonus: turn face up the face-down card of one of your row's stacks (0 or 1 here;
    sentences and messages call them stack 1 and stack 2)."""

    stack: int


class FlipArrow(
    msgspec.Struct,
    tag="easypeasy.flip_arrow",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Bonus (with the `bonus="flip"` option): flip the Up&Down card."""


class EndTurn(
    msgspec.Struct,
    tag="easypeasy.end_turn",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Decline the bonus and end your turn."""


class NextRound(
    msgspec.Struct,
    tag="easypeasy.next_round",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After a round was scored: shuffle and deal the next one."""


Command = PlayCard | DrawCards | RevealCard | FlipArrow | EndTurn | NextRound
