"""The turn of Chicken!: decide, evolve, legal and to_act, plus conceding and the outcome.

Rule citations point at the "Gamehelpchicken" page (seed 002, newest revision 2026-08-10).
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from domain.games.chicken.commands import (
    ChickenOut,
    Command,
    CountChickens,
    GoForIt,
    HatchFromBag,
    HatchFromCoop,
    Reroll,
)
from domain.games.chicken.coop import draw_from_bag, in_table_order, next_in_coop, refill_draws
from domain.games.chicken.dice import (
    COLOUR,
    FACES,
    GOAL,
    HATCHES,
    ORDER,
    POINTS,
    SET_ASIDE_LEFT,
    SET_ASIDE_RIGHT,
    WHITE_DICE,
    DieId,
)
from domain.games.chicken.events import (
    Busted,
    ChickenedOut,
    ChickensCounted,
    CoopRefilled,
    DicePassed,
    DiceReturned,
    DiceRolled,
    DieHatched,
    EggsUnhatched,
    Event,
    GameWon,
    PlayerConceded,
    Roll,
    StartingPlayerChosen,
)
from domain.games.chicken.state import InPlay, State
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import next_seat

Turn = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""


# --- what the table shows -------------------------------------------------------------------


def foxes(state: State) -> int:
    return sum(1 for d in state.dice if d.face == "fox")


def barks(state: State) -> int:
    return sum(1 for d in state.dice if d.face == "bark")


def is_bust(state: State) -> bool:
    """3 or more foxes showing, after each Bark! scares one away, bust the turn."""
    return foxes(state) - barks(state) >= 3


def in_the_middle(state: State) -> list[DieId]:
    """Eggs, blanks, Happy Dogs, Chicks and unrolled dice: everything not set aside."""
    aside = SET_ASIDE_LEFT | SET_ASIDE_RIGHT
    return [d.die for d in state.dice if d.face not in aside]


def coloured_dice(state: State) -> tuple[DieId, ...]:
    """The holder's non-white dice."""
    return tuple(d.die for d in state.dice if COLOUR[d.die] != "white")


def points_showing(state: State) -> int:
    """1 per chicken, Happy Dog and Chick, 2 per double chicken."""
    return sum(POINTS.get(d.face, 0) for d in state.dice if d.face is not None)


def on_starting_space(state: State, seat: Seat) -> bool:
    """Rule (seed 002): chickening out is free "while your Player Token is still on the
    starting space". ASSUMPTION: "still" means never having left it; a farmer knocked back
    to 0 has left it, but no space lies behind it, so losing a point there moves the token
    nowhere: both readings cost nothing at 0 points."""
    return state.scores[seat] == 0


def farmers_left(state: State) -> list[Seat]:
    return [seat for seat in range(len(state.scores)) if seat not in state.conceded]


def next_farmer(state: State, seat: Seat) -> Seat:
    """Clockwise (the next seat), skipping farmers who left."""
    return next_seat(seat, len(state.scores), lambda s: s not in state.conceded)


# --- setup ----------------------------------------------------------------------------------


def start(state: State, rng: Rng) -> Turn:
    """Eggspansion: 5 dice drawn from the Seed Bag fill the Coop. A random farmer starts."""
    turn = Turn(state, evolve)
    if state.options.eggspansion:
        turn.record(CoopRefilled(dice=refill_draws(state.coop, state.seed_bag, rng)))
    turn.record(StartingPlayerChosen(seat=rng.below(len(state.scores))))
    return turn


# --- decide ---------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    """Guards for every move (game over, whose turn), then the move's own rule."""
    if state.phase == "over":
        raise Rejected("game_over", "The game is over: nobody rolls any more.")
    if state.phase == "setup":
        raise Rejected("not_started", "The game has not started: nobody holds the dice yet.")
    if seat != state.holder or seat in state.conceded:
        raise Rejected("not_your_turn", f"Seat {state.holder + 1} holds the dice; wait your turn.")
    match command:
        case GoForIt():
            return go_for_it(state, seat, rng)
        case ChickenOut():
            return chicken_out(state, seat, rng)
        case HatchFromCoop(die=die):
            return hatch_from_coop(state, seat, die)
        case HatchFromBag():
            return hatch_from_bag(state, seat, rng)
        case Reroll():
            return reroll(state, seat, rng)
        case CountChickens():
            return count_chickens(state, seat)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a Chicken! move.")


