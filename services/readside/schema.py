"""The read models' schema: what the projector writes and readers decode.

Its own module so readers (ReadModels, the AsyncAPI document, other services) depend
on the shapes, not on the projector that computes them.
"""

from __future__ import annotations

from typing import Any, Literal

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
    rematch: str = ""  # the id of this match's rematch, once agreed
    rematch_of: str = ""  # the match this one is the rematch of
    unlisted: bool = False  # in no lobby: found by its id (a link its players give)


class HistoryLine(msgspec.Struct, omit_defaults=True):
    """One move as one reader may see it, with its sentence for that reader. Worked out
    from the match's events when the history is read (`ReadModels.history`), never
    stored."""

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
    # | seat_conceded | match_finished | match_forked | move_undone | rematch_offered
    # | rematch_accepted | rematch_declined | rematch_agreed | table_closed
    match_id: str
    version: int
    game: str
    at: int
    type: str
    event: msgspec.Raw
    text: str = ""


NoticeKind = Literal[
    "your_turn", "match_finished", "rematch_offered", "time_running_low", "table_closed"
]


class Notice(msgspec.Struct, kw_only=True, omit_defaults=True, frozen=True):
    """Something one player should hear about (schema `tabletop.notice/1`), on the
    partition's notice stream `tt:{p}:notices` (field `n`) and in the player's inbox.

    `id` is `<match>:<version>:<kind>:<player>`: the same notice always has the same id,
    so a receiver that sees one twice (a webhook retried) can drop the second."""

    schema: str = "tabletop.notice/1"
    id: str
    kind: NoticeKind
    player: str
    match_id: str
    game: str
    version: int
    at: int  # ms since the epoch, Redis's clock when the event was appended
    text: str = ""
    # match_finished: the player's rank (1 = first); rematch_offered: the new match's
    # id; time_running_low: the seconds the player has left.
    rank: int | None = None
    rematch_id: str | None = None
    seconds_left: int | None = None
    # rematch_offered: who offered, by id. The text names them by it too; the gateway
    # tells its players the display name instead.
    by: str | None = None
