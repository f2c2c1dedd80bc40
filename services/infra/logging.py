"""structlog as JSON lines, with match id and command id bound per command."""

from __future__ import annotations

import logging
import os
import sys

import msgspec
import structlog

from services.infra.config import ConfigError

LEVELS = ("debug", "info", "warning", "error", "critical")

_configured = False


def level_from_env(default: str) -> str:
    """`TABLETOP_LOG`, or `default`; a name that is not a level raises ConfigError."""
    level = os.environ.get("TABLETOP_LOG") or default
    if level.lower() not in LEVELS:
        raise ConfigError(f"TABLETOP_LOG={level!r}: give one of {', '.join(LEVELS)}")
    return level


def configure(level: str = "INFO", stream: str = "stderr") -> None:
    global _configured
    if level.lower() not in LEVELS:
        raise ConfigError(f"log level {level!r}: give one of {', '.join(LEVELS)}")
    if _configured:
        return
    _configured = True
    encoder = msgspec.json.Encoder()

    def serialize(event: dict[str, object], **_: object) -> bytes:
        return encoder.encode({k: v if _plain(v) else repr(v) for k, v in event.items()})

    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.format_exc_info,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.JSONRenderer(serializer=serialize),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(getattr(logging, level.upper())),
        logger_factory=structlog.BytesLoggerFactory(
            file=(sys.stderr if stream == "stderr" else sys.stdout).buffer
        ),
        cache_logger_on_first_use=True,
    )


def _plain(value: object) -> bool:
    return isinstance(value, str | int | float | bool | type(None) | list | dict)
