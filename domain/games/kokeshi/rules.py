"""A Kokeshi turn: move one doll up a space, resolve the cascade depth-first, place the
tiles it gained.

Rule sentences cite the seed (002, "Gamehelpkokeshi"), rules-batch2.md "Kokeshi" (the
newer BGA help) and, for what neither says, the README's house-made list.
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from domain.games.kokeshi.commands import (
    ChooseAnimal,
    ChooseHalf,
    ChooseKokeshi,
    Command,
    MoveKokeshi,
    PlaceTile,
)
from domain.games.kokeshi.events import (
    AnimalAdvanced,
    AnimalChosen,
    ChoiceAwaited,
    Event,
    GameEnded,
    HalfChosen,
    KokeshiChosen,
    KokeshiMoved,
    KokeshiToppedOut,
    KokeshiWentHome,
    NoTileLeft,
    PlayerConceded,
    StartingTilesDrawn,
    TileGained,
    TileIgnored,
    TilePlaced,
    TileTriggered,
    TurnBegan,
)
from domain.games.kokeshi.scoring import score_sheets
from domain.games.kokeshi.state import (
    MAX_ROUNDS,
    KokeshiOptions,
    Spot,
    Table,
    Task,
    ToPlace,
    Workshop,
)
from domain.games.kokeshi.tiles import TILES, TileId
from domain.games.kokeshi.workshop import (
    ANIMAL_POINTS,
    ANIMALS,
    DOLLS,
    QUALITY_ROW,
    START_TILES,
    TOP_OUT_HAPPINESS,
    TOP_ROW,
    TRACKS,
)
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import next_seat

Turn = Recorder[Table, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

ARROWS = {"left": -1, "right": 1, "same": 0}
SIDEWAYS = {"left": -1, "right": 1}

# --- reading the table -----------------------------------------------------------------------


def is_active(state: Table, seat: Seat) -> bool:
    return seat not in state.conceded


def track_full(workshop: Workshop, track: int) -> bool:
    return all(tile is not None for tile in workshop.tiles[track])


def workshop_full(workshop: Workshop) -> bool:
    return all(track_full(workshop, track) for track in range(TRACKS))


def open_spaces(workshop: Workshop, pending: ToPlace) -> list[tuple[int, int]]:
    """(track, row) pairs a gained tile may go to: its own track's empty spaces, or for a
    starting tile row 1 of any track not holding one yet (so the two differ in column)."""
    if pending.track is None:
        return [(track, 1) for track in range(TRACKS) if workshop.tiles[track][0] is None]
    track = pending.track
    return [(track, row) for row in range(1, TOP_ROW + 1) if workshop.tiles[track][row - 1] is None]


# --- setup -----------------------------------------------------------------------------------


def check_options(options: KokeshiOptions, seats: int) -> None:
    if not 1 <= options.rounds <= MAX_ROUNDS:
        raise Rejected(
            "bad_rounds", f"A game lasts 1 to {MAX_ROUNDS} rounds, not {options.rounds}."
        )


def start(state: Table, rng: Rng) -> Turn:
    """Public fact: each player starts with 2 tiles in different columns; seat 1 first."""
    turn = Turn(state, evolve)
    deal_starting_tiles(turn, 0, rng)
    return turn


def deal_starting_tiles(turn: Turn, seat: Seat, rng: Rng) -> None:
    drawn = rng.sample(turn.state.bag, START_TILES)
    turn.record(StartingTilesDrawn(seat=seat, tiles=tuple(sorted(drawn))))


# --- decide ----------------------------------------------------------------------------------


def decide(state: Table, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "The last round is over; the game has ended.")
    if state.phase == "setup":
        raise Rejected("not_started", "The workshops are not set up yet.")
    if seat != state.player or not is_active(state, seat):
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn.")
    match command:
        case MoveKokeshi(doll=doll):
            return move_kokeshi(state, seat, doll, rng)
        case ChooseHalf(half=half):
            return choose_half(state, seat, half, rng)
        case ChooseKokeshi(doll=doll, direction=direction):
            return choose_kokeshi(state, seat, doll, direction, rng)
        case ChooseAnimal(animal=animal):
            return choose_animal(state, seat, animal, rng)
        case PlaceTile(tile=tile, track=track, row=row):
            return place_tile(state, seat, tile, track, row, rng)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a Kokeshi move.")


def _check_doll(doll: str) -> None:
    if doll not in DOLLS:
        raise Rejected("no_such_kokeshi", f"Your dolls are {', '.join(DOLLS)}; not {doll!r}.")


def move_kokeshi(state: Table, seat: Seat, doll: str, rng: Rng) -> Turn:
    """Public fact: on your turn move one of your dolls up 1 space."""
    if state.phase == "starting":
        raise Rejected("place_starting_tiles", "Place your two starting tiles first.")
    if state.agenda:
        raise Rejected("choice_pending", "Finish the choice the cascade is waiting for first.")
    if state.to_place:
        raise Rejected("tiles_to_place", "Place the tiles you gained before anything else.")
    _check_doll(doll)
    turn = Turn(state, evolve)
    resolve(turn, seat, [Task("step", doll=doll, spaces=1)], rng)
    return turn


def _awaited(state: Table, kind: str, code: str, message: str) -> Task:
    if not state.agenda or state.agenda[-1].kind != kind:
        raise Rejected(code, message)
    return state.agenda[-1]


def choose_half(state: Table, seat: Seat, half: int, rng: Rng) -> Turn:
    """Public fact: a slashed tile lets you choose one of its halves."""
    task = _awaited(state, "choose_half", "no_half_to_choose", "No slashed tile awaits a choice.")
    assert task.tile is not None
    halves = TILES[task.tile].halves
    if not 0 <= half < len(halves):
        raise Rejected("no_such_half", f"The tile has halves 0 and 1, not {half}.")
    turn = Turn(state, evolve)
    effect = halves[half]
    turn.record(HalfChosen(seat=seat, tile=task.tile, effect=effect))
    apply = Task("apply", doll=task.doll, tile=task.tile, effect=effect, track=task.track)
    resolve(turn, seat, [*state.agenda[:-1], apply], rng)
    return turn


def choose_kokeshi(state: Table, seat: Seat, doll: str, direction: str | None, rng: Rng) -> Turn:
    """Public facts: `leap` moves a chosen doll 2, resolving only the second space; `shift`
    moves one doll 1 track left or right (house: onto the same row, which then resolves)."""
    task = _awaited(state, "choose_doll", "no_doll_to_choose", "No effect asks for a doll.")
    _check_doll(doll)
    rest = list(state.agenda[:-1])
    turn = Turn(state, evolve)
    if task.effect == "leap":
        if direction is not None:
            raise Rejected("leap_has_no_direction", "A leap goes straight up; give no direction.")
        turn.record(KokeshiChosen(seat=seat, doll=doll, effect="leap", direction=None))
        resolve(turn, seat, [*rest, Task("step", doll=doll, spaces=2)], rng)
        return turn
    if direction not in SIDEWAYS:
        raise Rejected("shift_needs_direction", "Say whether the doll moves left or right.")
    spot = state.workshops[seat].dolls[doll]
    track = spot.track + SIDEWAYS[direction]
    if not 0 <= track < TRACKS:
        raise Rejected("edge_of_workshop", f"{doll.title()} cannot move {direction} off the board.")
    turn.record(KokeshiChosen(seat=seat, doll=doll, effect="shift", direction=direction))
    turn.record(KokeshiMoved(seat=seat, doll=doll, track=track, row=spot.row))
    resolve(turn, seat, [*rest, Task("land", doll=doll)], rng)
    return turn


def choose_animal(state: Table, seat: Seat, animal: str, rng: Rng) -> Turn:
    """Public fact: some effects move an animal of your choice 1 step."""
    _awaited(state, "choose_animal", "no_animal_to_choose", "No effect asks for an animal.")
    if animal not in ANIMALS:
        raise Rejected("no_such_animal", f"The animals are {', '.join(ANIMALS)}; not {animal!r}.")
    turn = Turn(state, evolve)
    turn.record(AnimalChosen(seat=seat, animal=animal))
    advance_animal(turn, seat, animal)
    resolve(turn, seat, list(state.agenda[:-1]), rng)
    return turn


def place_tile(state: Table, seat: Seat, tile: TileId, track: int, row: int, rng: Rng) -> Turn:
    """Public fact: a new tile goes on the track that produced it, several in any order."""
    if state.agenda:
        raise Rejected("choice_pending", "Finish the choice the cascade is waiting for first.")
    pending = next((p for p in state.to_place if p.tile == tile), None)
    if pending is None:
        raise Rejected("tile_not_gained", f"{tile} is not a tile waiting to be placed.")
    workshop = state.workshops[seat]
    if pending.track is not None and track != pending.track:
        raise Rejected(
            "wrong_track", f"{tile} was gained on track {pending.track + 1}; it goes there."
        )
    if not (0 <= track < TRACKS and 1 <= row <= TOP_ROW):
        raise Rejected(
            "no_such_space", f"The workshop has tracks 0-{TRACKS - 1}, rows 1-{TOP_ROW}."
        )
    if pending.track is None and row != 1:
        raise Rejected("start_on_row_one", "Starting tiles go on the bottom row (row 1).")
    if workshop.tiles[track][row - 1] is not None:
        raise Rejected("space_taken", f"Track {track + 1}, row {row} already holds a tile.")
    turn = Turn(state, evolve)
    turn.record(TilePlaced(seat=seat, tile=tile, track=track, row=row))
    finish_placing(turn, seat, rng)
    return turn


# --- the cascade -----------------------------------------------------------------------------


def resolve(turn: Turn, seat: Seat, agenda: list[Task], rng: Rng) -> None:
    """Public fact: cascades resolve depth-first, finishing the first doll before the next.

    The agenda's last task goes first; a choice stops the cascade until the seat answers.
    """
    while agenda:
        task = agenda.pop()
        match task.kind:
            case "step":
                step(turn, seat, task, agenda)
            case "land":
                land(turn, seat, task, agenda, rng)
            case "effect":
                assert task.tile is not None
                halves = TILES[task.tile].halves
                if len(halves) > 1:
                    agenda.append(msgspec.structs.replace(task, kind="choose_half"))
                else:
                    agenda.append(msgspec.structs.replace(task, kind="apply", effect=halves[0]))
            case "apply":
                apply_effect(turn, seat, task, agenda, rng)
            case _:
                agenda.append(task)
                turn.record(ChoiceAwaited(seat=seat, agenda=tuple(agenda)))
                return
    finish_placing(turn, seat, rng)


def step(turn: Turn, seat: Seat, task: Task, agenda: list[Task]) -> None:
    """The doll goes up `spaces`; past the top it scores 3 happiness and goes home (page)."""
    assert task.doll is not None
    spot = turn.state.workshops[seat].dolls[task.doll]
    row = spot.row + task.spaces
    if row > TOP_ROW:
        turn.record(KokeshiToppedOut(seat=seat, doll=task.doll, happiness=TOP_OUT_HAPPINESS))
        return
    turn.record(KokeshiMoved(seat=seat, doll=task.doll, track=spot.track, row=row))
    agenda.append(Task("land", doll=task.doll))


def land(turn: Turn, seat: Seat, task: Task, agenda: list[Task], rng: Rng) -> None:
    """Public facts: an empty space sends the doll home and gains a tile (a Quality tile at
    or past the threshold); a tile's effect resolves; a Quality tile's, then one more space.
    House-made: a tile resolves at most once a turn (a doll landing on it again rests)."""
    assert task.doll is not None
    workshop = turn.state.workshops[seat]
    spot = workshop.dolls[task.doll]
    if spot.row == 0:
        return
    tile = workshop.tiles[spot.track][spot.row - 1]
    if tile is None:
        turn.record(KokeshiWentHome(seat=seat, doll=task.doll))
        gain_tile(turn, seat, spot.track, rng, quality=spot.row >= QUALITY_ROW)
        return
    if tile in turn.state.triggered:
        return
    turn.record(TileTriggered(seat=seat, tile=tile, doll=task.doll))
    if TILES[tile].quality:
        agenda.append(Task("step", doll=task.doll, spaces=1))
    agenda.append(Task("effect", doll=task.doll, tile=tile, track=spot.track))


def apply_effect(turn: Turn, seat: Seat, task: Task, agenda: list[Task], rng: Rng) -> None:
    """One effect of the catalogue (tiles.py)."""
    effect = task.effect or "rest"
    kind, _, name = effect.partition(":")
    match kind:
        case "up":
            agenda.append(Task("step", doll=name, spaces=1))
        case "leap" | "shift":
            agenda.append(Task("choose_doll", tile=task.tile, effect=kind, track=task.track))
        case "animal" if name == "any":
            agenda.append(Task("choose_animal", tile=task.tile, effect=effect, track=task.track))
        case "animal":
            advance_animal(turn, seat, name)
        case "tile":
            track = task.track + ARROWS[name]
            if 0 <= track < TRACKS:
                gain_tile(turn, seat, track, rng, quality=False)
        case _:
            pass  # rest: a recognition tile is worth its points, nothing more


def advance_animal(turn: Turn, seat: Seat, animal: str) -> None:
    """The seat's marker on that animal track goes 1 step, unless already at its end."""
    now = turn.state.workshops[seat].animals[animal]
    if now + 1 < len(ANIMAL_POINTS):
        turn.record(AnimalAdvanced(seat=seat, animal=animal, step=now + 1))


