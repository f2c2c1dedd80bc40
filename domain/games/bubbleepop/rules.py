"""A turn: refill the sky, maybe swap two sky Bubblees, let two fall, score, use powers.

decide + evolve + legal + to_act. Rule sentences cite seed 001 (Gamehelpbubbleepop,
2020-05-30).
"""

from __future__ import annotations

import msgspec

from domain.games.bubbleepop import powers
from domain.games.bubbleepop.board import NEAR_ROW, SKY_LINKS, sky_column, sky_row
from domain.games.bubbleepop.commands import Command, DropBubblees, SkipPower, SwapSky
from domain.games.bubbleepop.events import (
    BagEmptied,
    BlackPushed,
    BubbleeLanded,
    BubbleeScored,
    BubbleesPicked,
    BubbleeStuck,
    Event,
    FirstPlayerChosen,
    LinesScored,
    PlanetOverfilled,
    PlanetSwapped,
    PowerSkipped,
    PowerUsed,
    SkyArranged,
    SkyRefilled,
    SkySwapped,
    TurnBegan,
)
from domain.games.bubbleepop.matches import settle
from domain.games.bubbleepop.planet import has_room, opponent, sky_slot_of
from domain.games.bubbleepop.state import Options, State
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_scores

Turn = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

# --- decide -------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.over:
        raise Rejected("game_over", "The game is over.")
    if seat != state.player:
        raise Rejected("not_your_turn", "It is your opponent's turn.")
    turn = Turn(state, evolve)
    match command:
        case SwapSky(bubblees=pair):
            turn.record(*swap_sky(state, seat, pair))
            return turn
        case DropBubblees(bubblees=pair):
            turn.record(*drop(state, seat, pair))
        case SkipPower(colour=colour):
            powers.check_available(state, colour)
            turn.record(PowerSkipped(seat=seat, colour=colour))
        case _:
            turn.record(*use_power(state, seat, command))
    after(turn, rng)
    return turn


def swap_sky(state: State, seat: Seat, pair: tuple[str, str]) -> list[Event]:
    """Rule: before letting two fall, the player may swap two adjacent sky Bubblees."""
    if state.dropped:
        raise Rejected("already_dropped", "The sky swap comes before the Bubblees fall.")
    if state.swapped:
        raise Rejected("already_swapped", "You have already swapped in the sky this turn.")
    adjacent_in_sky(state, pair)
    return [SkySwapped(seat=seat, bubblees=pair)]


def drop(state: State, seat: Seat, pair: tuple[str, str]) -> list[Event]:
    """Rule: two adjacent sky Bubblees fall onto your planet, one at least from your side
    of the sky. Each lands on top of its column; a vertical pair lands nearer one first."""
    if state.dropped:
        raise Rejected("already_dropped", "Two Bubblees have already fallen this turn.")
    slots = adjacent_in_sky(state, pair)
    near = NEAR_ROW[seat]
    if all(sky_row(s) != near for s in slots):
        raise Rejected(
            "none_from_your_side",
            f"At least one of {pair[0]} and {pair[1]} must come from your side of the sky.",
        )
    events: list[Event] = [BubbleesPicked(seat=seat, bubblees=pair)]
    columns = [list(stack) for stack in state.planets[seat]]
    for slot in sorted(slots, key=lambda s: (sky_row(s) != near, s)):
        bubblee, column = state.sky[slot], sky_column(slot)
        assert bubblee is not None
        if has_room(columns, column):
            columns[column].append(bubblee)
            events.append(BubbleeLanded(planet=seat, column=column, bubblee=bubblee))
        else:
            events.append(BubbleeStuck(planet=seat, bubblee=bubblee))
    return events


def adjacent_in_sky(state: State, pair: tuple[str, str]) -> tuple[int, int]:
    if pair[0] >= pair[1]:
        raise Rejected(
            "pair_not_in_order", "Name two different Bubblees, their ids in sorted order."
        )
    a, b = sky_slot_of(state, pair[0]), sky_slot_of(state, pair[1])
    if a is None or b is None:
        missing = pair[0] if a is None else pair[1]
        raise Rejected("not_in_sky", f"{missing} is not in the sky.")
    if (min(a, b), max(a, b)) not in SKY_LINKS:
        raise Rejected("not_adjacent", f"{pair[0]} and {pair[1]} are not neighbours in the sky.")
    return a, b


def use_power(state: State, seat: Seat, command: Command) -> list[Event]:
    """Rule: each line scored gives the power of its colour, which the player may use."""
    if not isinstance(command, powers.POWER_COMMANDS):
        raise Rejected("unknown_command", f"{type(command).__name__} is not a Bubblee Pop move.")
    colour = powers.colour_of_command(command)
    powers.check_available(state, colour)
    return [PowerUsed(seat=seat, colour=colour), *powers.use(state, seat, command)]


def after(turn: Turn, rng: Rng) -> None:
    """After a move: chains resolve; once no power waits, the turn ends."""
    settle(turn)
    if not turn.state.powers and turn.state.dropped:
        turn.record(*end_turn(turn.state, rng))


def end_turn(state: State, rng: Rng) -> list[Event]:
    """Rule: a Bubblee left in the sky over a full column loses the game; otherwise the
    next player refills the sky from the bag, and the game ends when it cannot."""
    if state.stuck:
        return [PlanetOverfilled(seat=state.player)]
    empty = [slot for slot, b in enumerate(state.sky) if b is None]
    if len(state.bag) < len(empty):
        return [BagEmptied(needed=len(empty), left=len(state.bag))]
    bag = list(state.bag)
    fills = []
    for slot in empty:
        drawn = rng.choice(bag)
        bag.remove(drawn)
        fills.append((slot, drawn))
    nxt = opponent(state.player)
    return [TurnBegan(seat=nxt), SkyRefilled(fills=tuple(fills))]


