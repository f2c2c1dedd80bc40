"""The turn: setup, decide, legal and to_act, plus conceding and the outcome.

Rule citations point at "Gamehelpescapefromthehiddencastle" (seed 004, 2021-09-01).
"""

from __future__ import annotations

from domain.games.escapefromthehiddencastle.castle import FRIGHT_LIMIT
from domain.games.escapefromthehiddencastle.commands import (
    Command,
    MoveGuest,
    PlaceGuest,
    RollDie,
    StayPut,
)
from domain.games.escapefromthehiddencastle.events import (
    DieRolled,
    Event,
    FrightChanged,
    GameEnded,
    GuestExpelled,
    GuestMoved,
    GuestPlaced,
    NothingToMove,
    PlayBegan,
    PlayerConceded,
    StartingPlayerChosen,
    StayedPut,
    TurnPassed,
)
from domain.games.escapefromthehiddencastle.evolve import evolve
from domain.games.escapefromthehiddencastle.figures import FACES, OWNER, guests_of
from domain.games.escapefromthehiddencastle.hugo import capture, move_hugo
from domain.games.escapefromthehiddencastle.moves import Plan, guest_moves, plan
from domain.games.escapefromthehiddencastle.party import end_round, round_over
from domain.games.escapefromthehiddencastle.state import Spot, State
from domain.games.escapefromthehiddencastle.table import (
    Turn,
    active,
    guests_at,
    guests_on_gallery,
    next_active,
)
from domain.kernel import Outcome, Rejected, Rng, Seat, ranks_from_keys
from domain.table import clockwise

# --- setup ----------------------------------------------------------------------------------


def start(state: State, rng: Rng) -> list[Event]:
    """A random player places the first guest; then clockwise, one guest each, until all
    guests are on the gallery. The same player rolls first."""
    starter = rng.below(state.seats)
    hands = [
        guests_of(seat, state.seats) for seat in clockwise(starter, state.seats, inclusive=True)
    ]
    order = tuple(g for batch in zip(*hands, strict=True) for g in batch)
    return [StartingPlayerChosen(seat=starter, placing_order=order)]


# --- decide ---------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    """Guards for every move (game over, whose turn), then the move's own rule."""
    if state.phase == "over":
        raise Rejected("game_over", "The night is over: nobody moves any more.")
    if state.phase == "setup":
        raise Rejected("not_started", "The game has not started yet.")
    if seat not in to_act(state):
        raise Rejected("not_your_turn", f"Seat {seat + 1} may not act now; wait your turn.")
    match command:
        case PlaceGuest():
            return place_guest(state, seat, command)
        case RollDie():
            return roll_die(state, seat, rng)
        case MoveGuest():
            return move_guest(state, seat, command)
        case StayPut():
            return stay_put(state, seat)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a move here.")


def place_guest(state: State, seat: Seat, command: PlaceGuest) -> Turn:
    """Setup: one guest per free gallery space (also between Midnight Party rounds)."""
    if state.phase != "placing":
        raise Rejected("not_placing", "Every guest is already on the board.")
    if not 0 <= command.space < state.castle.gallery:
        last = state.castle.gallery - 1
        raise Rejected("no_such_space", f"The gallery runs from space 0 to space {last}.")
    if guests_at(state, Spot(area="gallery", at=command.space)):
        raise Rejected("space_taken", f"Space {command.space} already holds a guest.")
    turn = Turn(state, evolve)
    guest = state.to_place[0]
    turn.record(GuestPlaced(seat=seat, guest=guest, space=command.space))
    if not turn.state.to_place:
        turn.record(PlayBegan(seat=next_active(turn.state, state.starter, inclusive=True)))
    return turn


def roll_die(state: State, seat: Seat, rng: Rng) -> Turn:
    """Roll: Hugo's face moves Hugo and the turn is over; a number moves a guest."""
    _not_placing(state)
    if state.phase == "moving":
        raise Rejected("already_rolled", f"You rolled a {state.roll}: move a guest now.")
    turn = Turn(state, evolve)
    face = rng.choice(FACES)
    turn.record(DieRolled(seat=seat, face=face))
    if face == "hugo":
        move_hugo(turn, seat)
        finish_turn(turn, seat)
    elif not guest_moves(turn.state, seat):
        turn.record(NothingToMove(seat=seat))
        finish_turn(turn, seat)
    return turn


def move_guest(state: State, seat: Seat, command: MoveGuest) -> Turn:
    """Move one of your guests the number rolled (seed 004, "Règles de déplacement")."""
    _rolled(state)
    move = plan(state, seat, command)
    turn = Turn(state, evolve)
    turn.record(
        GuestMoved(
            seat=seat,
            guest=move.guest,
            origin=move.origin,
            to=move.to,
            points_lost=move.points_lost,
        )
    )
    if move.room is None:
        caught_if_on_hugo(turn, move.to)
    else:
        enter_room(turn, seat, move)
    finish_turn(turn, seat)
    return turn


