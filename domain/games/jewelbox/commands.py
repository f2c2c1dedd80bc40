"""What a Jewel Box player may ask for, one Struct per command."""

from __future__ import annotations

import msgspec

from domain.games.jewelbox.beetles import BeetleId, Tool


class RollDie(
    msgspec.Struct,
    tag="jewelbox.roll_die",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Roll to collect the beetle on the matching log space (a 6: any of the five)."""


class TakeBeetle(
    msgspec.Struct,
    tag="jewelbox.take_beetle",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """After rolling a 6, take any face-up beetle from the log."""

    beetle: BeetleId


class UseMagnifier(
    msgspec.Struct,
    tag="jewelbox.use_magnifier",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Instead of rolling, take a face-up beetle (by id) or, with `beetle=None`, a face-down one."""

    token: Tool
    beetle: BeetleId | None = None


class UseForceps(
    msgspec.Struct,
    tag="jewelbox.use_forceps",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Swap two beetles of your box (ids sorted), before or after collecting."""

    token: Tool
    beetles: tuple[BeetleId, ...]


class PlaceBeetle(
    msgspec.Struct,
    tag="jewelbox.place_beetle",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Put the collected beetle in your box, touching one already there (0-based row, col)."""

    row: int
    col: int


class EndTurn(
    msgspec.Struct,
    tag="jewelbox.end_turn",
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
):
    """Pass the die without using the forceps after collecting."""


Command = RollDie | TakeBeetle | UseMagnifier | UseForceps | PlaceBeetle | EndTurn
