"""structlog as JSON lines, with match id and command id bound per command."""

from __future__ import annotations

import logging
import sys

import msgspec
import structlog

_configured = False


def configure(level: str = "INFO", stream: str = "stderr") -> None:
    global _configured
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
