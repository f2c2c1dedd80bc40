"""The door of the command service: one stream entry read and checked, or refused.

Whatever is wrong with an entry (no field `c`, bytes that are not UTF-8 or not JSON,
wrong types, unknown tags, nesting deep enough to exhaust the decoder, sizes past the
`Limits`) comes out as a `Refusal` with a code and a reason, for that entry alone. A
refusal says whom to answer when the entry names a valid reply stream; otherwise the
command service keeps it as a dead letter. Nothing here raises.
"""

from __future__ import annotations

import hashlib
import re

import msgspec

from domain import match as m
from events.keys import REPLY_PREFIX
from services.contracts.messages import (
    COMMAND_DECODER,
    COMMAND_FIELD,
    ENCODER,
    REPLY_TO_DECODER,
    CommandMessage,
    Limits,
    ReplyTo,
)

ID = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
# Both ids in one match (a space is in neither): one regex call per command, not two.
IDS = re.compile(r"[A-Za-z0-9_.:-]{1,128} [A-Za-z0-9_.:-]{1,128}")
ID_RULE = "A match id and a command id are each 1-128 letters, digits or '_.:-'."
# No name may hold controls, line separators or lone surrogates: names are printed.
UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
# How deep an unreadable command is unfolded to find whom to answer.
ANSWER_DEPTH = 16
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')


class Refusal(msgspec.Struct, frozen=True):
    """An entry that will not be decided: why, and whom to tell (None: nobody)."""

    code: str
    reason: str
    where: ReplyTo | None


def read_entry(fields: dict[bytes, bytes], limits: Limits) -> CommandMessage | Refusal:
    """The command an entry carries, or why it will not be decided."""
    raw = fields.get(COMMAND_FIELD)
    if raw is None:
        return Refusal("malformed_command", "A command entry carries its JSON in field c.", None)
    if len(raw) > limits.command_bytes:
        return Refusal(
            "too_large",
            f"A command is at most {limits.command_bytes} bytes; this one is {len(raw)}.",
            answerable(raw, limits),
        )
    try:
        message = COMMAND_DECODER.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError) as err:
        reason = f"That command could not be read: {err}."
        return Refusal("malformed_command", reason, answerable(raw, limits))
    except RecursionError:
        reason = "That command is nested too deeply to be read."
        return Refusal("malformed_command", reason, answerable(raw, limits))
    if not _reply_stream(message.reply_to, limits):
        reason = f"reply_to must name a {REPLY_PREFIX}* stream of at most {limits.reply_to_chars}"
        return Refusal("bad_reply_to", reason + " characters.", None)
    if not IDS.fullmatch(f"{message.match_id} {message.command_id}"):
        return Refusal("bad_id", ID_RULE, _where(message))
    problem = field_problem(message.command, limits)
    if problem is not None:
        return Refusal("bad_field", problem, _where(message))
    return message


def field_problem(command: m.MatchCommand, limits: Limits) -> str | None:
    """What is wrong with a decoded command's fields, in a sentence, or None."""
    player = getattr(command, "player", None)
    if player is not None and not (
        0 < len(player) <= limits.name_chars
        # isprintable is quick and holds for most names; it also refuses some a
        # name may hold (a no-break space, an emoji's joiner), so look closer then.
        and (player.isprintable() or not UNPRINTABLE.search(player))
    ):
        return f"A player's name is 1 to {limits.name_chars} printable characters."
    if isinstance(command, m.PlayMove):
        if len(command.move) > limits.move_bytes:
            return f"A move is at most {limits.move_bytes} bytes of JSON."
    elif isinstance(command, m.CreateMatch):
        if len(command.game) > limits.game_chars:
            return f"A game's name is at most {limits.game_chars} characters."
        if command.options and len(ENCODER.encode(command.options)) > limits.options_bytes:
            return f"A match's options are at most {limits.options_bytes} bytes of JSON."
    return None


def answerable(raw: bytes, limits: Limits) -> ReplyTo | None:
    """Whom to answer about an entry that cannot be decided, if it names a reply stream.

    The ids are cut to their longest valid length: they are only echoed back."""
    try:
        where = REPLY_TO_DECODER.decode(raw)
    except RecursionError:
        if len(raw) > limits.command_bytes:
            return None
        try:
            where = REPLY_TO_DECODER.decode(shallow(raw, ANSWER_DEPTH))
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
            return None
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    if not _reply_stream(where.reply_to, limits):
        return None
    return ReplyTo(where.command_id[:128], where.match_id[:128], where.reply_to)


def shallow(raw: bytes, depth: int) -> bytes:
    """The JSON with every array or object nested deeper than `depth` replaced by null.

    msgspec cannot even skip a value nested past Python's recursion limit; this walks
    the brackets without recursing (strings are matched whole, so brackets in them
    do not count). Unbalanced input stays unbalanced and fails to decode."""
    out: list[bytes] = []
    level = cut = start = 0
    for token in _TOKEN.finditer(raw):
        first = token.group()[0]
        if first in b"[{":
            level += 1
            if level == depth + 1:
                start = token.start()
        elif first in b"]}":
            if level == depth + 1:
                out += [raw[cut:start], b"null"]
                cut = token.end()
            level -= 1
    out.append(raw[cut:])
    return b"".join(out)


def command_digest(message: CommandMessage) -> str:
    """What makes a command the same command: its body, not when or where it was sent.

    Stored with the command id, so an id sent again with another body is told apart
    from a retry of the same command."""
    return hashlib.blake2b(ENCODER.encode(message.command), digest_size=16).hexdigest()


def _where(message: CommandMessage) -> ReplyTo:
    return ReplyTo(message.command_id[:128], message.match_id[:128], message.reply_to)


def _reply_stream(name: str, limits: Limits) -> bool:
    return name.startswith(REPLY_PREFIX) and len(name) <= limits.reply_to_chars
