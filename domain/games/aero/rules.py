"""Aero's turn: roll, split at least one die per roll, then arrest one criminal.

Rule sentences cite the seed (002, "Gamehelpaero") and rules-batch2.md, "Aero".
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import msgspec

from domain.games.aero.commands import Arrest, Command, FlipCriminal, RollDice, SetAside
from domain.games.aero.dice import (
    ALL_DICE,
    BANDIT_DICE,
    CRIMINAL_TITLES,
    CRIMINALS,
    EYE,
    FACE_VALUE,
    FACES,
    FOUR_EYES_VALUE,
    NUMBER_DICE,
    TURNS,
    Criminal,
    DieId,
)
from domain.games.aero.events import (
    CriminalArrested,
    CriminalFlipped,
    DiceRolled,
    DiceSetAside,
    DieShowing,
    Event,
    GameEnded,
    PlayerConceded,
    TurnBegan,
)
from domain.games.aero.state import Dealt, Table
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import next_seat

Turn = Recorder[Table, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

# --- reading the table ---------------------------------------------------------------------


def free_dice(state: Table) -> list[DieId]:
    """The dice of the last roll that are not yet set aside (sorted ids)."""
    return sorted(d for d in state.faces if d not in state.kept)


def lowest_value(state: Table) -> int:
    """Rule: the lowest number die counts; a snake eye is 1, but four snake eyes are 7."""
    faces = [state.faces[d] for d in NUMBER_DICE]
    if all(face == EYE for face in faces):
        return FOUR_EYES_VALUE
    return min(FACE_VALUE[face] for face in faces)


def bandits_showing(state: Table, criminal: Criminal) -> int:
    """How many bandit dice show this criminal."""
    return sum(1 for d in BANDIT_DICE if state.faces.get(d) == criminal)


def dealt_with(state: Table, seat: Seat) -> set[Criminal]:
    return {d.criminal for d in state.dealt[seat]}


def unarrested(state: Table, seat: Seat) -> list[Criminal]:
    """The criminals the seat has neither arrested nor flipped, in card order."""
    done = dealt_with(state, seat)
    return [c for c in CRIMINALS if c not in done]


def arrestable(state: Table, seat: Seat) -> list[Criminal]:
    """Unarrested criminals showing on at least one bandit die."""
    return [c for c in unarrested(state, seat) if bandits_showing(state, c) > 0]


def totals(state: Table) -> tuple[int, ...]:
    return tuple(sum(d.points for d in dealt) for dealt in state.dealt)


def is_active(state: Table, seat: Seat) -> bool:
    return seat not in state.conceded


# --- setup -----------------------------------------------------------------------------------


def start(state: Table, rng: Rng) -> Turn:
    """Seat 1 begins its first turn."""
    turn = Turn(state, evolve)
    turn.record(TurnBegan(seat=0, turn=1))
    return turn


# --- decide ----------------------------------------------------------------------------------


def decide(state: Table, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "The six turns are played; the game is over.")
    if state.phase == "setup":
        raise Rejected("not_started", "The dice are not out yet; the game has not started.")
    if seat != state.player or not is_active(state, seat):
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn to roll.")
    match command:
        case RollDice():
            return roll_dice(state, seat, rng)
        case SetAside(dice=dice):
            return set_aside(state, seat, dice, rng)
        case Arrest(criminal=criminal):
            return arrest(state, seat, criminal)
        case FlipCriminal(criminal=criminal):
            return flip_criminal(state, seat, criminal)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not an Aero move.")


def roll(state: Table, dice: list[DieId], seat: Seat, rng: Rng) -> DiceRolled:
    """Each die lands on one of its faces (the options say which number dice are used)."""
    faces = FACES[state.options.number_dice]
    return DiceRolled(
        seat=seat,
        dice=tuple(DieShowing(die=d, face=faces[d][rng.below(len(faces[d]))]) for d in dice),
    )


def roll_dice(state: Table, seat: Seat, rng: Rng) -> Turn:
    """Rule: each turn opens with a throw of all eight dice."""
    if state.phase != "roll":
        raise Rejected("already_rolled", "You have already thrown the dice this turn.")
    turn = Turn(state, evolve)
    turn.record(roll(state, list(ALL_DICE), seat, rng))
    return turn


def set_aside(state: Table, seat: Seat, dice: tuple[DieId, ...], rng: Rng) -> Turn:
    """Rule: split at least one die after each roll; it is never rerolled. Reroll the rest."""
    if state.phase == "roll":
        raise Rejected("roll_first", "Throw the dice before setting any aside.")
    if state.phase != "set_aside":
        raise Rejected("all_dice_set_aside", "Every die is set aside: arrest a criminal now.")
    if not dice:
        raise Rejected("set_aside_at_least_one", "You must split at least one die after a roll.")
    if list(dice) != sorted(set(dice)):
        raise Rejected("dice_not_sorted", "Name each die once, ids in sorted order.")
    for die in dice:
        if die not in ALL_DICE:
            raise Rejected("unknown_die", f"There is no die called {die!r} in Aero.")
        if die in state.kept:
            raise Rejected("die_already_set_aside", f"{die} is already set aside this turn.")
    turn = Turn(state, evolve)
    turn.record(DiceSetAside(seat=seat, dice=dice))
    rest = [d for d in free_dice(state) if d not in dice]
    if rest:
        turn.record(roll(state, rest, seat, rng))
    return turn


def arrest(state: Table, seat: Seat, criminal: Criminal) -> Turn:
    """Rule: arrest one rolled criminal; score its dice count times the lowest number."""
    _check_ready_to_arrest(state, seat, criminal)
    count = bandits_showing(state, criminal)
    if count == 0:
        raise Rejected(
            "criminal_not_rolled",
            f"No bandit die shows {CRIMINAL_TITLES[criminal]}; arrest one that you rolled.",
        )
    value = lowest_value(state)
    turn = Turn(state, evolve)
    turn.record(
        CriminalArrested(
            seat=seat, criminal=criminal, count=count, value=value, points=count * value
        )
    )
    _after_turn(turn, seat)
    return turn


def flip_criminal(state: Table, seat: Seat, criminal: Criminal) -> Turn:
    """Rule: with no unarrested criminal showing, flip any unarrested one and score 0."""
    _check_ready_to_arrest(state, seat, criminal)
    if arrestable(state, seat):
        raise Rejected(
            "must_arrest_a_rolled_criminal",
            "One of your unarrested criminals shows on the dice: you must arrest it.",
        )
    turn = Turn(state, evolve)
    turn.record(CriminalFlipped(seat=seat, criminal=criminal))
    _after_turn(turn, seat)
    return turn


def _check_ready_to_arrest(state: Table, seat: Seat, criminal: Criminal) -> None:
    if state.phase != "arrest":
        raise Rejected("dice_still_rolling", "Set every die aside before you arrest a criminal.")
    if criminal not in CRIMINAL_TITLES:
        raise Rejected("unknown_criminal", f"There is no criminal called {criminal!r} in Aero.")
    if criminal in dealt_with(state, seat):
        raise Rejected(
            "criminal_already_dealt_with",
            f"You have already dealt with {CRIMINAL_TITLES[criminal]}.",
        )


def has_turns_left(state: Table, seat: Seat) -> bool:
    return is_active(state, seat) and len(state.dealt[seat]) < TURNS


def _after_turn(turn: Turn, seat: Seat) -> None:
    """The next seat in order with turns left begins; with none, the game ends."""
    state = turn.state
    nxt = next_seat(seat, state.seats, lambda s: has_turns_left(state, s))
    if has_turns_left(state, nxt):
        turn.record(TurnBegan(seat=nxt, turn=len(state.dealt[nxt]) + 1))
    else:
        turn.record(GameEnded(scores=totals(state)))


def concede(state: Table, seat: Seat, rng: Rng) -> Turn | None:
    """The seat's remaining turns are skipped; alone at the table, the match just ends."""
    others = [s for s in range(state.seats) if s != seat and is_active(state, s)]
    if not others or state.phase in ("over", "setup"):
        return None
    turn = Turn(state, evolve)
    turn.record(PlayerConceded(seat=seat))
    if seat == state.player:
        _after_turn(turn, seat)
    return turn