def go_for_it(state: State, seat: Seat, rng: Rng) -> Turn:
    """Go For It!: take all the dice passed to you and roll them."""
    _at_start_of_turn(state, "go for it")
    turn = Turn(state, evolve)
    turn.record(roll(seat, [d.die for d in state.dice], rng, reroll=False))
    resolve_roll(turn, seat, rng)
    return turn


def chicken_out(state: State, seat: Seat, rng: Rng) -> Turn:
    """Chicken Out!: coloured dice go back, lose 1 point (not on the start space), roll 4 whites."""
    _at_start_of_turn(state, "chicken out")
    turn = Turn(state, evolve)
    turn.record(ChickenedOut(seat=seat, points_lost=0 if on_starting_space(state, seat) else 1))
    give_back_coloured_dice(turn, seat, rng)
    turn.record(roll(seat, WHITE_DICE, rng, reroll=False))
    resolve_roll(turn, seat, rng)
    return turn


def hatch_from_coop(state: State, seat: Seat, die: DieId) -> Turn:
    """Eggspansion: for one egg, take any die you can see in the Coop."""
    _egg_waiting(state)
    if die not in state.coop:
        shown = ", ".join(state.coop) or "nothing"
        raise Rejected("die_not_in_coop", f"{die!r} is not in the Coop, which holds {shown}.")
    turn = Turn(state, evolve)
    turn.record(DieHatched(seat=seat, die=die, source="coop"))
    after_hatching(turn, seat)
    return turn


def hatch_from_bag(state: State, seat: Seat, rng: Rng) -> Turn:
    """Eggspansion: for one egg, draw a die blind from the Seed Bag."""
    _egg_waiting(state)
    if not state.seed_bag:
        raise Rejected("seed_bag_empty", "The Seed Bag is empty; hatch a die from the Coop.")
    turn = Turn(state, evolve)
    turn.record(DieHatched(seat=seat, die=draw_from_bag(state.seed_bag, rng), source="bag"))
    after_hatching(turn, seat)
    return turn


def reroll(state: State, seat: Seat, rng: Rng) -> Turn:
    """Reroll: every die left in the middle, once per turn."""
    if state.rerolled:
        raise Rejected("already_rerolled", "You get only one reroll per turn.")
    _rolled_and_hatched(state)
    middle = in_the_middle(state)
    if not middle:
        raise Rejected("nothing_to_reroll", "Every die is set aside: there is nothing to reroll.")
    turn = Turn(state, evolve)
    turn.record(roll(seat, middle, rng, reroll=True))
    resolve_roll(turn, seat, rng)
    return turn


def count_chickens(state: State, seat: Seat) -> Turn:
    """Count Your Chickens: stop, score and pass all the dice on."""
    _rolled_and_hatched(state)
    turn = Turn(state, evolve)
    count_and_pass(turn, seat)
    return turn


# --- the steps of a turn --------------------------------------------------------------------


def roll(seat: Seat, dice: Iterable[DieId], rng: Rng, *, reroll: bool) -> DiceRolled:
    """Each die comes up on one of its six faces."""
    rolls = tuple(Roll(die=d, face=rng.choice(FACES[COLOUR[d]])) for d in in_table_order(dice))
    return DiceRolled(seat=seat, rolls=rolls, reroll=reroll)


def resolve_roll(turn: Turn, seat: Seat, rng: Rng) -> None:
    """Chickens right, foxes left (a die's place follows its face); bust check; hatch."""
    if is_bust(turn.state):
        bust(turn, seat, rng)
    else:
        after_hatching(turn, seat)


def hatch_without_choice(turn: Turn, seat: Seat) -> None:
    """Base game: each egg takes a yellow die, orange once yellows run out, nothing once empty.

    Eggspansion: the farmer chooses, unless the Coop and the Seed Bag are both empty.
    Rule (seed 002, Hatching Dice): "If no dice remain in the Coop, do not add a die."
    """
    if not turn.state.options.eggspansion:
        while turn.state.eggs_to_hatch and (die := next_in_coop(turn.state.coop)):
            turn.record(DieHatched(seat=seat, die=die, source="coop"))
    waiting = turn.state.eggs_to_hatch
    if waiting and not turn.state.coop and not turn.state.seed_bag:
        turn.record(EggsUnhatched(seat=seat, eggs=waiting))


