"""Player tokens: signed (HMAC-SHA256), expiring, naming one player id and display name.

The platform in front owns accounts; it proves itself with the shared secret and gets a
token for a player it vouches for. Every command the gateway sends is sent as the
token's player, so the token is the whole of a player's authority here.
"""

from __future__ import annotations

import hashlib
import re
import time
import unicodedata
from collections.abc import Callable
from typing import Annotated

import jwt
import msgspec

ALGORITHM = "HS256"
ID_PATTERN = r"^[A-Za-z0-9_.:@-]{1,64}$"
PlayerId = Annotated[str, msgspec.Meta(pattern=ID_PATTERN)]
DisplayName = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
VERIFIED_KEPT = 20_000
MIN_SECRET_CHARS = 32  # HMAC-SHA256 wants a key as long as its hash
ENDED = "Your sign-in was ended; sign in again."
TOKEN_TTL = 12 * 3600  # seconds a token holds
_NOT_A_SLUG = re.compile(r"[^a-z0-9]+")


class Player(msgspec.Struct, frozen=True):
    id: str
    name: str


class BadToken(Exception):
    """A missing, forged or expired token; the message says which, for a person."""


class Tokens:
    def __init__(
        self,
        secret: str,
        ttl_seconds: int = TOKEN_TTL,
        ended: Callable[[str, int, str], bool] | None = None,
    ) -> None:
        if len(secret) < MIN_SECRET_CHARS:
            raise ValueError(
                f"the gateway secret must be at least {MIN_SECRET_CHARS} characters (HMAC-SHA256)"
            )
        self._secret = secret
        self.ttl_seconds = ttl_seconds
        # Whether a player's sign-in issued at a time (ms), of that id, has been ended
        # (signouts.py).
        self._ended = ended or (lambda player, issued_ms, sign_in: False)
        # Tokens already verified, with their expiry: a player's every request carries
        # the same token, and checking its signature again was a tenth of a request's
        # cost. A token is a string the secret signed; the same string, the same claims.
        self._verified: dict[str, tuple[Player, float, int, str]] = {}

    def issue(self, player: Player, now: float | None = None, issued_ms: int | None = None) -> str:
        """A token for the player. `issued_ms`: the issue on the clock that times ended
        sign-ins (Redis's); `iat` and `exp` stay on this process's, which checks them."""
        at = time.time() if now is None else now
        issued = int(at)
        # `t`: the issue in ms, finer than `iat`, so a sign-in just after the player's
        # sign-ins were ended is not taken for one of them.
        t = int(at * 1000) if issued_ms is None else issued_ms
        claims = {"sub": player.id, "name": player.name, "iat": issued, "t": t}
        claims["exp"] = issued + self.ttl_seconds
        return jwt.encode(claims, self._secret, algorithm=ALGORITHM)

    def read(self, token: str | None, now: float | None = None) -> Player:
        if not token:
            raise BadToken("Sign in first: this needs a player token (Authorization: Bearer).")
        known = self._verified.get(token)
        if known is not None:
            if (time.time() if now is None else now) >= known[1]:
                del self._verified[token]
                raise BadToken("Your sign-in has expired; sign in again.")
            if self._ended(known[0].id, known[2], known[3]):
                raise BadToken(ENDED)
            return known[0]
        try:
            claims = jwt.decode(
                token, self._secret, algorithms=[ALGORITHM], options={"require": ["exp", "sub"]}
            )
        except jwt.ExpiredSignatureError:
            raise BadToken("Your sign-in has expired; sign in again.") from None
        except jwt.PyJWTError:
            raise BadToken("That player token is not one this gateway issued.") from None
        player = Player(id=str(claims["sub"]), name=str(claims.get("name", claims["sub"])))
        issued_ms = int(claims.get("t", int(claims.get("iat", 0)) * 1000))
        one = sign_in_id(token)
        if self._ended(player.id, issued_ms, one):
            raise BadToken(ENDED)
        if len(self._verified) >= VERIFIED_KEPT:
            self._verified.pop(next(iter(self._verified)))  # the oldest first
        self._verified[token] = (player, float(claims["exp"]), issued_ms, one)
        return player

    def sign_in(self, token: str) -> tuple[int, str]:
        """When a token `read` just took was issued (ms), and its sign-in's id."""
        known = self._verified.get(token)
        if known is None:  # pushed out of the cache since: read it again
            self.read(token)
            known = self._verified[token]
        return known[2], known[3]


def sign_in_id(token: str) -> str:
    """A name for one sign-in (one token), to end it alone: a digest, so what is kept
    of it in Redis is no token."""
    return hashlib.sha256(token.encode()).hexdigest()[:32]


class BadName(ValueError):
    """A display name nobody could read, or one that would pass for someone else."""


# Characters that draw nothing or steer the text around them: controls, format marks
# (the right-to-left override would turn "‮Ann rolled 5" around, a zero-width space
# would make "Ann" and "Ann" two players), private-use and surrogate code points.
_HIDDEN = frozenset({"Cc", "Cf", "Co", "Cs"})
_READABLE = ("L", "N", "S")  # letters, digits, symbols (emoji): what a name is made of
# The table calls each reader "You" ("You rolled 5"): a player named so would read, to
# everyone else, as each of them.
RESERVED = frozenset({"you"})


def display_name(given: str) -> str:
    """The name shown for `given`: compatibility forms folded (NFKC: a full-width "Ｙｏｕ"
    is "You"), hidden characters dropped, every run of spaces and line breaks one space.
    BadName with a sentence when nothing readable is left, or it is a word the table
    keeps for itself."""
    # Line breaks and tabs (controls too) become spaces before the hidden ones go.
    spaced = " ".join(unicodedata.normalize("NFKC", given).split())
    name = " ".join("".join(c for c in spaced if unicodedata.category(c) not in _HIDDEN).split())
    if not any(unicodedata.category(c).startswith(_READABLE) for c in name):
        raise BadName("A name needs at least one letter, digit or symbol.")
    if name.casefold() in RESERVED:
        raise BadName(f"“{name}” is what the table calls each reader; choose another name.")
    return name[:32]


def dev_player_id(name: str) -> str:
    """The id the development sign-in gives a name: stable, so signing in again as the
    same name is the same player."""
    slug = _NOT_A_SLUG.sub("-", name.lower()).strip("-") or "player"
    return f"dev-{slug}"[:64]


def bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header."""
    if header and header.lower().startswith("bearer "):
        return header[7:].strip()
    return None
