"""The Match aggregate: the lobby -> playing -> finished lifecycle around any game.

A match's event stream holds its own lifecycle events (`match.*`) interleaved with
the game's events; both are tagged msgspec Structs, so one decoder per game reads
the whole stream. The match records the seed and the rules version at start: the
seed feeds the `Rng` of every later decision, the rules version tells an auditor
whether re-executing the commands can be expected to reproduce the events.
"""

from __future__ import annotations

import hashlib
import typing
from collections.abc import Sequence
from functools import cache
from typing import Any, Literal, NamedTuple

import msgspec

from domain import clock as clocks
from domain.addressing import to_reader
from domain.clock import Clocks, ClocksSet, TimeControl, TimeRanOut
from domain.kernel import Decided, Game, Outcome, Rejected, Rng, Seat, get_game, keeps_no_secrets

Status = Literal["lobby", "playing", "finished", "closed"]


EDITION = 3
"""The table rules this build creates matches with, recorded in their match.created so a
match is decided (and audited) by the rules it began under, whatever build runs it:
0, a match created before undo: no move is taken back, and a game with a `concede` of
its own takes a leaver out of play; 1, the same with moves taken back (told from a
recorded match.undo_point, as no match.created of that build names it); 2, a leaver's
seat is played by a bot unless the game ends instead (`GameSpec.absent`); 3, the same,
and a table waiting for players closes when its last player leaves."""


# --- commands (what a player asks of a match) -------------------------------------------


class CreateMatch(msgspec.Struct, tag="match.create", tag_field="type", forbid_unknown_fields=True):
    game: str
    seats: int
    options: dict[str, Any] = {}
    rematch_of: str | msgspec.UnsetType = msgspec.UNSET
    """The finished match this one is the rematch of (services/rematch). Unset, like
    `clock`, it is left out of the recorded command."""
    clock: TimeControl | None | msgspec.UnsetType = msgspec.UNSET
    """The match's time control (every game takes one); none by default. Unset, it is
    left out of the recorded command, which is then byte for byte what it was before
    clocks existed."""
    unlisted: bool | msgspec.UnsetType = msgspec.UNSET
    """A table for the people its players give its id to (a link): no lobby lists it.
    Unset (listed), it is left out of the recorded command, like `clock`."""


class JoinMatch(msgspec.Struct, tag="match.join", tag_field="type", forbid_unknown_fields=True):
    player: str
    seat: int | None = None


class LeaveMatch(msgspec.Struct, tag="match.leave", tag_field="type", forbid_unknown_fields=True):
    player: str


class StartMatch(msgspec.Struct, tag="match.start", tag_field="type", forbid_unknown_fields=True):
    player: str
    seed: int | None = None  # drawn by the command service when absent


class PlayMove(msgspec.Struct, tag="match.play", tag_field="type", forbid_unknown_fields=True):
    player: str
    move: msgspec.Raw


class Concede(msgspec.Struct, tag="match.concede", tag_field="type", forbid_unknown_fields=True):
    player: str


class UndoMove(msgspec.Struct, tag="match.undo", tag_field="type", forbid_unknown_fields=True):
    """Take back my last move of this turn (where it drew no chance and showed nothing)."""

    player: str


class OfferRematch(
    msgspec.Struct, tag="match.offer_rematch", tag_field="type", forbid_unknown_fields=True
):
    """Offer the table a rematch of this finished match (the offer counts as accepting)."""

    player: str
    new_match: str = ""  # set by the command service: `rematch_id` of this match


class AcceptRematch(
    msgspec.Struct, tag="match.accept_rematch", tag_field="type", forbid_unknown_fields=True
):
    player: str
    new_match: str = ""  # set by the command service: `rematch_id` of this match


class DeclineRematch(
    msgspec.Struct, tag="match.decline_rematch", tag_field="type", forbid_unknown_fields=True
):
    player: str


class TimeExpired(
    msgspec.Struct, tag="match.time_expired", tag_field="type", forbid_unknown_fields=True
):
    """`seat`'s clock ran out at `deadline` (unix ms), as its sender (the scheduler) saw
    it. Refused when early or when the clock has moved on since, so a second sending of
    the same expiry, or one that crossed a move, changes nothing."""

    seat: int
    deadline: int


class CloseTable(msgspec.Struct, tag="match.close", tag_field="type", forbid_unknown_fields=True):
    """Close a table that has waited too long for its players (sent by the scheduler).
    `version` is the table's version when it was found idle: refused once anything has
    happened at the table since, so a sending that crossed a player sitting down, or a
    second one, changes nothing."""

    version: int
    reason: Literal["idle"] = "idle"


MatchCommand = (
    CreateMatch
    | JoinMatch
    | LeaveMatch
    | StartMatch
    | PlayMove
    | Concede
    | TimeExpired
    | UndoMove
    | OfferRematch
    | AcceptRematch
    | DeclineRematch
    | CloseTable
)


# --- events (what happened to the match itself) -------------------------------------------


class MatchCreated(
    msgspec.Struct, tag="match.created", tag_field="type", frozen=True, omit_defaults=True
):
    game: str
    seats: int
    options: dict[str, Any]
    rematch_of: str = ""
    """The finished match this one is the rematch of, if it is one."""
    clock: TimeControl | None = None
    edition: int = 0
    """The table rules the match is decided by (`EDITION` when it was created; absent, 0)."""
    unlisted: bool = False
    """Kept out of the lobbies: found by its id alone (`CreateMatch.unlisted`)."""


class PlayerJoined(msgspec.Struct, tag="match.player_joined", tag_field="type", frozen=True):
    player: str
    seat: Seat


class PlayerLeft(msgspec.Struct, tag="match.player_left", tag_field="type", frozen=True):
    player: str
    seat: Seat


class MatchStarted(
    msgspec.Struct,
    tag="match.started",
    tag_field="type",
    frozen=True,
    kw_only=True,
    omit_defaults=True,
):
    """The match began. The log keeps the seed; every reader sees only its commitment
    until `match.finished` reveals it (`public`)."""

    seed: int | None = None
    rules_version: str
    players: tuple[str, ...]
    commitment: str = ""


