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
import re
from collections.abc import Callable, Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

import msgspec

Seat = int
"""A seat at the table, 0-based, in turn order."""

BySeat = list
"""A list with one entry per seat, in seat order (each player's hand, board, workshop).
A view that annotates a field so lets the web table show each entry under its player's
name, in that seat's panel, instead of as an unlabelled list."""

ComponentId = str
"""A stable unique id of one component instance (a card, a tile, a die)."""

RulesStatus = Literal["complete", "assumptions", "house-completed"]

AbsentRule = Literal["bot", "out", "end"]
"""What a game does with a seat whose player conceded or was expelled by the clock: a bot
plays its legal moves so the others can finish ("bot"), the game's own `concede` takes it
out of play ("out"), or the match ends ("end")."""

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
    `randrange`/`shuffle` are stable across CPython releases. `drawn` says whether the
    decision drew anything: a move that drew chance cannot be taken back.
    """

    __slots__ = ("_made", "_seed", "_version", "drawn")

    def __init__(self, seed: int, version: int) -> None:
        self._seed = seed
        self._version = version
        self._made: random.Random | None = None
        self.drawn = False

    @property
    def _random(self) -> random.Random:
        # Made on the first draw: most decisions draw nothing, and seeding costs more
        # than many a game's whole decision.
        if self._made is None:
            key = f"{self._seed}:{self._version}".encode()
            digest = hashlib.blake2b(key, digest_size=16).digest()
            self._made = random.Random(int.from_bytes(digest, "big"))
        return self._made

    def roll(self, sides: int) -> int:
        """A die roll, 1..sides."""
        self.drawn = True
        return self._random.randrange(sides) + 1

    def below(self, n: int) -> int:
        """An integer in 0..n-1."""
        self.drawn = True
        return self._random.randrange(n)

    def choice(self, items: Sequence[T]) -> T:
        self.drawn = True
        return items[self._random.randrange(len(items))]

    def shuffled(self, items: Iterable[T]) -> list[T]:
        self.drawn = True
        out = list(items)
        self._random.shuffle(out)
        return out

    def shuffle(self, items: MutableSequence[T]) -> None:
        self.drawn = True
        self._random.shuffle(items)

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        self.drawn = True
        return self._random.sample(list(items), k)


S = TypeVar("S")  # the game's state
C = TypeVar("C")  # its command union
E = TypeVar("E")  # its event union
O = TypeVar("O")  # noqa: E741 - its options


class Recorder(Generic[S, E]):
    """A decision as it unfolds: the events recorded so far and the table they lead to.

    Rules that need the table after an event to decide the next one record as they go;
    handing the recorder back lets the match take its state instead of folding again.
    """

    __slots__ = ("_evolve", "events", "state")

    def __class_getitem__(cls, _params: Any) -> Any:
        # Games name `Recorder[State, Event]` and call it once a decision: a typing alias
        # would make each call cost five times a plain one (it tries to tag the instance
        # with its alias). The checker reads the parameters; at run time it is the class.
        return cls

    def __init__(self, state: S, evolve: Callable[[S, E], S]) -> None:
        self.state = state
        self.events: list[E] = []
        self._evolve = evolve

    def record(self, *events: E) -> None:
        for event in events:
            self.events.append(event)
            self.state = self._evolve(self.state, event)


Decided = Sequence[E] | Recorder[Any, E]
"""What `start`, `decide` and `concede` return: events, or a recorder that holds them and
the state after them."""


def _everything_public(event: E, seat: Seat | None) -> E:
    return event


def redacts_nothing(game: Game) -> bool:
    """Whether the game shows every reader every event as it is (the default `redact`):
    then no seat reads an event otherwise than a spectator."""
    return game.redact is _everything_public


def keeps_no_secrets(game: Game) -> bool:
    """Whether the game keeps both defaults, every event public and nothing hidden: then
    its table looks the same to every reader, so its `view` is rendered once for all of
    them (the conformance kit checks that such a game's view ignores the seat)."""
    return game.redact is _everything_public and game.hidden is _nothing_hidden


def _nothing_hidden(state: Any, seat: Seat | None) -> frozenset[ComponentId]:
    return frozenset()


def _match_ends(state: Any, seat: Seat, rng: Rng) -> None:
    return None


@dataclass(frozen=True, kw_only=True)
class GameSpec(Generic[S, C, E, O]):
    """A game as the kernel sees it: its metadata and the functions its rules are made of.

    Commands and events are tagged unions with pinned tags (`tag="chicken.dice_rolled"`,
    `tag_field="type"`), so a renamed class never orphans the log. States, views,
    commands and events are msgspec Structs. Where most games agree, a default stands in:
    nothing is hidden, every event is public, and a concession ends the match. A game
    that keeps the first two shows every reader the same table (`keeps_no_secrets`).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    rules_status: RulesStatus
    assumptions: tuple[str, ...]
    designed: tuple[str, ...] = ()
    """What the house designed where a thin page and the facts left the game open (the
    README's "## House-made" items); empty unless `rules_status` is "house-completed"."""
    options_type: type[O]
    state_type: type[S]
    command_type: Any  # the Command union: a union alias is no `type`
    event_type: Any  # the Event union

    initial: Callable[[O, int], S]
    """The empty table before setup: no randomness, nothing dealt."""
    start: Callable[[S, Rng], Decided[E]]
    """Setup as events (shuffles, deals, first player), folded onto `initial`."""
    decide: Callable[[S, Seat, C, Rng], Decided[E]]
    """The events a command causes, or `Rejected`."""
    evolve: Callable[[S, E], S]
    """Pure fold of one event. Never random, never rejects."""
    legal: Callable[[S, Seat], Iterable[C]]
    """Every command `seat` may send now (complete: anything else is rejected)."""
    to_act: Callable[[S], frozenset[Seat]]
    """The seats that may act now; several at once for simultaneous choices."""
    view: Callable[[S, Seat | None], msgspec.Struct]
    """What `seat` (or a spectator, None) may see of the table."""
    outcome: Callable[[S], Outcome | None]
    """Scores and ranks once the game is over, else None."""
    describe: Callable[[E, Seat | None, Sequence[str]], str]
    """The event as a sentence for that reader ("You drew the Princess")."""
    redact: Callable[[E, Seat | None], E | None] = _everything_public
    """The event as `seat` may see it, or None when it sees nothing of it."""
    hidden: Callable[[S, Seat | None], frozenset[ComponentId]] = _nothing_hidden
    """Ids of the components `seat` may not identify in this state (for leak checks)."""
    concede: Callable[[S, Seat, Rng], Decided[E] | None] = _match_ends
    """Events that take `seat` out of play, or None when the game cannot go on without it."""
    absent: AbsentRule = "bot"
    """What follows when a seat is absent (conceded, or lost on time): a bot plays it so
    the others can finish ("bot"), the match ends ("end", where a bot makes no sense), or
    the game's own `concede` takes it out of play ("out")."""
    skip: Callable[[S, Seat, Rng], Decided[E]] | None = None
    """Events that pass `seat`'s turn when its time runs out; None: the game cannot skip
    a turn, and a clock that skips on expiry is refused at create."""
    check_options: Callable[[O, int], None] | None = None
    """Refuses (`Rejected`) options that do not suit this many seats."""
    conformance_options: tuple[dict[str, Any], ...] = ({},)
    """Option sets the conformance kit cycles through."""
    max_moves: int = 3000
    """A bound on the moves of a random match, for the kit and the bots."""
    undo: bool = True
    """Whether a player may take back a move of their turn where the match finds it safe
    (it drew no chance, showed nothing hidden, and left them to act: domain/match.py);
    False for a game where even that would mislead the table."""
    components: Callable[[], Mapping[ComponentId, str]] | None = None
    """What the table calls each component in the box (card, tile, piece), by id: the
    web table shows these names where a view or a command holds the id. Public, as
    the box's contents are: no name may say more than the component's face does. None:
    the ids read well enough as they are."""

    def absent_rule(self, edition: int) -> AbsentRule:
        """The rule for a match of that table edition (domain/match.py `EDITION`): before
        edition 2, a game with a `concede` of its own took the seat out ("out") and any
        other game put a bot in it; the declared `absent` rules since."""
        if edition >= 2:
            return self.absent
        if self.absent == "end":
            return "end"
        return "bot" if self.concede is _match_ends else "out"

    def settle(self, state: S, decided: Decided[E]) -> tuple[list[E], S]:
        """The events and the state after them, folding only what no recorder folded."""
        if isinstance(decided, Recorder):
            return decided.events, decided.state
        events = list(decided)
        for event in events:
            state = self.evolve(state, event)
        return events, state


Game = GameSpec[Any, Any, Any, Any]
"""Any registered game."""


def between(low: int, high: int) -> msgspec.Meta:
    """An integer option's range, as `tabletop games --json` states it
    (`rounds: Annotated[int, between(1, 10)] = 3`). The game's `check_options` still refuses
    what lies outside, in its own words; a test holds the two together."""
    return msgspec.Meta(extra_json_schema={"minimum": low, "maximum": high})


def one_of(*values: int) -> msgspec.Meta:
    """An integer option's allowed values, stated like `between`'s range."""
    return msgspec.Meta(extra_json_schema={"enum": list(values)})


def readme_assumptions(package_file: str) -> tuple[str, ...]:
    """The items of the "## Assumptions" section of the README beside `package_file`.

    The README is where a reader looks for them, so it is their one source; the game
    declares what this reads (`assumptions=readme_assumptions(__file__)`).
    """
    return readme_items(package_file, "assumptions")


def readme_designed(package_file: str) -> tuple[str, ...]:
    """The items of the "## House-made" section of the README beside `package_file`:
    what a house-completed game designed (`designed=readme_designed(__file__)`)."""
    return readme_items(package_file, "house-made")


def readme_items(package_file: str, section: str) -> tuple[str, ...]:
    """The list items of the README section titled `section` (any case, a parenthesis
    after it allowed: "House-made (data)"), in order."""
    readme = Path(package_file).with_name("README.md").read_text(encoding="utf-8")
    items: list[str] = []
    inside = False
    for line in readme.splitlines():
        if line.startswith("## "):
            title = line[3:].strip().lower()
            inside = title == section or title.startswith(section + " (")
            continue
        if not inside or not line.strip():
            continue
        item = re.match(r"^(?:[-*]|\d+\.)\s+(.*)", line)
        if item:
            items.append(item.group(1).strip())
        elif line.startswith((" ", "\t")) and items:
            items[-1] += " " + line.strip()
        else:
            inside = False  # a paragraph after the list ends it
    return tuple(items)


_REGISTRY: dict[str, Game] = {}


def register(game: GameSpec[S, C, E, O]) -> GameSpec[S, C, E, O]:
    """Offer the game (the last line of a game's `__init__.py`)."""
    if game.name in _REGISTRY and _REGISTRY[game.name] is not game:
        raise ValueError(f"two games are named {game.name!r}")
    _REGISTRY[game.name] = game
    return game


def games() -> dict[str, Game]:
    """Every registered game, by name (every game package of `domain.games` imported)."""
    import domain.games

    domain.games.load_all()
    return dict(sorted(_REGISTRY.items()))


def get_game(name: str) -> Game:
    # On the hot path: a dict lookup; on a miss, that game's package, then all of them.
    found = _REGISTRY.get(name)
    if found is None:
        import domain.games

        domain.games.load(name)
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
