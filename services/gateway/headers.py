"""Headers every answer of the gateway carries, for the browser holding a player's token.

The pages keep the token in the browser's storage, so a script injected into them, or a
page that frames them and steers a click onto "Concede", could act as the player. The
pages draw every string as text, never as markup; these headers are the second fence:
only the gateway's own scripts, styles and sockets run (Content-Security-Policy), no
other site may frame a page unless the operator names it (`frame-ancestors`), a reply
is read as the type it says (nosniff), and nothing signed in is kept by a cache.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from litestar.config.cors import CORSConfig

from services.infra.config import ConfigError

Send = Callable[[Any], Awaitable[None]]  # an ASGI send, as Litestar types it

# A source list of CSP: schemes, hosts and keywords, separated by spaces. What would end
# the directive or the header (`;`, `,`, a line break) is refused, not escaped.
_SOURCES = re.compile(r"[A-Za-z0-9*:/.\-' ]+")


def frame_ancestors(value: str) -> str:
    """Who may frame the pages, as the operator wrote it, or a ConfigError saying why."""
    if not value.strip() or not _SOURCES.fullmatch(value):
        raise ConfigError(
            f"TABLETOP_FRAME_ANCESTORS is {value!r}: give CSP sources separated by spaces, "
            "such as 'self' https://platform.example ('none': no site may frame the pages)"
        )
    return " ".join(value.split())


# An origin as a browser sends it: a scheme, a host, an optional port; no path, no
# wildcard (a pattern would let in hosts the operator never meant).
_ORIGIN = re.compile(r"https?://[a-z0-9.\-]+(:[0-9]{1,5})?")


def cors_origins(value: str) -> tuple[str, ...]:
    """The other sites whose pages may call the API, as the operator wrote them, or a
    ConfigError saying why not."""
    origins = tuple(value.lower().split())
    for origin in origins:
        if not _ORIGIN.fullmatch(origin):
            raise ConfigError(
                f"TABLETOP_CORS_ORIGINS names {origin!r}: give origins separated by spaces, "
                "such as https://play.example (a scheme and a host, an optional port, "
                "no path and no wildcard)"
            )
    return origins


def cors(origins: tuple[str, ...]) -> CORSConfig | None:
    """What a page of another site may ask of the API; None: nothing (same site only).

    The token travels in `Authorization`, never in a cookie, so no credentials are
    allowed. Nor is the platform's secret header: it belongs on the platform's servers,
    and a browser that asks to send it is refused at the preflight."""
    if not origins:
        return None
    return CORSConfig(
        allow_origins=list(origins),
        allow_methods=["GET", "HEAD", "POST"],
        allow_headers=["authorization", "content-type"],
        expose_headers=["Retry-After"],
        max_age=600,
    )


def cross_origin(config: CORSConfig | None, origin: str | None) -> list[tuple[bytes, bytes]]:
    """The headers that let a page of `origin` read an answer Litestar does not send
    (a move's); none for a site the operator did not name."""
    if config is None or not origin or not config.is_origin_allowed(origin):
        return []
    return [
        (b"access-control-allow-origin", origin.encode()),
        (b"access-control-expose-headers", b"Retry-After"),
        (b"vary", b"Origin"),
    ]


def security(ancestors: str) -> list[tuple[bytes, bytes]]:
    """The headers of every answer."""
    policy = (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        f"form-action 'self'; frame-ancestors {ancestors}"
    )
    return [
        (b"content-security-policy", policy.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
    ]


NO_STORE = (b"cache-control", b"no-store")


def guarded(send: Send, headers: list[tuple[bytes, bytes]], api: bool) -> Send:
    """`send`, adding `headers` to the response's head; an API answer, which may hold
    what only its caller may read, is also marked not to be stored unless it says how."""

    async def with_headers(message: Any) -> None:
        if message["type"] == "http.response.start":
            given = list(message.get("headers", ()))
            given += headers
            if api and not any(k.lower() == b"cache-control" for k, _ in given):
                given.append(NO_STORE)
            message["headers"] = given
        await send(message)

    return with_headers