class SeatConceded(msgspec.Struct, tag="match.seat_conceded", tag_field="type", frozen=True):
    player: str
    seat: Seat


class BotPlayed(msgspec.Struct, tag="match.bot_played", tag_field="type", frozen=True):
    """A bot chose the next move for `seat` (absent, or out of time): the game's events
    that follow are that move's."""

    seat: Seat


class MatchFinished(msgspec.Struct, tag="match.finished", tag_field="type", frozen=True):
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    reason: Literal["game_over", "conceded"] = "game_over"
    # Who finished where, so ratings and integrations need no other event.
    game: str = ""
    players: tuple[str, ...] = ()
    seed: int | None = None
    """The seed, revealed now that nothing it decides is secret any more: anyone can check
    it against the commitment published at the start and re-derive every draw."""


class MatchForked(
    msgspec.Struct,
    tag="match.forked",
    tag_field="type",
    frozen=True,
    kw_only=True,
    omit_defaults=True,
):
    """This match continues another from one of its versions, with a seed of its own
    (kept like a start's: readers see its commitment)."""

    origin: str
    at_version: int
    seed: int | None = None
    commitment: str = ""
    at: int = 0
    """When the fork was made (unix ms): a clocked match's clocks resume from then."""


class UndoPoint(msgspec.Struct, tag="match.undo_point", tag_field="type", frozen=True):
    """The move after this event (its `events` events) may be taken back by `seat`: it drew
    no chance, every reader sees it alike, it uncovered nothing and left the seat to act.
    Bookkeeping for the fold (no reader is shown it): the match keeps the table as it was
    before the move, so `match.undone` restores it exactly."""

    seat: Seat
    events: int


class MoveUndone(msgspec.Struct, tag="match.undone", tag_field="type", frozen=True):
    """`seat` took back its move that began at `version`: the table is as it was before."""

    player: str
    seat: Seat
    version: int


class RematchOffered(msgspec.Struct, tag="match.rematch_offered", tag_field="type", frozen=True):
    player: str
    seat: Seat


class RematchAccepted(msgspec.Struct, tag="match.rematch_accepted", tag_field="type", frozen=True):
    player: str
    seat: Seat


class RematchDeclined(msgspec.Struct, tag="match.rematch_declined", tag_field="type", frozen=True):
    player: str
    seat: Seat


class TableClosed(
    msgspec.Struct, tag="match.closed", tag_field="type", frozen=True, omit_defaults=True
):
    """A table closed before its match started: its last player left (`empty`), or it
    waited too long for players (`idle`). Nothing more happens at it."""

    reason: Literal["empty", "idle"]


class RematchAgreed(
    msgspec.Struct, tag="match.rematch_agreed", tag_field="type", frozen=True, omit_defaults=True
):
    """Every player accepted: the rematch is match `match_id`, the same game and options,
    the seats rotated by one (`players`, in seat order). The rematch process
    (services/rematch) creates, fills and starts it."""

    match_id: str
    game: str
    options: dict[str, Any]
    players: tuple[str, ...]
    clock: TimeControl | None = None
    """The finished match's time control, which the rematch is played with too."""
    unlisted: bool = False
    """An unlisted table's rematch is unlisted too."""


def rematch_id(match_id: str) -> str:
    """The id of a match's rematch: derived from it, so sending the rematch's commands
    again after a crash never opens a second one."""
    return "r" + hashlib.sha256(f"tabletop-rematch:{match_id}".encode()).hexdigest()[:15]


def commitment_of(seed: int) -> str:
    """SHA-256 of the seed, published at the start and checked against the seed revealed
    at the finish. Seeds are drawn with 128 bits, so the hash cannot be searched back."""
    return hashlib.sha256(f"tabletop-seed:{seed}".encode()).hexdigest()


def public(event: Any) -> Any:
    """A lifecycle event as every reader sees it: the seed of a start or a fork replaced
    by its commitment."""
    if isinstance(event, MatchStarted | MatchForked) and event.seed is not None:
        return msgspec.structs.replace(
            event, seed=None, commitment=event.commitment or commitment_of(event.seed)
        )
    return event


MatchEvent = (
    MatchCreated
    | PlayerJoined
    | PlayerLeft
    | MatchStarted
    | SeatConceded
    | MatchFinished
    | MatchForked
    | UndoPoint
    | MoveUndone
    | RematchOffered
    | RematchAccepted
    | RematchDeclined
    | RematchAgreed
    | ClocksSet
    | TimeRanOut
    | BotPlayed
    | TableClosed
)
MATCH_EVENT_TYPES: tuple[type[msgspec.Struct], ...] = typing.get_args(MatchEvent)


_LIFECYCLE: dict[type, bool] = {}  # event class -> whether it is a lifecycle event


def is_lifecycle(event: Any) -> bool:
    """Whether an event is the match's (lifecycle) rather than its game's.

    Answered once per event class: `isinstance` against the union's sixteen classes
    costs about 3 µs for a game event (msgspec's metaclass takes the slow path), and
    the folds, redaction and sentences ask it for every event."""
    kind = type(event)
    found = _LIFECYCLE.get(kind)
    if found is None:
        found = _LIFECYCLE[kind] = issubclass(kind, MATCH_EVENT_TYPES)
    return found


# --- state --------------------------------------------------------------------------------


class UndoStep(msgspec.Struct):
    """A move that may be taken back: whose, the versions it spans (the `match.undo_point`
    at `version`, its last event at `until`), and the game's state before it."""

    seat: Seat
    version: int
    until: int
    game_state: Any


class RematchTalk(msgspec.Struct):
    """A rematch on offer: who accepted (the offerer first), who declined, and the new
    match's id once everyone accepted."""

    accepted: list[Seat]
    declined: Seat | None = None
    match_id: str = ""