def after_hatching(turn: Turn, seat: Seat) -> None:
    """Hatch what needs no choice; once every egg has hatched after the reroll, count.

    Rule (seed 002, Reroll): newly hatched dice are not rolled after the reroll.
    """
    hatch_without_choice(turn, seat)
    if turn.state.phase == "deciding" and turn.state.rerolled:
        count_and_pass(turn, seat)


def bust(turn: Turn, seat: Seat, rng: Rng) -> None:
    """Score 0, coloured dice go back, only the 4 white dice pass on."""
    turn.record(Busted(seat=seat, foxes=foxes(turn.state), barks=barks(turn.state)))
    give_back_coloured_dice(turn, seat, rng)
    pass_dice(turn, seat)


def give_back_coloured_dice(turn: Turn, seat: Seat, rng: Rng) -> None:
    """Base: back to the Coop. Eggspansion: into the Seed Bag, then the Coop refilled to 5."""
    eggspansion = turn.state.options.eggspansion
    back = coloured_dice(turn.state)
    if back:
        turn.record(DiceReturned(seat=seat, dice=back, to="bag" if eggspansion else "coop"))
    if eggspansion:
        drawn = refill_draws(turn.state.coop, turn.state.seed_bag, rng)
        if drawn:
            turn.record(CoopRefilled(dice=drawn))


def count_and_pass(turn: Turn, seat: Seat) -> None:
    """Score what shows; 25 or more wins at once, otherwise all the dice pass on."""
    points = points_showing(turn.state)
    score = turn.state.scores[seat] + points
    turn.record(ChickensCounted(seat=seat, points=points, score=score))
    if score >= GOAL:
        turn.record(GameWon(seat=seat, reason="goal"))
    else:
        pass_dice(turn, seat)


def pass_dice(turn: Turn, seat: Seat) -> None:
    """All the dice in front of the farmer go to the next farmer clockwise."""
    dice = tuple(d.die for d in turn.state.dice)
    turn.record(DicePassed(seat=seat, to=next_farmer(turn.state, seat), dice=dice))


# --- guards ---------------------------------------------------------------------------------


def _at_start_of_turn(state: State, move: str) -> None:
    if state.phase != "choosing":
        raise Rejected("turn_under_way", f"You may {move} only at the start of your turn.")


def _egg_waiting(state: State) -> None:
    if not state.options.eggspansion:
        raise Rejected("eggspansion_only", "Choosing which die hatches is an Eggspansion rule.")
    if state.phase != "hatching":
        raise Rejected("no_egg_to_hatch", "No egg is waiting to hatch.")


def _rolled_and_hatched(state: State) -> None:
    if state.phase == "choosing":
        raise Rejected("roll_first", "Go for it or chicken out first: you have not rolled yet.")
    if state.phase == "hatching":
        eggs = state.eggs_to_hatch
        raise Rejected("eggs_to_hatch", f"Hatch a die for each egg first ({eggs} still waiting).")


# --- legal and to_act -----------------------------------------------------------------------


def legal(state: State, seat: Seat) -> list[Command]:
    if seat != state.holder or seat in state.conceded:
        return []
    match state.phase:
        case "choosing":
            return [GoForIt(), ChickenOut()]
        case "hatching":
            from_coop: list[Command] = [HatchFromCoop(die=die) for die in state.coop]
            return from_coop + ([HatchFromBag()] if state.seed_bag else [])
        case "deciding" if not state.rerolled:
            return [CountChickens(), *([Reroll()] if in_the_middle(state) else [])]
        case _:
            return []


def to_act(state: State) -> frozenset[Seat]:
    if state.phase in ("choosing", "hatching", "deciding"):
        return frozenset({state.holder})
    return frozenset()


