"""Turn clocks: the time control a match is created with, and how its clocks run.

Nothing here reads a clock. The time of each decision ("now", unix milliseconds) is an
input the command service takes from its own clock and records as the envelope's
`recorded_at`; the match writes what the clocks became as a `match.clocks_set` event,
so a replay folds the clocks back and an audit, re-deciding with the recorded times,
reproduces them byte for byte.

A clock runs for each seat that may act (several at once in a simultaneous choice) and
is not absent. Two controls:

- "move": every move has `seconds`; a seat's clock is set back to `seconds` after each
  move it makes and whenever it may not act (so it has them when its turn comes).
- "bank": a seat starts with `seconds` in its bank and spends it while it may act;
  `increment` seconds are added when its turn ends (it may no longer act).

"Real-time" and "turn-based" play are only sizes: 30 seconds a move, or 3 days a move.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Literal

import msgspec

from domain.kernel import Rejected, Seat

ExpiryRule = Literal["skip", "bot", "lose"]
"""What follows when a seat's time runs out: its turn is skipped (games with a `skip`
hook), a bot plays one move for it, or it loses (leaves the match, absent)."""

MAX_SECONDS = 90 * 24 * 3600
"""The longest limit or bank taken: 90 days, turn-based play's far end."""


class TimeControl(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """A match's time control, chosen at create (`CreateMatch.clock`); no clock: none."""

    kind: Literal["move", "bank"]
    seconds: int
    """A move's limit ("move"), or each seat's starting bank ("bank")."""
    increment: int = 0
    """"bank" only: seconds added to a seat's bank each time its turn ends."""
    expiry: ExpiryRule = "lose"


class Clocks(msgspec.Struct, kw_only=True):
    """Each seat's time as of `since` (ms), and the seats whose clock runs from then."""

    control: TimeControl
    remaining: list[int]
    running: list[Seat] = []
    since: int = 0

    def deadline(self, seat: Seat) -> int:
        """When `seat`'s time runs out, if its clock runs on (unix ms)."""
        return self.since + self.remaining[seat]

    def left(self, seat: Seat, now: int) -> int:
        """`seat`'s time left at `now` (ms, never below 0)."""
        spent = max(0, now - self.since) if seat in self.running else 0
        return max(0, self.remaining[seat] - spent)


class ClocksSet(msgspec.Struct, tag="match.clocks_set", tag_field="type", frozen=True):
    """What the clocks became after a decision at `at` (unix ms): each seat's time left
    then, and the seats whose clock runs from then on."""

    at: int
    remaining: tuple[int, ...]
    running: tuple[Seat, ...]


class TimeRanOut(msgspec.Struct, tag="match.time_ran_out", tag_field="type", frozen=True):
    """`seat`'s time ran out; `then` is what the match's time control makes of it."""

    player: str
    seat: Seat
    then: ExpiryRule


def check(control: TimeControl, *, can_skip: bool, title: str) -> None:
    """Refuses a time control that is out of range or that this game cannot follow."""
    if not 1 <= control.seconds <= MAX_SECONDS:
        raise Rejected(
            "bad_clock",
            f"A clock's time is 1 second to {MAX_SECONDS // 86400} days, "
            f"not {control.seconds} seconds.",
        )
    if not 0 <= control.increment <= MAX_SECONDS:
        raise Rejected(
            "bad_clock",
            f"An increment is 0 to {MAX_SECONDS // 86400} days, not {control.increment} seconds.",
        )
    if control.kind == "move" and control.increment:
        raise Rejected(
            "bad_clock", "A limit per move has no increment; a time bank with an increment has."
        )
    if control.expiry == "skip" and not can_skip:
        raise Rejected(
            "clock_cannot_skip",
            f"{title} has no way to skip a turn: let the clock play a move for the seat "
            "(expiry 'bot') or end its match (expiry 'lose').",
        )


def opened(control: TimeControl, seats: int) -> Clocks:
    """The clocks of a new match: every seat's full time, none running."""
    return Clocks(control=control, remaining=[control.seconds * 1000] * seats)


def tick(
    clocks: Clocks, now: int, acting: Iterable[Seat], absent: Collection[Seat], moved: Seat | None
) -> ClocksSet:
    """The clocks after a decision at `now`: running seats pay the time since the last
    one, then the control applies (a move's limit set back, a bank's increment added).
    `moved` is the seat the decision moved for, if any."""
    control = clocks.control
    elapsed = max(0, now - clocks.since)
    remaining = [
        max(0, left - elapsed) if seat in clocks.running else left
        for seat, left in enumerate(clocks.remaining)
    ]
    running = sorted(seat for seat in set(acting) if seat not in absent)
    for seat in range(len(remaining)):
        was, runs = seat in clocks.running, seat in running
        if control.kind == "move" and not (was and runs and seat != moved):
            remaining[seat] = control.seconds * 1000
        elif control.kind == "bank" and was and not runs:
            remaining[seat] += control.increment * 1000
    return ClocksSet(at=now, remaining=tuple(remaining), running=tuple(running))


def evolve(clocks: Clocks, event: ClocksSet) -> Clocks:
    return msgspec.structs.replace(
        clocks, remaining=list(event.remaining), running=list(event.running), since=event.at
    )


def spoken(ms: int) -> str:
    """Time left as people read it: 4:05, 1:02:03, 2d 3h."""
    total = max(0, -(-ms // 1000))
    days, hours = divmod(total, 86400)
    hours, rest = divmod(hours, 3600)
    minutes, seconds = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}:{minutes:02}:{seconds:02}"
    return f"{minutes}:{seconds:02}"


def view(clocks: Clocks) -> dict[str, object]:
    """The clocks as every reader sees them: nothing about them is secret. A client
    shows `remaining[s] - (its now - since)` for a running seat, ticking."""
    return {
        "kind": clocks.control.kind,
        "seconds": clocks.control.seconds,
        "increment": clocks.control.increment,
        "expiry": clocks.control.expiry,
        "remaining": list(clocks.remaining),
        "running": list(clocks.running),
        "since": clocks.since,
        "deadlines": {str(s): clocks.deadline(s) for s in clocks.running},
    }