class MatchState(msgspec.Struct):
    """The fold of a match's stream. `game_state` is the game's own state once created."""

    game: str
    seats: int
    options: dict[str, Any]
    players: list[str | None]
    status: Status = "lobby"
    version: int = 0
    seed: int | None = None
    rules_version: str = ""
    conceded: list[Seat] = []
    """The absent seats, in the order they left (conceded, or lost on time)."""
    outcome: Outcome | None = None
    game_state: Any = None
    undo: list[UndoStep] = []
    """The moves of the acting seat that may be taken back, the latest last."""
    rematch: RematchTalk | None = None
    rematch_of: str = ""
    clock: Clocks | None = None
    edition: int = 0
    """Its table rules (`EDITION`): fixed at create, or 1 once a recorded move could be
    taken back in a match whose match.created names none."""
    unlisted: bool = False


def evolve(state: MatchState | None, event: Any) -> MatchState:
    """Fold one event of the match stream (lifecycle or game event) onto the match."""
    name = event.game if state is None and isinstance(event, MatchCreated) else None
    return _evolve(get_game(name or (state.game if state else "")), state, event)


def fold(events: Sequence[Any], state: MatchState | None = None) -> MatchState:
    """Fold events onto a match (or open one): the game is looked up once, not per event."""
    if not events:
        if state is None:
            raise ValueError("no events to fold")
        return state
    first = events[0]
    if state is None and not isinstance(first, MatchCreated):
        raise TypeError(f"a match stream starts with match.created, not {type(first)}")
    game = get_game(first.game if state is None else state.game)
    return fold_with(game, events, state)


def evolve_with(game: Game, state: MatchState | None, event: Any) -> MatchState:
    """`evolve` with the match's game already looked up (a fold one event at a time)."""
    return _evolve(game, state, event)


def fold_with(game: Game, events: Sequence[Any], state: MatchState | None) -> MatchState:
    for event in events:
        state = _evolve(game, state, event)
    if state is None:
        raise ValueError("no events to fold")
    return state


def _evolve(game: Game, state: MatchState | None, event: Any) -> MatchState:
    if state is None:
        if not isinstance(event, MatchCreated):
            raise TypeError(f"a match stream starts with match.created, not {type(event)}")
        opts = msgspec.convert(event.options, game.options_type)
        return MatchState(
            game=event.game,
            seats=event.seats,
            options=event.options,
            players=[None] * event.seats,
            version=1,
            game_state=game.initial(opts, event.seats),
            rematch_of=event.rematch_of,
            clock=clocks.opened(event.clock, event.seats) if event.clock else None,
            edition=event.edition,
            unlisted=event.unlisted,
        )
    nxt = msgspec.structs.replace(state, version=state.version + 1)
    if not is_lifecycle(event):  # the usual case, without sixteen class patterns first
        return _evolve_game(game, state, nxt, event)
    match event:
        case PlayerJoined(player=player, seat=seat):
            nxt.players = [player if i == seat else p for i, p in enumerate(state.players)]
        case PlayerLeft(seat=seat):
            nxt.players = [None if i == seat else p for i, p in enumerate(state.players)]
        case MatchStarted(seed=seed, rules_version=rules_version):
            nxt.status = "playing"
            nxt.seed = seed
            nxt.rules_version = rules_version
        case SeatConceded(seat=seat):
            nxt.conceded = [*state.conceded, seat]
            nxt.undo = []
        case MatchFinished(scores=scores, ranks=ranks):
            nxt.status = "finished"
            nxt.outcome = Outcome(scores=scores, ranks=ranks)
        case TableClosed():
            nxt.status = "closed"
        case MatchForked(seed=seed, at=at):
            nxt.seed = seed
            nxt.undo = []
            if state.clock is not None and at:
                nxt.clock = msgspec.structs.replace(state.clock, since=at)
        case ClocksSet():
            if state.clock is not None:
                nxt.clock = clocks.evolve(state.clock, event)
            if state.undo and state.undo[-1].until == state.version:
                # The clocks set after a move that may be taken back leave it so: the
                # step spans them too, and `match.undone` restores the game, not the time.
                last = msgspec.structs.replace(state.undo[-1], until=nxt.version)
                nxt.undo = [*state.undo[:-1], last]
        case TimeRanOut(seat=seat, then=then):
            nxt.undo = []
            if then == "lose":
                nxt.conceded = [*state.conceded, seat]
        case BotPlayed():
            nxt.undo = []
        case UndoPoint(seat=seat, events=count):
            step = UndoStep(seat, nxt.version, nxt.version + count, state.game_state)
            nxt.undo = [*state.undo, step]
            nxt.edition = max(state.edition, 1)
        case MoveUndone():
            nxt.game_state = state.undo[-1].game_state
            nxt.undo = state.undo[:-1]
        case RematchOffered(seat=seat):
            nxt.rematch = RematchTalk(accepted=[seat])
        case RematchAccepted(seat=seat) if state.rematch is not None:
            nxt.rematch = RematchTalk([*state.rematch.accepted, seat])
        case RematchDeclined(seat=seat) if state.rematch is not None:
            nxt.rematch = RematchTalk(state.rematch.accepted, declined=seat)
        case RematchAgreed(match_id=new) if state.rematch is not None:
            nxt.rematch = RematchTalk(state.rematch.accepted, match_id=new)
        case RematchAccepted() | RematchDeclined() | RematchAgreed():
            raise TypeError(f"{event_tag(event)} without a rematch on offer")
        case MatchCreated():
            raise TypeError("match.created can only open a stream")
        case _:
            return _evolve_game(game, state, nxt, event)
    return nxt


def _evolve_game(game: Game, state: MatchState, nxt: MatchState, event: Any) -> MatchState:
    nxt.game_state = game.evolve(state.game_state, event)
    if state.undo and state.undo[-1].until < nxt.version:
        nxt.undo = []  # a move that cannot be taken back: the earlier ones stand
    return nxt


