"""What every game's rule stories need: send a command to a rigged table, see it refused,
rig the dice and the draws.

A story plays straight against the game's own functions (no match around it), so it can
start from any position a tiny table builder makes up; a story of leaving the table, whose
rule is the match's (docs/tables.md, "Absent players"), plays a whole `Match` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import msgspec
import pytest

from domain import match as m
from domain.kernel import GameSpec, Rejected, Rng, Seat, get_game

S = TypeVar("S")
E = TypeVar("E")
T = TypeVar("T")


class Rigged(Rng):
    """Chance as the story needs it: each roll, draw or pick gives the next outcome written.

    `choice` takes the next outcome from among the items (a face, a card id); `roll` and
    `below` take it when it is a number. Chance the story did not script comes from
    `Rng(0, 0)`, except a `choice` with nothing scripted, which fails the story.
    """

    def __init__(self, *outcomes: Any) -> None:
        super().__init__(0, 0)
        self.outcomes = list(outcomes)

    def choice(self, items: Sequence[T]) -> T:
        assert self.outcomes, f"the story did not script a pick from {list(items)}"
        wanted = self.outcomes.pop(0)
        options = list(items)
        assert wanted in options, f"{wanted!r} cannot come up from {options}"
        return options[options.index(wanted)]

    def _number(self) -> int | None:
        if self.outcomes and isinstance(self.outcomes[0], int):
            return int(self.outcomes.pop(0))
        return None

    def roll(self, sides: int) -> int:
        wanted = self._number()
        if wanted is None:
            return super().roll(sides)
        assert 1 <= wanted <= sides, f"a d{sides} cannot show {wanted}"
        return wanted

    def below(self, n: int) -> int:
        wanted = self._number()
        if wanted is None:
            return super().below(n)
        assert 0 <= wanted < n, f"{wanted} is not below {n}"
        return wanted

    def assert_used(self) -> None:
        assert not self.outcomes, f"unused outcomes {self.outcomes}"


def play(
    game: GameSpec[S, Any, E, Any], state: S, seat: Seat, command: Any, rng: Rng | None = None
) -> tuple[S, list[E]]:
    """`seat` sends `command`: the table after it and the events it caused."""
    rng = rng if rng is not None else Rng(7, 1)
    events, after = game.settle(state, game.decide(state, seat, command, rng))
    if isinstance(rng, Rigged):
        rng.assert_used()
    return after, events


def refused(
    game: GameSpec[S, Any, Any, Any],
    state: S,
    seat: Seat,
    command: Any,
    rng: Rng | None = None,
    *,
    listed: bool = True,
) -> str:
    """`seat` sends `command` and the referee refuses it: its code. A refused command is
    never among the legal ones (unless `listed=False`: refused for another reason, such as
    a hidden card the player cannot see)."""
    with pytest.raises(Rejected) as err:
        game.decide(state, seat, command, rng if rng is not None else Rng(7, 1))
    if listed:
        assert command not in list(game.legal(state, seat)), f"{command!r} is listed as legal"
    return err.value.code


def fold(game: GameSpec[S, Any, E, Any], state: S, events: Sequence[E]) -> S:
    """The table after `events`."""
    for event in events:
        state = game.evolve(state, event)
    return state


class Match:
    """A whole match of `game` through domain/match.py, created under table `edition`,
    joined by seats named p0, p1, ... and started with `seed`."""

    def __init__(
        self,
        game: str,
        seats: int,
        seed: int,
        *,
        edition: int = m.EDITION,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.game = get_game(game)
        self.edition = edition
        self.names = [f"p{s}" for s in range(seats)]
        self.state: m.MatchState | None = None
        self.decisions: list[list[Any]] = []
        """The events of each command sent, in order."""
        self.send(m.CreateMatch(game=game, seats=seats, options=options or {}))
        for name in self.names:
            self.send(m.JoinMatch(player=name))
        self.send(m.StartMatch(player=self.names[0], seed=seed))

    @property
    def now(self) -> m.MatchState:
        assert self.state is not None
        return self.state

    def send(self, command: Any) -> list[Any]:
        """The events `command` causes, folded onto the match."""
        events = m.decide(self.state, command, edition=self.edition)
        self.state = m.fold(events, self.state)
        self.decisions.append(events)
        return events

    def concede(self, seat: Seat) -> list[Any]:
        return self.send(m.Concede(player=self.names[seat]))

    def acting(self) -> list[Seat]:
        """The seats the game waits for (an absent one's bot has moved by now)."""
        return sorted(self.game.to_act(self.now.game_state))

    def play_out(self) -> list[Any]:
        """Those still seated play their first legal move (by repr) until the match is
        over; every event of it. No absent seat is ever waited for."""
        events: list[Any] = []
        for _ in range(self.game.max_moves):
            if self.now.status != "playing":
                return events
            acting = self.acting()
            assert not set(acting) & set(self.now.conceded), "an absent seat is waited for"
            seat = acting[0]
            move = sorted(self.game.legal(self.now.game_state, seat), key=repr)[0]
            raw = msgspec.Raw(msgspec.json.encode(move))
            events += self.send(m.PlayMove(player=self.names[seat], move=raw))
        raise AssertionError("the match did not end")
