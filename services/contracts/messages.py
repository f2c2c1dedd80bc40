"""What travels on the command and reply streams, as msgspec Structs.

A command is one stream entry with a single field `c` holding the JSON of a
`CommandMessage`; its reply is an entry with a field `r` holding a `Reply`, added to
the stream the command names in `reply_to`. Commands are decoded strictly (unknown
fields rejected); replies and events are read leniently so they can grow.

`Limits` bounds what a command may carry; the command service refuses an entry past
them (`too_large`, `bad_field`) before deciding it, so nothing oversized reaches the log
or the read models, which copy names into many keys.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.match import MatchCommand

COMMAND_FIELD = b"c"
REPLY_FIELD = b"r"


class CommandMessage(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    command_id: str
    match_id: str
    reply_to: str
    command: MatchCommand
    sent_at: float = 0.0  # the sender's clock, for latency measurement only


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """The largest command the service takes (settings: TABLETOP_MAX_*)."""

    command_bytes: int = 64 * 1024  # the whole entry's JSON
    name_chars: int = 64  # a player's name
    game_chars: int = 64  # a game's name in match.create
    options_bytes: int = 4 * 1024  # match.create's options, as JSON
    move_bytes: int = 16 * 1024  # match.play's move, as JSON
    reply_to_chars: int = 200  # the reply stream's name


class ReplyTo(msgspec.Struct):
    """The little that can be read from a command too broken to decode."""

    command_id: str = ""
    match_id: str = ""
    reply_to: str = ""


class Reply(msgspec.Struct, kw_only=True, omit_defaults=True):
    command_id: str
    match_id: str
    status: Literal["accepted", "rejected", "duplicate"]
    version: int = 0
    events: list[msgspec.Raw] = []  # redacted for the sender's seat
    code: str = ""
    message: str = ""
    original_status: str = ""  # on a duplicate: what the first delivery answered
    sent_at: float = 0.0


COMMAND_DECODER = msgspec.json.Decoder(CommandMessage)
REPLY_TO_DECODER = msgspec.json.Decoder(ReplyTo)
REPLY_DECODER = msgspec.json.Decoder(Reply)
ENCODER = msgspec.json.Encoder()