def recorded_editions(events: Sequence[Any]) -> tuple[int, int]:
    """A recorded match's table editions: the one its match.created names, and the one it
    was decided by. They differ for a match of the build that brought undo, which named
    none (0) but took moves back (1): its recorded match.undo_point events tell."""
    created = next((e for e in events if isinstance(e, MatchCreated)), None)
    named = created.edition if created is not None else EDITION
    if named == 0 and any(isinstance(e, UndoPoint) for e in events):
        return 0, 1
    return named, named


def as_of_edition(state: MatchState, edition: int) -> MatchState:
    """`state` decided by at least that edition's table rules (re-executing a recording)."""
    return state if state.edition >= edition else msgspec.structs.replace(state, edition=edition)


# --- decide ---------------------------------------------------------------------------------


class Decision(NamedTuple):
    """The events a command causes and the match after them (folded once, not again)."""

    events: list[Any]
    after: MatchState


def decide(
    state: MatchState | None,
    command: Any,
    *,
    seed: int | None = None,
    now: int | None = None,
    edition: int = EDITION,
) -> list[Any]:
    """The events a match command causes, or `Rejected`.

    `seed` is only read by `StartMatch` when the command carries none: the service draws it.
    `now` (unix ms) is the time of the decision, recorded with its events (the envelope's
    `recorded_at`); only a clocked match reads it, and refuses to rule without it.
    `edition` is only read by `CreateMatch`: the table rules the new match is recorded
    with (an audit re-creates a match with the edition it was recorded with).
    """
    return decide_and_fold(state, command, seed=seed, now=now, edition=edition).events


def decide_and_fold(
    state: MatchState | None,
    command: Any,
    *,
    seed: int | None = None,
    now: int | None = None,
    edition: int = EDITION,
) -> Decision:
    """`decide`, with the state after the events (the service needs both)."""
    if isinstance(command, CreateMatch):
        return create(state, command, edition)
    if state is None:
        raise Rejected("unknown_match", "There is no such match; create it first.")
    game = get_game(state.game)
    match command:
        case JoinMatch():
            return _folded(game, state, join(state, command))
        case LeaveMatch():
            return _folded(game, state, leave(state, command))
        case StartMatch():
            _time_of(state, now)
            decided = start(game, state, command, seed)
            return _settled(game, state, decided, now, None)
        case PlayMove():
            _time_of(state, now)
            decided = play(game, state, command)
            return _settled(game, state, decided, now, state.players.index(command.player))
        case Concede():
            _time_of(state, now)
            return _settled(game, state, concede(game, state, command), now, None)
        case TimeExpired():
            at = _time_of(state, now)
            decided = time_expired(game, state, command, at)
            return _settled(game, state, decided, now, command.seat)
        case UndoMove():
            _time_of(state, now)
            # The clocks run on from the undone move: taking it back gives no time back.
            return _settled(
                game, state, _folded(game, state, undo(game, state, command)), now, None
            )
        case OfferRematch():
            return _folded(game, state, offer_rematch(state, command))
        case AcceptRematch():
            return _folded(game, state, accept_rematch(state, command))
        case DeclineRematch():
            return _folded(game, state, decline_rematch(state, command))
        case CloseTable():
            return _folded(game, state, close(state, command))
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a match command.")


def _time_of(state: MatchState, now: int | None) -> int:
    """The decision's time, which a clocked match cannot rule without."""
    if now is None:
        if state.clock is not None:
            raise Rejected("no_time", "A clocked match needs the time of each decision.")
        return 0
    return now


def _settled(
    game: Game, before: MatchState, decided: Decision, now: int | None, moved: Seat | None
) -> Decision:
    """A playing decision completed: absent seats' bots play while it is their turn, then
    the clocks are set from the time of the decision."""
    decided = _absent_bots(game, decided)
    after = decided.after
    if after.clock is None or after.status != "playing" or now is None:
        return decided
    acting = game.to_act(after.game_state)
    ticked = clocks.tick(after.clock, now, acting, after.conceded, moved)
    return Decision([*decided.events, ticked], _evolve(game, after, ticked))


def _folded(game: Game, state: MatchState | None, events: list[Any]) -> Decision:
    return Decision(events, fold_with(game, events, state))


def create(state: MatchState | None, command: CreateMatch, edition: int = EDITION) -> Decision:
    if state is not None:
        raise Rejected("match_exists", "A match with this id already exists.")
    game = get_game(command.game)
    if not game.min_players <= command.seats <= game.max_players:
        raise Rejected(
            "bad_seat_count",
            f"{game.title} is played by {game.min_players} to {game.max_players} players, "
            f"not {command.seats}.",
        )
    clock = command.clock if isinstance(command.clock, TimeControl) else None
    if clock is not None:
        clocks.check(clock, can_skip=game.skip is not None, title=game.title)
    known = {f.encode_name for f in msgspec.structs.fields(game.options_type)}
    unknown = sorted(set(command.options) - known)
    if unknown:
        raise Rejected(
            "bad_options",
            f"{game.title} has no option {', '.join(unknown)}; it has: "
            f"{', '.join(sorted(known)) or 'none'}.",
        )
    try:
        opts = msgspec.convert(command.options, game.options_type)
    except msgspec.ValidationError as err:
        raise Rejected("bad_options", f"Those options do not suit {game.title}: {err}.") from None
    if game.check_options is not None:
        game.check_options(opts, command.seats)
    normalised = msgspec.to_builtins(opts)
    created = MatchCreated(
        game=command.game,
        seats=command.seats,
        options=normalised,
        rematch_of=command.rematch_of if isinstance(command.rematch_of, str) else "",
        clock=clock,
        edition=edition,
        unlisted=command.unlisted is True,
    )
    return _folded(game, None, [created])


