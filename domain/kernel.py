"""The game protocol every game speaks, and the few values all games share.

A game is a *decider*: pure functions from (state, command) to events and from
(state, event) to the next state. Nothing here touches I/O, the clock or the
global random generator; chance comes only from the `Rng` handed in, which is
derived from the match seed and the version the command is decided at, so
re-running the recorded commands reproduces the recorded events bit for bit.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, MutableSequence, Sequence
from typing import Any, Literal, Protocol, TypeVar

import msgspec

Seat = int
"""A seat at the table, 0-based, in turn order."""

ComponentId = str
"""A stable unique id of one component instance (a card, a tile, a die)."""

RulesStatus = Literal["complete", "assumptions", "house-completed"]

T = TypeVar("T")


class Rejected(Exception):
    """A command the referee refuses: a stable snake_case code and a sentence for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Outcome(msgspec.Struct, frozen=True):
    """How a finished match ended: one score and one rank per seat (rank 1 wins; ties share)."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]

    @property
    def winners(self) -> tuple[Seat, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)


def ranks_from_scores(scores: Sequence[int], *, higher_wins: bool = True) -> tuple[int, ...]:
    """Competition ranking (1, 2, 2, 4): equal scores share the better rank."""
    sign = -1 if higher_wins else 1
    return tuple(1 + sum(1 for other in scores if sign * other < sign * mine) for mine in scores)


def ranks_from_keys(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Competition ranking by tie-break keys, larger is better: (score, tiebreak, ...)."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


class Rng:
    """Deterministic randomness for one decision, derived from (match seed, version).

    Built on `random.Random` seeded with an integer, whose algorithms for
    `randrange`/`shuffle` are stable across CPython releases.
    """

    __slots__ = ("_random",)

    def __init__(self, seed: int, version: int) -> None:
        digest = hashlib.blake2b(f"{seed}:{version}".encode(), digest_size=16).digest()
        self._random = random.Random(int.from_bytes(digest, "big"))

    def roll(self, sides: int) -> int:
        """A die roll, 1..sides."""
        return self._random.randrange(sides) + 1

    def below(self, n: int) -> int:
        """An integer in 0..n-1."""
        return self._random.randrange(n)

    def choice(self, items: Sequence[T]) -> T:
        return items[self._random.randrange(len(items))]

    def shuffled(self, items: Iterable[T]) -> list[T]:
        out = list(items)
        self._random.shuffle(out)
        return out

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._random.shuffle(items)

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self._random.sample(list(items), k)


S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")
O = TypeVar("O")  # noqa: E741 - options


class Game(Protocol):
    """What every game answers. Commands, events, states and views are msgspec Structs.

    Commands and events are tagged unions with pinned tags (`tag="chicken.dice_rolled"`,
    `tag_field="type"`), so a renamed class never orphans the log.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    rules_status: RulesStatus
    assumptions: tuple[str, ...]
    command_type: Any  # the Command union
    event_type: Any  # the Event union

    # Read-only, so a game may simply write `options_type = Options`.
    @property
    def options_type(self) -> type[msgspec.Struct]: ...

    @property
    def state_type(self) -> type[msgspec.Struct]: ...

    def initial(self, options: Any, seats: int) -> Any:
        """The empty table before setup: no randomness, nothing dealt."""
        ...

    def start(self, state: Any, rng: Rng) -> list[Any]:
        """Setup as events (shuffles, deals, first player), folded onto `initial`."""
        ...

    def evolve(self, state: Any, event: Any) -> Any:
        """Pure fold of one event. Never random, never rejects."""
        ...

    def decide(self, state: Any, seat: Seat, command: Any, rng: Rng) -> list[Any]:
        """The events a command causes, or `Rejected`."""
        ...

    def legal(self, state: Any, seat: Seat) -> Iterable[Any]:
        """Every command `seat` may send now (complete: anything else is rejected)."""
        ...

    def to_act(self, state: Any) -> frozenset[Seat]:
        """The seats that may act now; several at once for simultaneous choices."""
        ...

    def view(self, state: Any, seat: Seat | None) -> msgspec.Struct:
        """What `seat` (or a spectator, None) may see of the table."""
        ...

    def redact(self, event: Any, seat: Seat | None) -> Any | None:
        """The event as `seat` may see it, or None when it sees nothing of it."""
        ...

    def hidden(self, state: Any, seat: Seat | None) -> frozenset[ComponentId]:
        """Ids of the components `seat` may not identify in this state (for leak checks)."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """Scores and ranks once the game is over, else None."""
        ...

    def concede(self, state: Any, seat: Seat, rng: Rng) -> list[Any] | None:
        """Events that take `seat` out of play, or None when the game cannot go on without it."""
        ...

    def describe(self, event: Any, reader: Seat | None, names: Sequence[str]) -> str:
        """The event as a sentence for that reader ("You drew the Princess")."""
        ...


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.name in _REGISTRY and _REGISTRY[game.name] is not game:
        raise ValueError(f"two games are named {game.name!r}")
    _REGISTRY[game.name] = game
    return game


def games() -> dict[str, Game]:
    """Every registered game, by name (importing `domain.games` registers them all)."""
    import domain.games  # noqa: F401 - registration side effect

    return dict(sorted(_REGISTRY.items()))


def get_game(name: str) -> Game:
    # On the hot path: a dict lookup, the registry walk only on a miss.
    found = _REGISTRY.get(name) or games().get(name)
    if found is None:
        raise Rejected("unknown_game", f"There is no game called {name!r} here.")
    return found


def options_schema(game: Game) -> list[dict[str, Any]]:
    """The game's options with their defaults, for `tabletop games --json`."""
    out: list[dict[str, Any]] = []
    for f in msgspec.structs.fields(game.options_type):
        default = f.default if f.default is not msgspec.NODEFAULT else None
        out.append({"name": f.encode_name, "type": _type_name(f.type), "default": default})
    return out


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")
