"""The AsyncAPI document of every stream, generated from the message Structs.

`python -m services.contracts.asyncapi > docs/asyncapi.yaml` writes it; a test fails when the
committed file is stale.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from domain.match import MatchCommand
from services.contracts.messages import CommandMessage, Reply
from services.readside.schema import PublicEvent

VERSION = "1.0.0"


class LogEntry(msgspec.Struct):
    """Fields of an entry of `tt:{p}:log`: what projectors read."""

    m: str  # match id
    v: int  # version
    t: str  # event type (its tag)
    d: msgspec.Raw  # the event's JSON
    c: str  # command id
    at: int  # recorded at, unix ms
    s: int  # schema version


class MatchEntry(msgspec.Struct):
    """Fields of an entry of `tt:{p}:match:<id>` (entry id `0-<version>`): the record."""

    t: str  # event type (its tag)
    d: msgspec.Raw  # the event's JSON
    c: str  # command id
    at: int  # recorded at, unix ms
    s: int  # schema version
    pv: str  # previous envelope's hash
    h: str  # this envelope's hash
    x: msgspec.Raw  # the command (first event of a decision), else null


def build() -> dict[str, Any]:
    _, components = msgspec.json.schema_components(
        [CommandMessage, Reply, PublicEvent, LogEntry, MatchEntry, MatchCommand],
        ref_template="#/components/schemas/{name}",
    )

    def message(name: str, title: str, summary: str) -> dict[str, Any]:
        return {
            "name": name,
            "title": title,
            "summary": summary,
            "contentType": "application/json",
            "payload": {"$ref": f"#/components/schemas/{name}"},
        }

    def channel(address: str, description: str, msg: str) -> dict[str, Any]:
        return {
            "address": address,
            "description": description,
            "messages": {msg: {"$ref": f"#/components/messages/{msg}"}},
        }

    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "tabletop streams",
            "version": VERSION,
            "description": (
                "Redis Streams of the tabletop game server. {p} is a partition (crc32 of "
                "the match id modulo the partition count), used as a Redis Cluster hash tag."
            ),
        },
        "defaultContentType": "application/json",
        "channels": {
            "commands": channel(
                "tt:{p}:commands",
                "Commands, one per entry in the field `c`; read by the command service "
                "through the consumer group tt-commands.",
                "CommandMessage",
            ),
            "replies": channel(
                "{reply_to}",
                "The reply to each command, in the field `r`, on the stream the command names.",
                "Reply",
            ),
            "log": channel(
                "tt:{p}:log",
                "Every event of the partition in commit order (no hash chain, no command: "
                "those are in the match stream); hidden information included: internal "
                "readers only.",
                "LogEntry",
            ),
            "match": channel(
                "tt:{p}:match:{match_id}",
                "One match's events by version (entry id 0-<version>), each chained to its "
                "predecessor by hash and carrying its command: what replay and audit read. "
                "Hidden information included: internal readers only.",
                "MatchEntry",
            ),
            "public": channel(
                "tt:{p}:public",
                "Every event as a spectator may see it (field `e`), schema tabletop.public/1; "
                "integrations read it with their own consumer groups.",
                "PublicEvent",
            ),
        },
        "operations": {
            "sendCommand": {"action": "send", "channel": {"$ref": "#/channels/commands"}},
            "receiveReply": {"action": "receive", "channel": {"$ref": "#/channels/replies"}},
            "followLog": {"action": "receive", "channel": {"$ref": "#/channels/log"}},
            "followPublic": {"action": "receive", "channel": {"$ref": "#/channels/public"}},
        },
        "components": {
            "messages": {
                "CommandMessage": message(
                    "CommandMessage", "A command", "One command for one match."
                ),
                "Reply": message("Reply", "A reply", "accepted, rejected or duplicate."),
                "LogEntry": message("LogEntry", "A log entry", "One event, for projectors."),
                "MatchEntry": message("MatchEntry", "A match entry", "One stored event."),
                "PublicEvent": message("PublicEvent", "A public event", "One redacted event."),
            },
            "schemas": components,
        },
    }


def to_yaml(value: Any, indent: int = 0) -> str:
    """A small YAML writer for JSON-like data (strings quoted as JSON, which YAML reads)."""
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        lines = []
        for k, v in value.items():
            key = json.dumps(str(k))
            if isinstance(v, dict | list) and v:
                lines.append(f"{pad}{key}:\n{to_yaml(v, indent + 1)}")
            else:
                lines.append(f"{pad}{key}: {to_yaml(v, indent + 1)}")
        return "\n".join(lines)
    if isinstance(value, list):
        if not value:
            return "[]"
        lines = []
        for v in value:
            if isinstance(v, dict | list) and v:
                inner = to_yaml(v, indent + 1).lstrip()
                lines.append(f"{pad}- {inner}")
            else:
                lines.append(f"{pad}- {to_yaml(v, indent + 1)}")
        return "\n".join(lines)
    return json.dumps(value)


def render() -> str:
    return (
        "# Generated by `python -m services.contracts.asyncapi`; do not edit.\n"
        + to_yaml(build())
        + "\n"
    )


if __name__ == "__main__":
    print(render(), end="")