def join(state: MatchState, command: JoinMatch) -> list[Any]:
    _in_lobby(state)
    if command.player in state.players:
        raise Rejected("already_seated", f"{command.player} has a seat at this table already.")
    free = [i for i, p in enumerate(state.players) if p is None]
    if not free:
        raise Rejected("table_full", "Every seat at this table is taken.")
    if command.seat is not None and not 0 <= command.seat < state.seats:
        raise Rejected(
            "no_such_seat", f"There is no seat {command.seat + 1} at this {state.seats}-seat table."
        )
    seat = free[0] if command.seat is None else command.seat
    if seat not in free:
        # People count seats from 1; the command's JSON counts from 0.
        raise Rejected("seat_taken", f"Seat {seat + 1} is not free.")
    return [PlayerJoined(player=command.player, seat=seat)]


def leave(state: MatchState, command: LeaveMatch) -> list[Any]:
    if state.status == "playing":  # a seat in play is given up by conceding
        raise Rejected("match_started", "This match has already started: concede to leave it.")
    _in_lobby(state)
    seat = _seat_of(state, command.player)
    left = PlayerLeft(player=command.player, seat=seat)
    if state.edition >= 3 and all(p is None or p == command.player for p in state.players):
        return [left, TableClosed(reason="empty")]  # nobody left to wait for the others
    return [left]


def close(state: MatchState, command: CloseTable) -> list[Any]:
    _in_lobby(state)
    if command.version != state.version:
        raise Rejected(
            "table_not_idle",
            f"The table has moved on since version {command.version}: it is not idle.",
        )
    return [TableClosed(reason=command.reason)]


def start(game: Game, state: MatchState, command: StartMatch, drawn_seed: int | None) -> Decision:
    _in_lobby(state)
    _seat_of(state, command.player)
    if any(p is None for p in state.players):
        raise Rejected("table_not_full", "The match starts once every seat is taken.")
    seed = command.seed if command.seed is not None else drawn_seed
    if seed is None:
        raise Rejected("no_seed", "The match needs a seed to start.")
    started = MatchStarted(
        seed=seed,
        rules_version=game.rules_version,
        players=tuple(p for p in state.players if p is not None),
        commitment=commitment_of(seed),
    )
    setup = game.start(state.game_state, Rng(seed, state.version))
    return _with_game_events(game, _evolve(game, state, started), [started], setup)


def play(game: Game, state: MatchState, command: PlayMove) -> Decision:
    _in_play(state)
    seat = _seat_of(state, command.player)
    if seat in state.conceded:
        raise Rejected("conceded", f"{command.player} has left this match.")
    move = decode_move(game, command.move)
    if seat not in game.to_act(state.game_state):
        raise Rejected("not_your_turn", f"It is not {command.player}'s turn.")
    assert state.seed is not None
    rng = Rng(state.seed, state.version)
    events, game_state = game.settle(
        state.game_state, game.decide(state.game_state, seat, move, rng)
    )
    takes_back = state.edition >= 1 and game.undo and not rng.drawn
    if takes_back and may_take_back(game, state, seat, events, game_state):
        mark = UndoPoint(seat=seat, events=len(events))
        return _with_settled(game, _evolve(game, state, mark), [mark], events, game_state)
    return _with_settled(game, state, [], events, game_state)


def may_take_back(
    game: Game, state: MatchState, seat: Seat, events: Sequence[Any], after: Any
) -> bool:
    """Rule (issue 19, undo): a move may be taken back when, besides drawing no chance,
    it leaves its seat to act in a game not over, every reader is shown its events
    alike, and nothing hidden from any reader before it is visible to them after it."""
    if not events or game.outcome(after) is not None or seat not in game.to_act(after):
        return False
    for event in events:
        spectator = game.redact(event, None)
        if any(game.redact(event, reader) != spectator for reader in range(state.seats)):
            return False
    readers: list[Seat | None] = [*range(state.seats), None]
    return all(game.hidden(state.game_state, r) <= game.hidden(after, r) for r in readers)


def undo(game: Game, state: MatchState, command: UndoMove) -> list[Any]:
    _in_play(state)
    seat = _seat_of(state, command.player)
    if seat in state.conceded:
        raise Rejected("conceded", f"{command.player} has left this match.")
    if not game.undo:
        raise Rejected("cannot_undo", f"{game.title} allows no take-backs: every move stands.")
    step = state.undo[-1] if state.undo and state.undo[-1].until == state.version else None
    if step is None:
        raise Rejected(
            "cannot_undo",
            "There is no move to take back: a move stands once it drew chance, showed "
            "something hidden or ended its player's turn, and so does every move before it.",
        )
    if step.seat != seat:
        owner = state.players[step.seat] or f"seat {step.seat + 1}"
        raise Rejected("cannot_undo", f"The last move is {owner}'s: only {owner} may take it back.")
    return [MoveUndone(player=command.player, seat=seat, version=step.version)]


def offer_rematch(state: MatchState, command: OfferRematch) -> list[Any]:
    seat = _finished_seat(state, command.player)
    talk = state.rematch
    if talk is not None and talk.match_id:
        raise Rejected("rematch_agreed", f"The rematch is already match {talk.match_id}.")
    if talk is not None and talk.declined is None:
        raise Rejected("rematch_offered", "A rematch is already on offer: accept it or decline it.")
    offered = RematchOffered(player=command.player, seat=seat)
    return [offered, *_agreed(state, [seat], command.new_match)]


def accept_rematch(state: MatchState, command: AcceptRematch) -> list[Any]:
    seat = _finished_seat(state, command.player)
    talk = _open_offer(state)
    if seat in talk.accepted:
        raise Rejected("already_accepted", f"{command.player} has already accepted the rematch.")
    accepted = RematchAccepted(player=command.player, seat=seat)
    return [accepted, *_agreed(state, [*talk.accepted, seat], command.new_match)]


def decline_rematch(state: MatchState, command: DeclineRematch) -> list[Any]:
    seat = _finished_seat(state, command.player)
    _open_offer(state)
    return [RematchDeclined(player=command.player, seat=seat)]


