"""The read models' schema: what the projector writes and readers decode.

Its own module so readers (ReadModels, the AsyncAPI document, other services) depend
on the shapes, not on the projector that computes them.
"""

from __future__ import annotations

from typing import Any

import msgspec


class Summary(msgspec.Struct, omit_defaults=True):
    """A match as the lobby and `tabletop show` list it (`tt:{p}:rm:match:<id>`)."""

    match_id: str
    game: str
    title: str
    seats: int
    options: dict[str, Any]
    players: list[str | None]
    status: str
    version: int
    created_at: int
    updated_at: int
    to_act: list[str] = []
    scores: list[int] = []
    ranks: list[int] = []
    free_seats: int = 0


class HistoryLine(msgspec.Struct, omit_defaults=True):
    """One move as one reader may see it. Its sentence is written when the history is
    read (`ReadModels.history`), for that reader only: the projector would otherwise
    describe every event once per seat, a third of its work. Lines stored before carry
    their sentence, and keep it.

    The spectator's list holds every line it may read; a seat's list only the lines
    that seat reads otherwise (its own secrets), and an `event` of null where it may
    not read the spectator's line: the reader merges the two by version."""

    version: int
    event: msgspec.Raw
    text: str = ""


class PlayerRating(msgspec.Struct):
    """One player's standing in one game (`tt:{ratings}:rating:<game>`)."""

    mu: float
    sigma: float
    played: int = 0
    won: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class PublicEvent(msgspec.Struct, kw_only=True):
    """One event as a spectator may see it (schema `tabletop.public/1`)."""

    schema: str = "tabletop.public/1"
    kind: str  # match_created | player_joined | player_left | match_started | move_played
    # | seat_conceded | match_finished | match_forked
    match_id: str
    version: int
    game: str
    at: int
    type: str
    event: msgspec.Raw
    text: str = ""
