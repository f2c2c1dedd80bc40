"""How fast one player may ask: a token bucket per player, in each gateway process.

A platform's client that loops on a failing request, or a player who scripts one, would
otherwise have the gateway send as many commands as it can carry, and every table it
opens stays in Redis. Each signed request takes a token from its player's bucket, which
refills at `rate` a second up to `burst`; an empty bucket answers 429 with how long to
wait. Opening a table takes from a second, slower bucket. The buckets live in the
process (a Redis round trip a request would cost more than the check): with several
gateway processes a player's limit is per process its connections reach. Bots are not
limited here: they play through the client library, not over HTTP.

A WebSocket's connect takes a token too (a client reconnecting in a loop is slowed like
one asking in a loop), and `Sockets` bounds how many one player holds open at once:
each costs the process memory and a share of every push.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterator

from litestar.exceptions import TooManyRequestsException


class SlowDown(TooManyRequestsException):
    """A 429 that knows whose bucket was empty: the operator's log line names them."""

    def __init__(self, player: str, detail: str, *, retry_after: int) -> None:
        super().__init__(detail=detail, headers={"Retry-After": str(retry_after)})
        self.player = player


class Limits:
    """Token buckets by player: `rate` a second, at most `burst` saved up (rate 0: no
    limit). A full bucket is forgotten, so memory follows the players asking now."""

    def __init__(
        self,
        rate: float,
        burst: float,
        *,
        what: str = "requests",
        clock: Callable[[], float] = time.monotonic,
        most: int = 100_000,
    ) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.what = what
        self._clock = clock
        self._most = most
        # player -> [tokens left, when counted]
        self._buckets: dict[str, list[float]] = {}

    def wait(self, player: str) -> float:
        """Take a token for `player`: 0 when there was one, else the seconds until one."""
        if self.rate <= 0:
            return 0.0
        now = self._clock()
        bucket = self._buckets.get(player)
        if bucket is None:
            if len(self._buckets) >= self._most:
                self._forget_full(now)
            self._buckets[player] = [self.burst - 1, now]
            return 0.0
        tokens = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
        bucket[1] = now
        if tokens >= 1:
            bucket[0] = tokens - 1
            return 0.0
        bucket[0] = tokens
        return (1 - tokens) / self.rate

    def check(self, player: str) -> None:
        """`wait`, refusing with 429 (and `Retry-After`) when the bucket is empty."""
        seconds = self.wait(player)
        if seconds > 0:
            raise self.refusal(seconds, player)

    def refusal(self, seconds: float, player: str = "") -> SlowDown:
        """The 429 for a wait of `seconds`."""
        return SlowDown(player, self.sentence(seconds), retry_after=max(1, math.ceil(seconds)))

    def sentence(self, seconds: float) -> str:
        """What the player is told: the limit, and when to try again."""
        per = f"{self.rate:g} {self.what} a second"
        if self.rate < 1:
            per = f"{self.rate * 60:g} {self.what} a minute"
        return f"Slow down: at most {per} (bursts of {self.burst:g}); try again in {seconds:.1f} s."

    def _forget_full(self, now: float) -> None:
        full_after = self.burst / self.rate
        self._buckets = {p: b for p, b in self._buckets.items() if now - b[1] < full_after}


class Sockets:
    """Open WebSockets by player in this process, at most `most` each (0: no limit)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._open: dict[str, int] = {}

    @contextlib.contextmanager
    def hold(self, player: str) -> Iterator[bool]:
        """One more socket of `player`'s for the block; False (and nothing held) when
        they hold as many as they may already."""
        count = self._open.get(player, 0)
        if self.most and count >= self.most:
            yield False
            return
        self._open[player] = count + 1
        try:
            yield True
        finally:
            left = self._open[player] - 1
            if left:
                self._open[player] = left
            else:
                del self._open[player]

    def refusal(self) -> str:
        return (
            f"Too many open connections: one player holds at most {self.most} at once; "
            "close one first."
        )