def _finished_seat(state: MatchState, player: str) -> Seat:
    _not_closed(state)
    if state.status != "finished":
        raise Rejected("match_not_finished", "A rematch is offered once this match is over.")
    return _seat_of(state, player)


def _open_offer(state: MatchState) -> RematchTalk:
    talk = state.rematch
    if talk is None or talk.declined is not None:
        raise Rejected("no_rematch_offered", "No rematch is on offer: offer one first.")
    if talk.match_id:
        raise Rejected("rematch_agreed", f"The rematch is already match {talk.match_id}.")
    return talk


def _agreed(state: MatchState, accepted: Sequence[Seat], new_match: str) -> list[Any]:
    """Once every player has accepted: the rematch, its seats rotated by one (who sat
    second sits first)."""
    if set(accepted) != set(range(state.seats)):
        return []
    if not new_match:
        raise Rejected("no_rematch_id", "The referee names the rematch; send this through it.")
    players = tuple(p or "" for p in state.players)
    return [
        RematchAgreed(
            match_id=new_match,
            game=state.game,
            options=state.options,
            players=players[1:] + players[:1],
            clock=state.clock.control if state.clock is not None else None,
            unlisted=state.unlisted,
        )
    ]


def concede(game: Game, state: MatchState, command: Concede) -> Decision:
    _in_play(state)
    seat = _seat_of(state, command.player)
    if seat in state.conceded:
        raise Rejected("conceded", f"{command.player} has already left this match.")
    return _absent(game, state, seat, SeatConceded(player=command.player, seat=seat))


def _absent(game: Game, state: MatchState, seat: Seat, leaving: Any) -> Decision:
    """`seat` leaves (`leaving` puts it among the absent): what the game does then.

    A bot takes the seat ("bot"), the game's `concede` takes it out of play ("out"), or
    the match ends ("end"); so does a bot's match left with fewer than two players."""
    assert state.seed is not None
    after = _evolve(game, state, leaving)
    rule = game.absent_rule(state.edition)
    present = [s for s in range(state.seats) if s not in after.conceded]
    if rule == "end" or (rule == "bot" and len(present) < 2):
        return _folded(game, state, [leaving, _conceded_outcome(state, after.conceded)])
    if rule == "bot":
        return Decision([leaving], after)
    goes_on = game.concede(state.game_state, seat, Rng(state.seed, state.version))
    if goes_on is None:
        return _folded(game, state, [leaving, _conceded_outcome(state, after.conceded)])
    return _with_game_events(game, after, [leaving], goes_on)


def time_expired(game: Game, state: MatchState, command: TimeExpired, now: int) -> Decision:
    """Rule (time control): a seat whose clock has run out is skipped, played for by a
    bot for one move, or loses, as the match's clock says."""
    _in_play(state)
    clock = state.clock
    if clock is None:
        raise Rejected("no_clock", "This match is played without a clock.")
    seat = command.seat
    if not 0 <= seat < state.seats:
        raise Rejected("no_such_seat", f"There is no seat {seat + 1} at this table.")
    name = seat_names(state.players)[seat]
    if seat not in clock.running or clock.deadline(seat) != command.deadline:
        raise Rejected("clock_moved_on", f"{name}'s clock has moved on since that deadline.")
    if now < command.deadline:
        raise Rejected(
            "time_not_expired",
            f"{name} still has {(command.deadline - now + 999) // 1000} s on the clock.",
        )
    then = clock.control.expiry
    ran_out = TimeRanOut(player=state.players[seat] or "", seat=seat, then=then)
    if then == "lose":
        return _absent(game, state, seat, ran_out)
    after = _evolve(game, state, ran_out)
    if then == "bot":
        played = _bot_move(game, after, seat)
        return Decision([ran_out, *played.events], played.after)
    assert game.skip is not None and after.seed is not None  # checked at create
    skipped = game.skip(after.game_state, seat, Rng(after.seed, after.version))
    return _with_game_events(game, after, [ran_out], skipped)


def _bot_move(game: Game, state: MatchState, seat: Seat) -> Decision:
    """A bot plays one legal move for `seat`, chosen with the match's Rng (so it replays
    and audits like any other move)."""
    assert state.seed is not None
    choices = list(game.legal(state.game_state, seat))
    if not choices:
        raise RuntimeError(f"{game.name}: seat {seat} must act but has no legal move")
    move = Rng(state.seed, state.version).choice(choices)
    played = BotPlayed(seat=seat)
    after = _evolve(game, state, played)
    decided = game.decide(after.game_state, seat, move, Rng(state.seed, after.version))
    return _with_game_events(game, after, [played], decided)


def _absent_bots(game: Game, decided: Decision) -> Decision:
    """While an absent seat may act, its bot moves ("bot" games only)."""
    state = decided.after
    if not state.conceded or game.absent_rule(state.edition) != "bot":
        return decided
    events = list(decided.events)
    for _ in range(game.max_moves):
        if state.status != "playing":
            break
        idle = sorted(game.to_act(state.game_state) & set(state.conceded))
        if not idle:
            break
        step = _bot_move(game, state, idle[0])
        events += step.events
        state = step.after
    else:
        raise RuntimeError(f"{game.name}: the bots did not hand back in {game.max_moves} moves")
    return Decision(events, state)


def _with_game_events(
    game: Game, state: MatchState, before: list[Any], decided: Decided[Any]
) -> Decision:
    """The lifecycle events already folded into `state`, then the game's own, then
    match.finished when the game is over after them. Each event is folded once: the game's
    state after its events comes from its recorder, or from one fold here."""
    events, game_state = game.settle(state.game_state, decided)
    return _with_settled(game, state, before, events, game_state)