def gain_tile(turn: Turn, seat: Seat, track: int, rng: Rng, *, quality: bool) -> None:
    """Draw a tile at random for `track` (house: an empty Quality bag gives a normal tile)."""
    bag = turn.state.quality_bag if quality and turn.state.quality_bag else turn.state.bag
    if not bag:
        turn.record(NoTileLeft(seat=seat, track=track))
        return
    tile = rng.choice(bag)
    turn.record(TileGained(seat=seat, tile=tile, track=track, quality=TILES[tile].quality))


def finish_placing(turn: Turn, seat: Seat, rng: Rng) -> None:
    """Public fact: a tile whose track is full is ignored; with none left to place the turn
    (or the seat's setup) ends."""
    workshop = turn.state.workshops[seat]
    for pending in list(turn.state.to_place):
        if not open_spaces(workshop, pending):
            turn.record(TileIgnored(seat=seat, tile=pending.tile, track=pending.track or 0))
    if turn.state.to_place or turn.state.agenda:
        return
    if turn.state.phase == "starting":
        after_setup(turn, seat, rng)
    else:
        after_turn(turn, seat)


def after_setup(turn: Turn, seat: Seat, rng: Rng) -> None:
    state = turn.state
    later = [s for s in range(seat + 1, state.seats) if is_active(state, s)]
    if later:
        deal_starting_tiles(turn, later[0], rng)
        return
    first = next_seat(state.seats - 1, state.seats, lambda s: is_active(state, s))
    turn.record(TurnBegan(seat=first, round=1))