def outcome(state: Table) -> Outcome | None:
    """After six turns each the highest total wins; a player who conceded ranks below."""
    if state.phase != "over":
        return None
    scores = totals(state)
    keys = [(int(is_active(state, s)), scores[s]) for s in range(state.seats)]
    return Outcome(scores=scores, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def legal(state: Table, seat: Seat) -> Iterator[Command]:
    if state.phase in ("setup", "over") or seat != state.player or not is_active(state, seat):
        return
    if state.phase == "roll":
        yield RollDice()
    elif state.phase == "set_aside":
        free = free_dice(state)
        for size in range(1, len(free) + 1):
            for dice in combinations(free, size):
                yield SetAside(dice=dice)
    elif state.phase == "arrest":
        showing = arrestable(state, seat)
        if showing:
            for criminal in showing:
                yield Arrest(criminal=criminal)
        else:
            for criminal in unarrested(state, seat):
                yield FlipCriminal(criminal=criminal)


def to_act(state: Table) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: Table, event: Event) -> Table:
    replace = msgspec.structs.replace
    match event:
        case TurnBegan(seat=seat, turn=turn):
            return replace(state, phase="roll", player=seat, turn=turn, faces={}, kept=[])
        case DiceRolled(dice=dice):
            faces = {**state.faces, **{d.die: d.face for d in dice}}
            return replace(state, phase="set_aside", faces=faces)
        case DiceSetAside(dice=dice):
            kept = [*state.kept, *dice]
            phase = "arrest" if len(kept) == len(ALL_DICE) else "set_aside"
            return replace(state, phase=phase, kept=kept)
        case CriminalArrested(seat=seat, criminal=criminal, points=points):
            return _deal(state, seat, Dealt(criminal=criminal, arrested=True, points=points))
        case CriminalFlipped(seat=seat, criminal=criminal):
            return _deal(state, seat, Dealt(criminal=criminal, arrested=False, points=0))
        case PlayerConceded(seat=seat):
            return replace(state, conceded=sorted({*state.conceded, seat}))
        case GameEnded():
            return replace(state, phase="over")
        case _:
            raise TypeError(f"not an Aero event: {event!r}")


def _deal(state: Table, seat: Seat, dealt: Dealt) -> Table:
    rows = [[*row, dealt] if s == seat else row for s, row in enumerate(state.dealt)]
    return msgspec.structs.replace(state, dealt=rows)