def _with_settled(
    game: Game, state: MatchState, before: list[Any], events: list[Any], game_state: Any
) -> Decision:
    after = msgspec.structs.replace(
        state, version=state.version + len(events), game_state=game_state
    )
    if events and state.undo and state.undo[-1].until <= state.version:
        after.undo = []  # as the fold does: a move past the last that may be taken back
    outcome = game.outcome(game_state)
    if outcome is None:
        return Decision([*before, *events], after)
    finished = MatchFinished(
        scores=outcome.scores,
        ranks=absent_last(outcome.ranks, state.conceded),
        game=state.game,
        players=tuple(p or "" for p in state.players),
        seed=state.seed,
    )
    return Decision([*before, *events, finished], _evolve(game, after, finished))


def absent_last(ranks: Sequence[int], absent: Sequence[Seat]) -> tuple[int, ...]:
    """The game's ranks with every absent seat after every seat still at the table, each
    group in the game's order (ranks the game already gives that way are unchanged)."""
    if not absent:
        return tuple(ranks)
    present = [s for s in range(len(ranks)) if s not in absent]
    out = []
    for seat, rank in enumerate(ranks):
        group = absent if seat in absent else present
        ahead = len(present) if seat in absent else 0
        out.append(1 + ahead + sum(1 for other in group if ranks[other] < rank))
    return tuple(out)


def _conceded_outcome(state: MatchState, conceded: Sequence[Seat]) -> MatchFinished:
    """Those still at the table share first place; those who left rank by when they left."""
    n = state.seats
    ranks = [1] * n
    for order, seat in enumerate(reversed(conceded)):
        ranks[seat] = n - len(conceded) + 1 + order
    return MatchFinished(
        scores=(0,) * n,
        ranks=tuple(ranks),
        reason="conceded",
        game=state.game,
        players=tuple(p or "" for p in state.players),
        seed=state.seed,
    )


def _in_lobby(state: MatchState) -> None:
    _not_closed(state)
    if state.status == "finished":
        raise Rejected("match_finished", "This match is over.")
    if state.status != "lobby":
        raise Rejected("match_started", "This match has already started.")


def _not_closed(state: MatchState) -> None:
    if state.status == "closed":
        raise Rejected("table_closed", "This table was closed before its match began.")


def _in_play(state: MatchState) -> None:
    _not_closed(state)
    if state.status == "lobby":
        raise Rejected("match_not_started", "This match has not started yet.")
    if state.status == "finished":
        raise Rejected("match_finished", "This match is over.")


def _seat_of(state: MatchState, player: str) -> Seat:
    if player not in state.players:
        raise Rejected("not_seated", f"{player} has no seat at this table.")
    return state.players.index(player)


# --- codecs -----------------------------------------------------------------------------------


@cache
def _move_decoder(name: str) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(get_game(name).command_type)


def decode_move(game: Game, raw: bytes | msgspec.Raw) -> Any:
    try:
        return _move_decoder(game.name).decode(raw)
    except msgspec.ValidationError as err:
        raise Rejected("unknown_command", f"That is not a {game.title} move: {err}.") from None
    except msgspec.DecodeError as err:
        raise Rejected("malformed_command", f"That move is not valid JSON: {err}.") from None


class EventCodec:
    """Encodes and decodes one game's match stream (lifecycle and game events). Built once."""

    def __init__(self, game: Game) -> None:
        members = MATCH_EVENT_TYPES + typing.get_args(game.event_type)
        union: Any = typing.Union[members]  # noqa: UP007 - built at run time
        self._decoder = msgspec.json.Decoder(union)
        self._encoder = msgspec.json.Encoder()
        state_fields: Any = game.state_type
        self._state_decoder = msgspec.json.Decoder(state_fields)

    def encode(self, event: Any) -> bytes:
        return self._encoder.encode(event)

    def decode(self, payload: bytes) -> Any:
        return self._decoder.decode(payload)

    def encode_state(self, state: MatchState) -> bytes:
        return self._encoder.encode(state)

    def decode_state(self, payload: bytes) -> MatchState:
        raw = _SNAPSHOT_DECODER.decode(payload)
        game_state = self._state_decoder.decode(raw.game_state)
        return MatchState(
            game=raw.game,
            seats=raw.seats,
            options=raw.options,
            players=raw.players,
            status=raw.status,
            version=raw.version,
            seed=raw.seed,
            rules_version=raw.rules_version,
            conceded=raw.conceded,
            outcome=raw.outcome,
            game_state=game_state,
            undo=[
                UndoStep(u.seat, u.version, u.until, self._state_decoder.decode(u.game_state))
                for u in raw.undo
            ],
            rematch=raw.rematch,
            rematch_of=raw.rematch_of,
            clock=raw.clock,
            edition=raw.edition,
            unlisted=raw.unlisted,
        )


class _RawUndoStep(msgspec.Struct):
    seat: Seat
    version: int
    until: int
    game_state: msgspec.Raw


class _RawMatchState(msgspec.Struct):
    game: str
    seats: int
    options: dict[str, Any]
    players: list[str | None]
    status: Status
    version: int
    seed: int | None
    rules_version: str
    conceded: list[Seat]
    outcome: Outcome | None
    game_state: msgspec.Raw
    # Snapshots written before undo and rematches have none of these.
    undo: list[_RawUndoStep] = []
    rematch: RematchTalk | None = None
    rematch_of: str = ""
    clock: Clocks | None = None
    edition: int = 0
    unlisted: bool = False


_SNAPSHOT_DECODER = msgspec.json.Decoder(_RawMatchState)


@cache
def codec(name: str) -> EventCodec:
    return EventCodec(get_game(name))


def event_tag(event: Any) -> str:
    """The pinned tag of an event struct ("chicken.dice_rolled")."""
    return str(type(event).__struct_config__.tag)


# --- reading a match --------------------------------------------------------------------------


def view(state: MatchState, seat: Seat | None) -> dict[str, Any]:
    """The match as `seat` (or a spectator) may see it: lifecycle plus the game's view."""
    game = get_game(state.game)
    return _view(state, game, _view_shared(state, game), seat)


