"""Escape from the Hidden Castle: the conformance kit, then the rules page as short stories.

Every story starts from a rigged table: `table(guests={"guest-red-1": "g5"}, ...)` puts
figures where the story needs them ("g5" gallery space 5, "s0" the first cellar step
"+10", a room id for a room; guests not named wait in the box, out of play), and
`Rigged(4)` makes the die come up 4.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from msgspec.structs import replace

from domain.games.escapefromthehiddencastle import GAME
from domain.games.escapefromthehiddencastle.commands import (
    Command,
    MoveGuest,
    PlaceGuest,
    RollDie,
    StayPut,
)
from domain.games.escapefromthehiddencastle.events import (
    ClockStruck,
    Event,
    FrightChanged,
    GameEnded,
    GuestExpelled,
    GuestsCaptured,
    HugoMoved,
    PlayBegan,
    RoundBegan,
    RoundEnded,
    RoundScored,
    StayedPut,
    TurnPassed,
)
from domain.games.escapefromthehiddencastle.figures import Face
from domain.games.escapefromthehiddencastle.state import BOX, CELLAR_DOOR, Options, Spot, State
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged

RED1, RED2, BLUE1, BLUE2 = "guest-red-1", "guest-red-2", "guest-blue-1", "guest-blue-2"


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


# --- a tiny table ---------------------------------------------------------------------------


def spot(where: str) -> Spot:
    if where == "door":
        return CELLAR_DOOR
    if where[0] in "gs" and where[1:].isdigit():
        return Spot(area="gallery" if where[0] == "g" else "step", at=int(where[1:]))
    return Spot(area="room", room=where)


def table(
    guests: Mapping[str, str],
    *,
    hugo: str = "g20",
    clock: int = 1,
    fright: Sequence[int] = (10, 10),
    roll: Face | None = None,
    turn: int = 0,
    party: bool = False,
) -> State:
    """Seat 0 (red) to act: rolling, or moving `roll` when given."""
    base = GAME.initial(Options(midnight_party=party), len(fright))
    placed = {g: spot(guests[g]) if g in guests else BOX for g in base.guests}
    return replace(
        base,
        guests=placed,
        hugo=spot(hugo),
        clock=clock,
        fright=list(fright),
        phase="rolling" if roll is None else "moving",
        roll=roll,
        turn=turn,
    )


def play(state: State, command: Command, *faces: Face) -> tuple[State, list[Event]]:
    """The player to act sends `command`; the die comes up `faces`."""
    seat = next(iter(GAME.to_act(state)))
    return stories.play(GAME, state, seat, command, Rigged(*faces))


def refused(state: State, command: Command) -> str:
    return stories.refused(GAME, state, state.turn, command, Rigged())


def where(state: State, guest: str) -> Spot:
    return state.guests[guest]


# --- setup ----------------------------------------------------------------------------------


def test_setup_places_one_guest_per_free_space_taking_turns() -> None:
    state = GAME.initial(Options(), 2)
    _, state = GAME.settle(state, GAME.start(state, Rigged()))
    first = next(iter(GAME.to_act(state)))
    # The first guest goes on space 5; nobody else may use that space.
    state, _ = play(state, PlaceGuest(space=5))
    assert GAME.to_act(state) == {1 - first}
    assert refused(replace(state, turn=1 - first), PlaceGuest(space=5)) == "space_taken"
    # Once all twelve guests are down, the first placer rolls first.
    while state.phase == "placing":
        state, events = play(state, list(GAME.legal(state, next(iter(GAME.to_act(state)))))[0])
    assert events[-1] == PlayBegan(seat=first)
    assert len({w.at for w in state.guests.values()}) == 12


# --- guests on the gallery ------------------------------------------------------------------


def test_a_guest_may_rush_past_hugo_but_is_caught_stopping_on_his_space() -> None:
    state = table({RED1: "g18", RED2: "g17"}, hugo="g20", roll=4)
    # Red 1 passes Hugo on 20 and stops on 22: safe.
    after, _ = play(state, MoveGuest(guest=RED1))
    assert where(after, RED1) == Spot(area="gallery", at=22)
    # Red 2 stops right on Hugo's space instead: caught, down to "+10", 10 fright points.
    state = replace(state, roll=1)
    state = replace(state, guests={**state.guests, RED2: spot("g19")})
    after, events = play(state, MoveGuest(guest=RED2))
    assert GuestsCaptured(space=20, guests=(RED2,), step=0, label="+10") in events
    assert after.fright[0] == 20


def test_rooms_stay_closed_while_hugo_is_in_the_cellar() -> None:
    state = table({RED1: "g0"}, hugo="s4", clock=0, roll=4)
    assert refused(state, MoveGuest(guest=RED1, room="library")) == "rooms_closed"
    assert GAME.legal(state, 0) == [MoveGuest(guest=RED1)]


def test_a_free_room_may_be_entered_with_points_to_spare_which_are_lost() -> None:
    # Red 1 on 10: the Kitchen's door is on 12, so entering costs 3 of the 5 points.
    state = table({RED1: "g10"}, roll=5)
    after, events = play(state, MoveGuest(guest=RED1, room="kitchen"))
    assert where(after, RED1) == spot("kitchen")
    assert events[0].points_lost == 2  # type: ignore[union-attr]
    # The Armoury (door 8) is behind Red 1: out of reach.
    assert refused(state, MoveGuest(guest=RED1, room="armoury")) == "room_out_of_reach"


def test_green_crest_rooms_need_an_exact_roll_and_ease_the_fright_by_three_not_below_0() -> None:
    # The Ballroom's door is on 17; from 15 it costs exactly 3.
    state = table({RED1: "g15"}, fright=(2, 10), roll=4)
    assert refused(state, MoveGuest(guest=RED1, room="ballroom")) == "exact_roll_needed"
    after, events = play(replace(state, roll=3), MoveGuest(guest=RED1, room="ballroom"))
    assert FrightChanged(seat=0, change=-2, total=0, room="ballroom") in events
    assert after.fright[0] == 0


def test_entering_the_armoury_costs_a_fright_point() -> None:
    state = table({RED1: "g6"}, roll=5)
    after, events = play(state, MoveGuest(guest=RED1, room="armoury"))
    assert FrightChanged(seat=0, change=1, total=11, room="armoury") in events


def test_an_exact_entry_expels_the_guest_inside_who_may_come_back_with_a_1() -> None:
    state = table({RED1: "g10", BLUE1: "kitchen"}, roll=2)
    # Not exact: the taken Kitchen stays shut.
    assert refused(state, MoveGuest(guest=RED1, room="kitchen")) == "room_out_of_reach"
    assert refused(replace(state, roll=4), MoveGuest(guest=RED1, room="kitchen")) == (
        "exact_roll_needed"
    )
    # Exactly 3: Red goes in, Blue is put out on the space before the door.
    state, events = play(replace(state, roll=3), MoveGuest(guest=RED1, room="kitchen"))
    assert GuestExpelled(guest=BLUE1, room="kitchen", space=12) in events
    assert where(state, BLUE1) == Spot(area="gallery", at=12)
    # Blue rolls a 1 and gets even.
    state, _ = play(state, RollDie(), 1)
    state, events = play(state, MoveGuest(guest=BLUE1, room="kitchen"))
    assert GuestExpelled(guest=RED1, room="kitchen", space=12) in events


def test_a_guest_may_go_from_one_room_to_another_but_not_back_into_its_own() -> None:
    state = table({RED1: "chapel"}, roll=5)
    # The Chapel (door 3) to the Armoury: 1 out, 5 along, 1 in = 7 > 5: too far.
    assert refused(state, MoveGuest(guest=RED1, room="armoury")) == "room_out_of_reach"
    assert refused(state, MoveGuest(guest=RED1, room="chapel")) == "same_room"
    state = table({RED1: "library"}, roll=4)
    # The Library (door 2) to the Chapel (door 3): 1 out, 1 along, 1 in = 3, one lost.
    after, _ = play(state, MoveGuest(guest=RED1, room="chapel"))
    assert where(after, RED1) == spot("chapel")
    # Or out onto the gallery: 1 out, then 3 along, to space 5.
    after, _ = play(state, MoveGuest(guest=RED1))
    assert where(after, RED1) == Spot(area="gallery", at=5)


# --- the cellar -----------------------------------------------------------------------------


def test_only_the_guest_on_the_highest_step_comes_up_counting_from_the_arrow_space() -> None:
    state = table({RED1: "s1", RED2: "s4"}, roll=4)
    assert refused(state, MoveGuest(guest=RED2)) == "not_highest_step"
    # A 4 from the cellar: the arrow space, 1, 2, then into the Library (door 2).
    after, _ = play(state, MoveGuest(guest=RED1, room="library"))
    assert where(after, RED1) == spot("library")
    # A 1 puts the guest on the arrow space.
    after, _ = play(replace(state, roll=1), MoveGuest(guest=RED1))
    assert where(after, RED1) == Spot(area="gallery", at=0)


# --- Hugo -----------------------------------------------------------------------------------


def test_rolling_hugo_moves_hugo_and_no_guest() -> None:
    state = table({RED1: "g3"}, hugo="door", clock=0)
    state, events = play(state, RollDie(), "hugo")
    assert HugoMoved(seat=0, path=(spot("s0"), spot("s1"), spot("s2"))) in events
    assert events[-1] == TurnPassed(seat=0, to=1)
    assert where(state, RED1) == Spot(area="gallery", at=3)


def test_hugo_climbs_the_steps_onto_the_arrow_space_and_the_clock_shows_midnight() -> None:
    state = table({BLUE1: "g1"}, hugo="s7", clock=0)
    state, events = play(state, RollDie(), "hugo")
    # +3, +2, then the arrow space and space 1, where Blue stands.
    assert ClockStruck(hour=1) in events
    assert GuestsCaptured(space=1, guests=(BLUE1,), step=0, label="+10") in events
    assert state.hugo == Spot(area="gallery", at=1) and state.clock == 1


def test_hugo_catches_everyone_he_passes_or_lands_on_sending_each_space_to_the_next_step() -> None:
    guests = {RED1: "g21", RED2: "g21", BLUE1: "g23", BLUE2: "s0"}
    state = table(guests, hugo="g20", clock=2)  # 1:00: four spaces
    state, events = play(state, RollDie(), "hugo")
    # "+10" is taken by Blue 2: the two reds on 21 share "+9"; Blue 1 on 23 gets "+8".
    assert GuestsCaptured(space=21, guests=(RED1, RED2), step=1, label="+9") in events
    assert GuestsCaptured(space=23, guests=(BLUE1,), step=2, label="+8") in events
    assert state.fright == [28, 18]


def test_two_guests_of_one_player_caught_on_one_space_each_add_the_steps_fright() -> None:
    # Red 1 and Red 2 share space 21; "+10" is taken by Blue 2, so they go to "+9".
    state = table({RED1: "g21", RED2: "g21", BLUE2: "s0"}, hugo="g20", fright=(10, 10))
    state, events = play(state, RollDie(), "hugo")
    assert GuestsCaptured(space=21, guests=(RED1, RED2), step=1, label="+9") in events
    # Each caught guest counts: Red's counter moves 9 + 9, not 9 once.
    assert FrightChanged(seat=0, change=18, total=28) in events
    assert state.fright == [28, 10]


def test_every_fright_counter_starts_on_10() -> None:
    state = GAME.initial(Options(), 3)
    assert state.fright == [10, 10, 10]


def test_with_every_step_taken_a_capture_goes_to_plus_10_for_10_points() -> None:
    guests = {f"guest-blue-{n}": f"s{n - 1}" for n in range(1, 7)}
    guests |= {f"guest-red-{n}": f"s{n + 5}" for n in range(1, 4)}
    guests |= {"guest-red-4": "g22"}
    state = table(guests, hugo="g20", clock=1, fright=(10, 10))
    state, events = play(state, RollDie(), "hugo")
    assert GuestsCaptured(space=22, guests=("guest-red-4",), step=0, label="+10") in events
    assert state.fright[0] == 20


def test_hugo_speeds_up_each_time_he_passes_the_arrow_space() -> None:
    state = table({}, hugo="g38", clock=2)  # 1:00: four spaces
    state, events = play(state, RollDie(), "hugo")
    assert ClockStruck(hour=3) in events and state.hugo == Spot(area="gallery", at=2)
    state, events = play(replace(state, turn=0), RollDie(), "hugo")
    assert len(events[1].path) == 5  # type: ignore[union-attr]  # 2:00: five spaces


def test_the_game_ends_at_once_when_the_clock_strikes_five() -> None:
    state = table({RED1: "g0", BLUE1: "g1"}, hugo="g38", clock=5, fright=(10, 12))  # 4:00
    state, events = play(state, RollDie(), "hugo")
    # Hugo stops on the arrow space, catching Red there; Blue on 1 is spared.
    assert state.hugo == Spot(area="gallery", at=0)
    assert GuestsCaptured(space=0, guests=(RED1,), step=0, label="+10") in events
    assert events[-1] == GameEnded(reason="five_oclock")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (2, 1) and outcome.scores == (20, 12)


def test_a_counter_reaching_46_ends_the_game_and_the_fewest_fright_points_win() -> None:
    state = table({RED1: "g21", BLUE1: "g22"}, hugo="g20", fright=(36, 20))
    state, events = play(state, RollDie(), "hugo")
    # Red takes 10 (46), Blue 9 (29): the move is played out, then the night is over.
    assert state.fright == [46, 29]
    assert events[-1] == GameEnded(reason="fright")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,)


# --- the Midnight Party ---------------------------------------------------------------------


def test_midnight_party_rooms_keep_their_guests_and_nobody_is_expelled() -> None:
    state = table({RED1: "g11", RED2: "library", BLUE1: "kitchen"}, party=True, roll=2)
    assert refused(state, MoveGuest(guest=RED1, room="kitchen")) == "room_taken"
    assert refused(state, MoveGuest(guest=RED2)) == "guest_stays"
    assert GAME.legal(state, 0) == [MoveGuest(guest=RED1), StayPut()]


def test_midnight_party_a_single_guest_on_the_gallery_may_stay_put_but_two_must_move() -> None:
    state = table({RED1: "g10", BLUE1: "g30", BLUE2: "g31"}, party=True, roll=2)
    state, events = play(state, StayPut())
    assert events[0] == StayedPut(seat=0) and where(state, RED1) == spot("g10")
    state = replace(state, roll=2, phase="moving")
    assert refused(state, StayPut()) == "must_move"


def test_midnight_party_round_ends_when_the_gallery_empties_and_is_scored() -> None:
    guests = {RED1: "g21", RED2: "ballroom", BLUE1: "armoury", BLUE2: "s0"}
    state = table(guests, hugo="g20", party=True, fright=(0, 0))
    state, events = play(state, RollDie(), "hugo")
    # Red 1 caught to "-9"; the gallery is empty: Red 9 - 2, Blue 10 + 1.
    assert RoundEnded(round=1, reason="gallery_empty", stragglers=(), step=8, label="-2") in events
    assert RoundScored(round=1, points=(7, 11), totals=(7, 11)) in events
    # Blue, the most frightened, starts round 2; cellar guests come up from "-10" first.
    assert RoundBegan(round=2, starter=1, placing_order=(BLUE2, RED1)) in events
    assert where(state, RED2) == Spot(area="gallery", at=17)
    assert state.hugo == spot("s0") and GAME.to_act(state) == {1}


def test_midnight_party_stragglers_go_to_minus_2_when_every_room_is_taken() -> None:
    rooms = [r.id for r in GAME.initial(Options(midnight_party=True), 2).castle.rooms]
    guests = {f"guest-{c}-{n}": rooms.pop() for c in ("red", "blue") for n in range(1, 6)}
    # Only the Library (door 2) is free; Red 6 stands before its door.
    guests |= {"guest-red-6": "g2", "guest-blue-6": "g25"}
    state = table(guests, hugo="g5", party=True, fright=(0, 0), roll=1)
    state, events = play(state, MoveGuest(guest="guest-red-6", room="library"))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.reason == "rooms_full" and ended.stragglers == ("guest-blue-6",)