def after_turn(turn: Turn, seat: Seat) -> None:
    """Seats play in order; house: the game ends after the last round, or after the round
    in which a workshop fills."""
    state = turn.state
    nxt = next_seat(seat, state.seats, lambda s: is_active(state, s))
    if nxt > seat:
        turn.record(TurnBegan(seat=nxt, round=state.round))
        return
    last_round = state.round >= state.options.rounds
    if last_round or any(workshop_full(w) for w in state.workshops):
        turn.record(GameEnded(sheets=score_sheets(state)))
        return
    turn.record(TurnBegan(seat=nxt, round=state.round + 1))


def concede(state: Table, seat: Seat, rng: Rng) -> Turn | None:
    """The seat stops playing (tiles in hand leave the game); one left alone ends the match."""
    others = [s for s in range(state.seats) if s != seat and is_active(state, s)]
    if len(others) < 2 or state.phase in ("over", "setup"):
        return None
    turn = Turn(state, evolve)
    turn.record(PlayerConceded(seat=seat))
    if seat == state.player:
        if state.phase == "starting":
            after_setup(turn, seat, rng)
        else:
            after_turn(turn, seat)
    return turn


def outcome(state: Table) -> Outcome | None:
    """Highest total wins; equal totals share the rank; a seat that left ranks below."""
    if state.phase != "over":
        return None
    scores = tuple(sheet.total for sheet in state.sheets)
    keys = [(int(is_active(state, s)), scores[s]) for s in range(state.seats)]
    return Outcome(scores=scores, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def legal(state: Table, seat: Seat) -> Iterator[Command]:
    if state.phase in ("setup", "over") or seat != state.player or not is_active(state, seat):
        return
    workshop = state.workshops[seat]
    if state.agenda:
        task = state.agenda[-1]
        if task.kind == "choose_half":
            assert task.tile is not None
            for half in range(len(TILES[task.tile].halves)):
                yield ChooseHalf(half=half)
        elif task.kind == "choose_doll" and task.effect == "leap":
            for doll in DOLLS:
                yield ChooseKokeshi(doll=doll)
        elif task.kind == "choose_doll":
            for doll in DOLLS:
                track = workshop.dolls[doll].track
                if track > 0:
                    yield ChooseKokeshi(doll=doll, direction="left")
                if track < TRACKS - 1:
                    yield ChooseKokeshi(doll=doll, direction="right")
        elif task.kind == "choose_animal":
            for animal in ANIMALS:
                yield ChooseAnimal(animal=animal)
        return
    if state.to_place:
        for pending in state.to_place:
            for track, row in open_spaces(workshop, pending):
                yield PlaceTile(tile=pending.tile, track=track, row=row)
        return
    if state.phase == "turn":
        for doll in DOLLS:
            yield MoveKokeshi(doll=doll)


def to_act(state: Table) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: Table, event: Event) -> Table:
    replace = msgspec.structs.replace
    match event:
        case StartingTilesDrawn(seat=seat, tiles=tiles):
            bag = [t for t in state.bag if t not in tiles]
            to_place = [ToPlace(tile=t, track=None) for t in tiles]
            return replace(state, phase="starting", player=seat, bag=bag, to_place=to_place)
        case TurnBegan(seat=seat, round=number):
            return replace(
                state,
                phase="turn",
                player=seat,
                round=number,
                agenda=[],
                to_place=[],
                triggered=[],
            )
        case KokeshiMoved(seat=seat, doll=doll, track=track, row=row):
            return _doll_at(state, seat, doll, Spot(track, row))
        case KokeshiToppedOut(seat=seat, doll=doll, happiness=happiness):
            spot = state.workshops[seat].dolls[doll]
            moved = _doll_at(state, seat, doll, Spot(spot.track, 0))
            workshop = moved.workshops[seat]
            workshop = replace(
                workshop, happiness=workshop.happiness + happiness, top_outs=workshop.top_outs + 1
            )
            return replace(moved, workshops=_with(moved.workshops, seat, workshop))
        case KokeshiWentHome(seat=seat, doll=doll):
            spot = state.workshops[seat].dolls[doll]
            return _doll_at(state, seat, doll, Spot(spot.track, 0))
        case TileGained(tile=tile, track=track):
            return replace(
                state,
                bag=[t for t in state.bag if t != tile],
                quality_bag=[t for t in state.quality_bag if t != tile],
                to_place=[*state.to_place, ToPlace(tile=tile, track=track)],
            )
        case NoTileLeft():
            return state
        case TileTriggered(tile=tile):
            return replace(state, triggered=[*state.triggered, tile])
        case ChoiceAwaited(agenda=agenda):
            return replace(state, agenda=list(agenda))
        case HalfChosen() | KokeshiChosen() | AnimalChosen():
            return replace(state, agenda=[])
        case AnimalAdvanced(seat=seat, animal=animal, step=step_to):
            workshop = state.workshops[seat]
            workshop = replace(workshop, animals={**workshop.animals, animal: step_to})
            return replace(state, workshops=_with(state.workshops, seat, workshop))
        case TilePlaced(seat=seat, tile=tile, track=track, row=row):
            workshop = state.workshops[seat]
            column = [tile if r == row - 1 else t for r, t in enumerate(workshop.tiles[track])]
            columns = [column if c == track else col for c, col in enumerate(workshop.tiles)]
            workshop = replace(workshop, tiles=columns)
            return replace(
                state,
                workshops=_with(state.workshops, seat, workshop),
                to_place=[p for p in state.to_place if p.tile != tile],
            )
        case TileIgnored(tile=tile):
            return replace(state, to_place=[p for p in state.to_place if p.tile != tile])
        case PlayerConceded(seat=seat):
            mine = seat == state.player
            return replace(
                state,
                conceded=sorted({*state.conceded, seat}),
                agenda=[] if mine else state.agenda,
                to_place=[] if mine else state.to_place,
            )
        case GameEnded(sheets=sheets):
            return replace(state, phase="over", sheets=list(sheets), agenda=[], to_place=[])
        case _:
            raise TypeError(f"not a Kokeshi event: {event!r}")


def _doll_at(state: Table, seat: Seat, doll: str, spot: Spot) -> Table:
    workshop = state.workshops[seat]
    workshop = msgspec.structs.replace(workshop, dolls={**workshop.dolls, doll: spot})
    return msgspec.structs.replace(state, workshops=_with(state.workshops, seat, workshop))


def _with(workshops: list[Workshop], seat: Seat, workshop: Workshop) -> list[Workshop]:
    return [workshop if s == seat else w for s, w in enumerate(workshops)]