def stay_put(state: State, seat: Seat) -> Turn:
    """Midnight Party: a player with a single guest left on the gallery may leave it."""
    _rolled(state)
    if not state.options.midnight_party:
        raise Rejected("must_move", "A guest must always be moved: you cannot pass.")
    if len(guests_on_gallery(state, seat)) != 1:
        raise Rejected(
            "must_move", "Only a player with a single guest left on the gallery may stay put."
        )
    turn = Turn(state, evolve)
    turn.record(StayedPut(seat=seat))
    finish_turn(turn, seat)
    return turn


# --- the steps of a turn --------------------------------------------------------------------


def caught_if_on_hugo(turn: Turn, spot: Spot) -> None:
    """A guest that stops on Hugo's space is caught (seed 004: passing him is fine)."""
    if spot.area == "gallery" and turn.state.hugo == spot:
        capture(turn, spot.at)


def enter_room(turn: Turn, seat: Seat, move: Plan) -> None:
    """An exact entry expels the guest inside to the space before the door; crested rooms
    move the counter on the Hugo side (Armoury +1; Ballroom, Banquet Hall -3, not below 0).
    ASSUMPTION: an expelled guest put down on Hugo's space is caught at once."""
    assert move.room is not None
    room = move.room
    if move.expels is not None:
        turn.record(GuestExpelled(guest=move.expels, room=room.id, space=room.door))
        caught_if_on_hugo(turn, Spot(area="gallery", at=room.door))
    if room.entry_fright and not turn.state.options.midnight_party:
        before = turn.state.fright[seat]
        total = max(0, before + room.entry_fright)
        turn.record(FrightChanged(seat=seat, change=total - before, total=total, room=room.id))


def finish_turn(turn: Turn, seat: Seat) -> None:
    """After a move: 46 fright ends the game; a Midnight Party round may end; otherwise
    the next player clockwise rolls. ASSUMPTION: the move that takes a counter to 46 is
    played out in full before the game ends."""
    state = turn.state
    if state.phase == "over":
        return
    if not state.options.midnight_party and max(state.fright) >= FRIGHT_LIMIT:
        turn.record(GameEnded(reason="fright"))
        return
    if state.options.midnight_party and (reason := round_over(state)):
        end_round(turn, reason)
        return
    turn.record(TurnPassed(seat=seat, to=next_active(state, seat)))


# --- guards ---------------------------------------------------------------------------------


def _not_placing(state: State) -> None:
    if state.phase == "placing":
        raise Rejected("place_first", "Guests are still being placed on the gallery.")


def _rolled(state: State) -> None:
    _not_placing(state)
    if state.phase != "moving":
        raise Rejected("roll_first", "Roll the die first.")


# --- legal and to_act -----------------------------------------------------------------------


def legal(state: State, seat: Seat) -> list[Command]:
    if seat not in to_act(state):
        return []
    match state.phase:
        case "placing":
            taken = {w.at for w in state.guests.values() if w.area == "gallery"}
            return [PlaceGuest(space=s) for s in range(state.castle.gallery) if s not in taken]
        case "rolling":
            return [RollDie()]
        case "moving":
            moves: list[Command] = list(guest_moves(state, seat))
            party = state.options.midnight_party
            if party and len(guests_on_gallery(state, seat)) == 1:
                moves.append(StayPut())
            return moves
        case _:
            return []


def to_act(state: State) -> frozenset[Seat]:
    match state.phase:
        case "placing" if state.to_place:
            return frozenset({OWNER[state.to_place[0]]})
        case "rolling" | "moving":
            return frozenset({state.turn})
        case _:
            return frozenset()


# --- leaving and the outcome ----------------------------------------------------------------


def concede(state: State, seat: Seat, rng: Rng) -> Turn | None:
    """The player's guests go back in the box and their turns are skipped; with one player
    left the match ends (None: the Match ranks the conceding seat last)."""
    if len(active(state)) <= 2 or state.phase in ("setup", "over"):
        return None
    turn = Turn(state, evolve)
    turn.record(PlayerConceded(seat=seat))
    after = turn.state
    if after.phase == "placing" and not after.to_place:
        turn.record(PlayBegan(seat=next_active(after, after.starter, inclusive=True)))
    elif after.phase in ("rolling", "moving") and after.turn == seat:
        finish_turn(turn, seat)
    elif after.options.midnight_party and (reason := round_over(after)):
        end_round(turn, reason)
    return turn


def outcome(state: State) -> Outcome | None:
    """Fewest fright points wins; equal counters share the rank; who left ranks last."""
    if state.phase != "over":
        return None
    keys = [(int(seat not in state.conceded), -fright) for seat, fright in enumerate(state.fright)]
    return Outcome(scores=tuple(state.fright), ranks=ranks_from_keys(keys))
