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
    _route_strays()


class _JsonHandler(logging.Handler):
    """Records of stdlib loggers (uvicorn, asyncio, redis-py) as the same JSON lines, so
    an operator's log reader never meets a bare traceback."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            fields: dict[str, object] = {"logger": record.name}
            if record.exc_info:
                fields["exception"] = logging.Formatter().formatException(record.exc_info)
            structlog.get_logger(record.name).log(record.levelno, record.getMessage(), **fields)
        except Exception:  # a log line must never take the service down
            self.handleError(record)


def _route_strays() -> None:
    root = logging.getLogger()
    if not any(isinstance(h, _JsonHandler) for h in root.handlers):
        root.addHandler(_JsonHandler())
    root.setLevel(logging.WARNING)
    logging.captureWarnings(True)
    log = structlog.get_logger("tabletop")

    def unraisable(hook: sys.UnraisableHookArgs) -> None:
        exc = hook.exc_value
        log.warning(
            "unraisable_exception",
            error=repr(exc),
            where=repr(hook.object) if hook.object is not None else None,
            exc_info=(type(exc), exc, hook.exc_traceback) if exc is not None else None,
        )

    def uncaught(kind: type[BaseException], exc: BaseException, tb: object) -> None:
        log.critical("uncaught_exception", error=repr(exc), exc_info=(kind, exc, tb))

    sys.unraisablehook = unraisable
    sys.excepthook = uncaught


def _plain(value: object) -> bool:
    return isinstance(value, str | int | float | bool | type(None) | list | dict)
