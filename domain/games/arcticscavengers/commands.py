"""What a player may ask for: one small step at a time, so `legal` stays short.

Gathering: play cards one by one into one action (dig, draw, hunt, trash), then perform
it; medicine is played towards a hire; hiring itself is one command. Skirmish: each
sniper team and saboteur acts on its own, then the player ends their declarations.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.games.arcticscavengers.cards import Mercenary

Action = Literal["dig", "draw", "hunt", "hire", "trash"]


class PlayCard(
    msgspec.Struct,
    tag="arcticscavengers.play_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Put a hand card into an action: a person, a tool or Group Leaders riding on a person,
    medicine towards the hire, or any card onto the trash."""

    card: str
    action: Action


class PerformAction(
    msgspec.Struct,
    tag="arcticscavengers.perform_action",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Carry out the action the played cards make up (dig, draw, hunt or trash)."""


class KeepDugCard(
    msgspec.Struct,
    tag="arcticscavengers.keep_dug_card",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Keep one of the junkyard cards you dug up (None: keep nothing)."""

    card: str | None


class HireMercenary(
    msgspec.Struct,
    tag="arcticscavengers.hire_mercenary",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    kind: Mercenary


class EndGathering(
    msgspec.Struct,
    tag="arcticscavengers.end_gathering",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Stop gathering; from round 3 the cards left in hand go face down to the skirmish."""


class Snipe(
    msgspec.Struct,
    tag="arcticscavengers.snipe",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    sniper: str
    target: str


class Sabotage(
    msgspec.Struct,
    tag="arcticscavengers.sabotage",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    saboteur: str
    tool: str


class EndSkirmishActions(
    msgspec.Struct,
    tag="arcticscavengers.end_skirmish_actions",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Declare no more sniper or saboteur actions this skirmish."""


Command = (
    PlayCard
    | PerformAction
    | KeepDugCard
    | HireMercenary
    | EndGathering
    | Snipe
    | Sabotage
    | EndSkirmishActions
)