# --- evolve ---------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    match event:
        case StartingPlayerChosen(seat=seat):
            dice = [InPlay(die=d) for d in WHITE_DICE]
            return replace(state, holder=seat, dice=dice, phase="choosing")
        case CoopRefilled(dice=drawn):
            coop = in_table_order([*state.coop, *drawn])
            return replace(state, coop=coop, seed_bag=_without(state.seed_bag, drawn))
        case ChickenedOut(seat=seat, points_lost=lost):
            return replace(state, scores=_with_score(state.scores, seat, state.scores[seat] - lost))
        case DiceReturned(dice=back, to="coop"):
            coop = in_table_order([*state.coop, *back])
            return replace(state, dice=[d for d in state.dice if d.die not in back], coop=coop)
        case DiceReturned(dice=back, to="bag"):
            bag = in_table_order([*state.seed_bag, *back])
            return replace(state, dice=[d for d in state.dice if d.die not in back], seed_bag=bag)
        case DiceRolled(rolls=rolls, reroll=reroll):
            faces = {r.die: r.face for r in rolls}
            dice = [InPlay(die=d.die, face=faces.get(d.die, d.face)) for d in state.dice]
            eggs = sum(1 for r in rolls if r.face in HATCHES)
            phase = "hatching" if eggs else "deciding"
            rerolled = state.rerolled or reroll
            return replace(state, dice=dice, eggs_to_hatch=eggs, phase=phase, rerolled=rerolled)
        case Busted():
            return replace(state, eggs_to_hatch=0, phase="turn_over")
        case DieHatched(die=die, source=source):
            dice = sorted([*state.dice, InPlay(die=die)], key=lambda d: ORDER[d.die])
            eggs = state.eggs_to_hatch - 1
            phase = "hatching" if eggs else "deciding"
            if source == "coop":
                coop, bag = _without(state.coop, (die,)), state.seed_bag
            else:
                coop, bag = state.coop, _without(state.seed_bag, (die,))
            return replace(
                state, dice=dice, coop=coop, seed_bag=bag, eggs_to_hatch=eggs, phase=phase
            )
        case EggsUnhatched(eggs=eggs):
            left = state.eggs_to_hatch - eggs
            return replace(state, eggs_to_hatch=left, phase="hatching" if left else "deciding")
        case ChickensCounted(seat=seat, score=score):
            return replace(state, scores=_with_score(state.scores, seat, score), phase="turn_over")
        case DicePassed(to=to, dice=passed):
            dice = [InPlay(die=d) for d in passed]
            return replace(
                state, holder=to, dice=dice, rerolled=False, eggs_to_hatch=0, phase="choosing"
            )
        case PlayerConceded(seat=seat):
            return replace(state, conceded=sorted([*state.conceded, seat]))
        case GameWon(seat=seat):
            return replace(state, winner=seat, phase="over")
        case _:
            raise TypeError(f"not a Chicken! event: {event!r}")


def _without(dice: list[DieId], gone: Iterable[DieId]) -> list[DieId]:
    removed = set(gone)
    return [d for d in dice if d not in removed]


def _with_score(scores: list[int], seat: Seat, score: int) -> list[int]:
    return [score if s == seat else old for s, old in enumerate(scores)]


# --- leaving and winning --------------------------------------------------------------------


def concede(state: State, seat: Seat, rng: Rng) -> Turn:
    """The farmer leaves; if they hold the dice, the dice go on as after a bust.

    ASSUMPTION (the page says nothing): the last farmer at the table wins at once.
    """
    turn = Turn(state, evolve)
    turn.record(PlayerConceded(seat=seat))
    left = farmers_left(turn.state)
    if len(left) == 1:
        turn.record(GameWon(seat=left[0], reason="last_player"))
    elif seat == state.holder and state.phase in ("choosing", "hatching", "deciding"):
        give_back_coloured_dice(turn, seat, rng)
        pass_dice(turn, seat)
    return turn


def skip_turn(state: State, seat: Seat, rng: Rng) -> Turn:
    """The farmer's time ran out: the turn scores nothing and the dice go on as after a
    bust, coloured dice back first.

    ASSUMPTION (the page has no clock): a turn skipped on time is a bust without foxes.
    """
    turn = Turn(state, evolve)
    if seat == state.holder and state.phase in ("choosing", "hatching", "deciding"):
        give_back_coloured_dice(turn, seat, rng)
        pass_dice(turn, seat)
    return turn


def outcome(state: State) -> Outcome | None:
    """The winner first; then farmers still at the table; then those who left; by score."""
    if state.phase != "over" or state.winner is None:
        return None
    keys = [
        (int(seat == state.winner), int(seat not in state.conceded), score)
        for seat, score in enumerate(state.scores)
    ]
    return Outcome(scores=tuple(state.scores), ranks=ranks_from_keys(keys))