def outcome(state: State) -> Outcome | None:
    """Most Bubblees in the scoring area wins; a player whose planet overfilled loses."""
    if not state.over:
        return None
    points = tuple(len(s) for s in state.scored)
    if state.overfilled is not None:
        ranks = tuple(2 if s == state.overfilled else 1 for s in range(len(points)))
        return Outcome(scores=points, ranks=ranks)
    return Outcome(scores=points, ranks=ranks_from_scores(points))


def check_options(options: Options, seats: int) -> None:
    """Two expansion colours cannot both replace the same base colour."""
    if options.orange and options.white and options.orange_replaces == options.white_replaces:
        raise Rejected(
            "same_colour_replaced",
            f"Orange and white cannot both replace {options.orange_replaces}.",
        )


# --- legal / to_act -----------------------------------------------------------------------


def to_act(state: State) -> frozenset[Seat]:
    if state.over or not state.started:
        return frozenset()
    return frozenset({state.player})


def legal(state: State, seat: Seat) -> list[Command]:
    if seat not in to_act(state):
        return []
    if state.dropped:
        return powers.legal_powers(state, seat)
    out: list[Command] = []
    near = NEAR_ROW[seat]
    for a, b in SKY_LINKS:
        x, y = state.sky[a], state.sky[b]
        if x is None or y is None:
            continue
        pair = (min(x, y), max(x, y))
        if not state.swapped:
            out.append(SwapSky(bubblees=pair))
        if near in (sky_row(a), sky_row(b)):
            out.append(DropBubblees(bubblees=pair))
    return out


# --- evolve -------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    match event:
        case SkyArranged(slots=slots):
            bag = [b for b in state.bag if b not in slots]
            return msgspec.structs.replace(state, sky=list(slots), bag=bag)
        case FirstPlayerChosen(seat=seat):
            return msgspec.structs.replace(state, player=seat, started=True)
        case TurnBegan(seat=seat):
            return msgspec.structs.replace(
                state, player=seat, swapped=False, dropped=False, powers=[], stuck=[]
            )
        case SkyRefilled(fills=fills):
            sky = list(state.sky)
            for slot, bubblee in fills:
                sky[slot] = bubblee
            drawn = {b for _, b in fills}
            return msgspec.structs.replace(
                state, sky=sky, bag=[b for b in state.bag if b not in drawn]
            )
        case SkySwapped(bubblees=(a, b)):
            sky = [b if x == a else a if x == b else x for x in state.sky]
            return msgspec.structs.replace(state, sky=sky, swapped=True)
        case BubbleesPicked():
            return msgspec.structs.replace(state, dropped=True)
        case BubbleeLanded(planet=planet, column=column, bubblee=bubblee):
            nxt = lifted(state, bubblee)
            nxt.planets[planet][column].append(bubblee)
            return nxt
        case BubbleeStuck(bubblee=bubblee):
            return msgspec.structs.replace(state, stuck=[*state.stuck, bubblee])
        case LinesScored(planet=planet, bubblees=gone, powers=gained):
            planets = copy_planets(state)
            planets[planet] = [[b for b in stack if b not in gone] for stack in planets[planet]]
            scored = [list(s) for s in state.scored]
            scored[planet] += gone
            batches = [list(b) for b in state.powers] + ([list(gained)] if gained else [])
            return msgspec.structs.replace(state, planets=planets, scored=scored, powers=batches)
        case PowerUsed(colour=colour) | PowerSkipped(colour=colour):
            first = list(state.powers[0])
            first.remove(colour)
            rest = [list(b) for b in state.powers[1:]]
            return msgspec.structs.replace(state, powers=[first, *rest] if first else rest)
        case BubbleeScored(seat=seat, bubblee=bubblee):
            nxt = lifted(state, bubblee)
            nxt.scored[seat].append(bubblee)
            return nxt
        case PlanetSwapped(planet=planet, bubblees=(a, b)):
            planets = copy_planets(state)
            planets[planet] = [
                [b if x == a else a if x == b else x for x in stack] for stack in planets[planet]
            ]
            return msgspec.structs.replace(state, planets=planets)
        case BlackPushed(planet=planet, column=column, bubblee=bubblee):
            planets = copy_planets(state)
            planets[planet][column].insert(0, bubblee)
            box = [b for b in state.box if b != bubblee]
            return msgspec.structs.replace(state, planets=planets, box=box)
        case PlanetOverfilled(seat=seat):
            return msgspec.structs.replace(state, over=True, overfilled=seat)
        case BagEmptied():
            return msgspec.structs.replace(state, over=True)
        case _:
            raise TypeError(f"not a Bubblee Pop event: {event!r}")


def copy_planets(state: State) -> list[list[list[str]]]:
    return [[list(stack) for stack in planet] for planet in state.planets]


def lifted(state: State, bubblee: str) -> State:
    """A copy of the table with `bubblee` taken from wherever it lies (sky, planet,
    scoring area); the copy's planets and scoring areas are fresh lists."""
    planets = copy_planets(state)
    for planet in planets:
        for stack in planet:
            if bubblee in stack:
                stack.remove(bubblee)
    return msgspec.structs.replace(
        state,
        sky=[None if b == bubblee else b for b in state.sky],
        planets=planets,
        scored=[[b for b in s if b != bubblee] for s in state.scored],
        stuck=[b for b in state.stuck if b != bubblee],
    )