def views(state: MatchState) -> list[tuple[Seat | None, dict[str, Any]]]:
    """Every reader's `view`, the spectator's first, then each seat's: what readers
    share is worked out once, the game's table once per reader; once for all of them
    where the game keeps no secrets, and then every reader gets the same dict."""
    game = get_game(state.game)
    shared = _view_shared(state, game)
    if keeps_no_secrets(game):
        alike = _view(state, game, shared, None)
        return [(None, alike), *((seat, alike) for seat in range(state.seats))]
    readers: list[Seat | None] = [None, *range(state.seats)]
    return [(seat, _view(state, game, shared, seat)) for seat in readers]


def _view_shared(state: MatchState, game: Game) -> dict[str, Any]:
    return {
        "to_act": sorted(game.to_act(state.game_state)) if state.status == "playing" else [],
        "outcome": msgspec.to_builtins(state.outcome) if state.outcome else None,
        "clock": clocks.view(state.clock) if state.clock is not None else None,
        "undo": may_undo(state),
        "rematch": msgspec.to_builtins(state.rematch) if state.rematch else None,
    }


def _view(
    state: MatchState, game: Game, shared: dict[str, Any], seat: Seat | None
) -> dict[str, Any]:
    return {
        "game": state.game,
        "status": state.status,
        "version": state.version,
        "players": state.players,
        "conceded": state.conceded,
        "to_act": shared["to_act"],
        "outcome": shared["outcome"],
        **({"clock": shared["clock"]} if state.clock is not None else {}),
        "table": msgspec.to_builtins(game.view(state.game_state, seat))
        if state.status != "lobby"
        else None,
        "undo": shared["undo"],
        "rematch": shared["rematch"],
        "rematch_of": state.rematch_of,
        **({"unlisted": True} if state.unlisted else {}),
    }


def may_undo(state: MatchState) -> Seat | None:
    """The seat that may take back the last move now, if any."""
    if state.status != "playing" or not state.undo or state.undo[-1].until != state.version:
        return None
    return state.undo[-1].seat


def redact(state_game: str, event: Any, seat: Seat | None) -> Any | None:
    """Lifecycle events are public (a seed only as its commitment); game events pass the
    game's `redact`."""
    if not is_lifecycle(event):
        return get_game(state_game).redact(event, seat)
    if isinstance(event, UndoPoint):
        return None  # the fold's bookkeeping: the view says who may take a move back
    return public(event)


def seat_names(players: Sequence[str | None]) -> list[str]:
    """The names sentences give the seats: the player's, or for an empty seat its number."""
    return [p or f"seat {i + 1}" for i, p in enumerate(players)]


def describe(game_name: str, event: Any, reader: Seat | None, names: Sequence[str]) -> str:
    """The event as one sentence for `reader` (None: a spectator), who is "You" in it."""
    text = _sentence(game_name, event, reader, names)
    return text if reader is None else to_reader(text)


def _sentence(game_name: str, event: Any, reader: Seat | None, names: Sequence[str]) -> str:
    def name(seat: Seat) -> str:
        if reader == seat:
            return "You"
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"

    if not is_lifecycle(event):
        return get_game(game_name).describe(event, reader, names)
    match event:
        case MatchCreated(game=game, seats=seats, rematch_of=origin, unlisted=unlisted):
            again = f": the rematch of match {origin}" if origin else ""
            table = f"{seats}-seat table of {get_game(game).title}"
            return f"{'An unlisted' if unlisted else 'A'} {table} was opened{again}."
        case PlayerJoined(player=player, seat=seat):
            # The seat's reader is who sat down only if no one has left it since.
            mine = reader == seat and seat < len(names) and names[seat] == player
            return f"{'You' if mine else player} sat down in seat {seat + 1}."
        case PlayerLeft(player=player):
            return f"{player} left the table."
        case MatchStarted(players=players):
            return f"The match started: {', '.join(players)}."
        case SeatConceded(seat=seat):
            return f"{name(seat)} conceded."
        case MoveUndone(seat=seat):
            return f"{name(seat)} took back {'your' if reader == seat else 'their'} move."
        case UndoPoint(seat=seat):
            return f"{name(seat)} may take this move back."
        case RematchOffered(seat=seat):
            return f"{name(seat)} offered a rematch."
        case RematchAccepted(seat=seat):
            return f"{name(seat)} accepted the rematch."
        case RematchDeclined(seat=seat):
            return f"{name(seat)} declined the rematch."
        case RematchAgreed(match_id=new):
            return f"Everyone accepted: the rematch is match {new}."
        case TimeRanOut(seat=seat, then=then):
            follows = {
                "skip": "the turn is skipped",
                "bot": "a bot plays the move",
                "lose": "out of the match",
            }[then]
            return f"{name(seat)} ran out of time: {follows}."
        case BotPlayed(seat=seat):
            return f"A bot moved for {name(seat)}."
        case ClocksSet(remaining=remaining, running=running):
            left = ", ".join(
                f"{name(s)} {clocks.spoken(ms)}{' (running)' if s in running else ''}"
                for s, ms in enumerate(remaining)
            )
            return f"Clocks: {left}."
        case MatchForked(origin=origin, at_version=at):
            return f"This match continues match {origin} from move {at}, with a new seed."
        case TableClosed(reason="empty"):
            return "The table was closed: everyone had left."
        case TableClosed():
            return "The table was closed: it waited too long for players."
        case MatchFinished(ranks=ranks, scores=scores, reason=reason):
            winners = [name(s) for s, r in enumerate(ranks) if r == 1]
            if reason == "conceded":  # ended before the game did: no score to tell
                return f"The match is over: the others left. Won by {' and '.join(winners)}."
            table = ", ".join(f"{name(s)} {sc}" for s, sc in enumerate(scores))
            return f"The match is over. Won by {' and '.join(winners)} ({table})."
        case _:
            return get_game(game_name).describe(event, reader, names)


def decode_snapshot(payload: bytes) -> MatchState:
    """A snapshot's state, whatever its game (the game is read from the snapshot itself)."""
    return codec(_SNAPSHOT_DECODER.decode(payload).game).decode_state(payload)
