"""Kokeshi: the conformance kit, then the page's rules and the public facts as stories."""

from __future__ import annotations

import msgspec
import pytest

from domain.games.kokeshi import GAME
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
    ChoiceAwaited,
    Event,
    GameEnded,
    HalfChosen,
    KokeshiMoved,
    KokeshiToppedOut,
    KokeshiWentHome,
    StartingTilesDrawn,
    TileGained,
    TileIgnored,
    TilePlaced,
    TileTriggered,
    TurnBegan,
)
from domain.games.kokeshi.rules import Turn, check_options, evolve, finish_placing
from domain.games.kokeshi.scoring import score_sheet
from domain.games.kokeshi.state import KokeshiOptions, Spot, Table, Workshop, empty_workshop
from domain.games.kokeshi.tiles import NORMAL_TILES, QUALITY_TILES
from domain.games.kokeshi.workshop import ANIMAL_POINTS, ROW_POINTS
from domain.kernel import Rejected, Rng
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA = 0, 1

# Tiles by effect, for rigging (ids from the catalogue).
UP_HANA = "kk-red-01"  # up:hana
UP_YUKI = "kk-red-02"  # up:yuki
SHIFT = "kk-red-04"
LEAP = "kk-red-05"
CRANE = "kk-red-06"  # animal:crane
FOX = "kk-red-07"  # animal:fox
ANY_OR_HANA = "kk-red-09"  # animal:any / up:hana
LEFT_OR_RIGHT = "kk-red-10"  # tile:left / tile:right
REST_2 = "kk-red-11"  # 2 recognition points
BLUE_REST = "kk-blue-11"
GREEN_REST = "kk-green-11"
Q_ANY = "kk-red-q3"  # Quality: animal:any, 2 points


def workshop(
    tiles: dict[tuple[int, int], str] | None = None,
    dolls: dict[str, tuple[int, int]] | None = None,
    animals: dict[str, int] | None = None,
) -> Workshop:
    """A workshop with tiles at (track, row) and dolls at (track, row); row 0 is home."""
    shop = empty_workshop()
    for (track, row), tile in (tiles or {}).items():
        shop.tiles[track][row - 1] = tile
    for doll, (track, row) in (dolls or {}).items():
        shop.dolls[doll] = Spot(track, row)
    shop.animals.update(animals or {})
    return shop


def table(ann: Workshop | None = None, bea: Workshop | None = None, **fields: object) -> Table:
    """Ann's turn in round 1 of a two-seat game; the bags hold every tile not placed."""
    shops = [ann or workshop(), bea or workshop()]
    placed = {t for shop in shops for column in shop.tiles for t in column if t}
    state = Table(
        seats=2,
        options=KokeshiOptions(),
        workshops=shops,
        bag=[t for t in NORMAL_TILES if t not in placed],
        quality_bag=[t for t in QUALITY_TILES if t not in placed],
        phase="turn",
        player=ANN,
        round=1,
    )
    return msgspec.structs.replace(state, **fields)


def play(state: Table, command: Command, *outcomes: str) -> tuple[Table, list[Event]]:
    return stories.play(GAME, state, state.player, command, Rigged(*outcomes))


def refused(state: Table, command: Command) -> str:
    return stories.refused(GAME, state, state.player, command)


def kinds(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


# --- setup -----------------------------------------------------------------------------------


def test_each_player_starts_with_two_tiles_in_different_columns_of_row_one() -> None:
    state = GAME.initial(KokeshiOptions(), 2)
    events, state = GAME.settle(state, GAME.start(state, Rng(3, 0)))
    first = events[0]
    assert isinstance(first, StartingTilesDrawn) and first.seat == ANN and len(first.tiles) == 2
    # Ann puts her first tile on track 2; the second may not go above it nor beside on row 2.
    state, _ = play(state, PlaceTile(tile=first.tiles[0], track=1, row=1))
    assert refused(state, PlaceTile(tile=first.tiles[1], track=1, row=1)) == "space_taken"
    assert refused(state, PlaceTile(tile=first.tiles[1], track=1, row=2)) == "start_on_row_one"
    assert {c.track for c in GAME.legal(state, ANN) if isinstance(c, PlaceTile)} == {0, 2, 3, 4}
    # Her second tile placed, Bea draws hers.
    state, events = play(state, PlaceTile(tile=first.tiles[1], track=4, row=1))
    assert isinstance(events[-1], StartingTilesDrawn) and events[-1].seat == BEA


def test_after_the_last_seat_places_its_start_tiles_seat_one_begins_round_one() -> None:
    state = table(phase="starting", player=BEA)
    state = GAME.evolve(state, StartingTilesDrawn(seat=BEA, tiles=(UP_HANA, SHIFT)))
    state, _ = play(state, PlaceTile(tile=UP_HANA, track=0, row=1))
    state, events = play(state, PlaceTile(tile=SHIFT, track=3, row=1))
    assert events[-1] == TurnBegan(seat=ANN, round=1)


# --- the turn --------------------------------------------------------------------------------


def test_a_turn_moves_one_doll_up_one_space() -> None:
    state = table(ann=workshop({(2, 1): REST_2}))
    after, events = play(state, MoveKokeshi(doll="yuki"))
    assert events[0] == KokeshiMoved(seat=ANN, doll="yuki", track=2, row=1)
    assert after.workshops[ANN].dolls["yuki"] == Spot(2, 1)
    assert events[-1] == TurnBegan(seat=BEA, round=1)


def test_an_empty_space_sends_the_doll_home_and_gains_a_tile_for_that_track() -> None:
    state = table(ann=workshop({(0, 1): REST_2}, dolls={"hana": (0, 1)}))
    after, events = play(state, MoveKokeshi(doll="hana"), UP_YUKI)
    assert kinds(events) == ["KokeshiMoved", "KokeshiWentHome", "TileGained"]
    assert events[1] == KokeshiWentHome(seat=ANN, doll="hana")
    assert events[2] == TileGained(seat=ANN, tile=UP_YUKI, track=0, quality=False)
    assert after.workshops[ANN].dolls["hana"] == Spot(0, 0)
    # The tile waits to go on an empty space of track 1, and only there.
    legal = list(GAME.legal(after, ANN))
    assert {(c.track, c.row) for c in legal if isinstance(c, PlaceTile)} == {
        (0, r) for r in (2, 3, 4, 5)
    }
    assert refused(after, PlaceTile(tile=UP_YUKI, track=1, row=1)) == "wrong_track"
    assert refused(after, MoveKokeshi(doll="sora")) == "tiles_to_place"
    done, events = play(after, PlaceTile(tile=UP_YUKI, track=0, row=2))
    assert events == [TilePlaced(seat=ANN, tile=UP_YUKI, track=0, row=2), TurnBegan(BEA, 1)]
    assert done.workshops[ANN].tiles[0][1] == UP_YUKI


def test_an_empty_space_past_the_threshold_gains_a_quality_tile() -> None:
    tiles = {(0, r): BLUE_REST if r % 2 else GREEN_REST for r in (1, 2, 3)}
    state = table(ann=workshop(tiles, dolls={"hana": (0, 3)}))
    _, events = play(state, MoveKokeshi(doll="hana"), Q_ANY)
    assert events[-1] == TileGained(seat=ANN, tile=Q_ANY, track=0, quality=True)
    # Below the threshold the same step draws from the normal bag.
    state = table(ann=workshop({(0, 1): BLUE_REST}, dolls={"hana": (0, 1)}))
    _, events = play(state, MoveKokeshi(doll="hana"), UP_HANA)
    assert events[-1] == TileGained(seat=ANN, tile=UP_HANA, track=0, quality=False)


def test_an_empty_quality_bag_gives_a_normal_tile() -> None:
    tiles = {(0, r): REST_2 if r != 2 else BLUE_REST for r in (1, 2, 3)}
    state = table(ann=workshop(tiles, dolls={"hana": (0, 3)}), quality_bag=[])
    _, events = play(state, MoveKokeshi(doll="hana"), UP_YUKI)
    assert events[-1] == TileGained(seat=ANN, tile=UP_YUKI, track=0, quality=False)


def test_a_normal_tile_does_its_effect() -> None:
    # Hana steps onto a crane tile: Ann's crane marker moves one step.
    state = table(ann=workshop({(0, 1): CRANE}))
    after, events = play(state, MoveKokeshi(doll="hana"))
    assert events[1] == TileTriggered(seat=ANN, tile=CRANE, doll="hana")
    assert events[2] == AnimalAdvanced(seat=ANN, animal="crane", step=1)
    assert after.workshops[ANN].dolls["hana"] == Spot(0, 1)


def test_a_quality_tile_does_its_effect_then_moves_that_doll_one_more_space() -> None:
    state = table(ann=workshop({(0, 1): Q_ANY, (0, 2): FOX}))
    after, events = play(state, MoveKokeshi(doll="hana"))
    assert isinstance(events[-1], ChoiceAwaited)
    # Ann picks the tanuki for the Quality tile; then Hana climbs onto the fox tile.
    after, events = play(after, ChooseAnimal(animal="tanuki"))
    assert events[1] == AnimalAdvanced(seat=ANN, animal="tanuki", step=1)
    assert events[2] == KokeshiMoved(seat=ANN, doll="hana", track=0, row=2)
    assert events[4] == AnimalAdvanced(seat=ANN, animal="fox", step=1)


def test_reaching_the_top_scores_three_happiness_and_sends_the_doll_home() -> None:
    state = table(ann=workshop(dolls={"sora": (4, 5)}))
    after, events = play(state, MoveKokeshi(doll="sora"))
    assert events[0] == KokeshiToppedOut(seat=ANN, doll="sora", happiness=3)
    assert after.workshops[ANN].dolls["sora"] == Spot(4, 0)
    assert after.workshops[ANN].happiness == 3


# --- the effects -----------------------------------------------------------------------------


def test_a_slashed_tile_resolves_the_half_its_owner_chooses() -> None:
    state = table(ann=workshop({(2, 1): ANY_OR_HANA, (0, 1): CRANE}))
    after, _ = play(state, MoveKokeshi(doll="yuki"))
    assert set(GAME.legal(after, ANN)) == {ChooseHalf(half=0), ChooseHalf(half=1)}
    assert refused(after, ChooseHalf(half=2)) == "no_such_half"
    assert refused(after, MoveKokeshi(doll="hana")) == "choice_pending"
    # The second half moves Hana up onto the crane tile.
    _, events = play(after, ChooseHalf(half=1))
    assert events[0] == HalfChosen(seat=ANN, tile=ANY_OR_HANA, effect="up:hana")
    assert events[1] == KokeshiMoved(seat=ANN, doll="hana", track=0, row=1)
    assert events[3] == AnimalAdvanced(seat=ANN, animal="crane", step=1)


def test_a_named_doll_tile_moves_that_doll_up_one() -> None:
    state = table(ann=workshop({(0, 1): UP_YUKI, (2, 1): REST_2}))
    after, events = play(state, MoveKokeshi(doll="hana"))
    assert events[2] == KokeshiMoved(seat=ANN, doll="yuki", track=2, row=1)
    assert after.workshops[ANN].dolls == {
        "hana": Spot(0, 1),
        "yuki": Spot(2, 1),
        "sora": Spot(4, 0),
    }


def test_a_shift_moves_a_chosen_doll_one_track_left_or_right() -> None:
    state = table(ann=workshop({(2, 1): SHIFT, (3, 1): CRANE}))
    after, _ = play(state, MoveKokeshi(doll="yuki"))
    # Hana stands beneath track 1: she may go right only.
    legal = set(GAME.legal(after, ANN))
    assert ChooseKokeshi(doll="hana", direction="right") in legal
    assert refused(after, ChooseKokeshi(doll="hana", direction="left")) == "edge_of_workshop"
    assert refused(after, ChooseKokeshi(doll="yuki")) == "shift_needs_direction"
    # Yuki steps right onto the crane tile, which resolves.
    after, events = play(after, ChooseKokeshi(doll="yuki", direction="right"))
    assert events[1] == KokeshiMoved(seat=ANN, doll="yuki", track=3, row=1)
    assert events[3] == AnimalAdvanced(seat=ANN, animal="crane", step=1)


def test_a_leap_moves_a_chosen_doll_two_resolving_only_the_second_space() -> None:
    state = table(ann=workshop({(2, 1): LEAP, (0, 1): CRANE, (0, 2): FOX}))
    after, _ = play(state, MoveKokeshi(doll="yuki"))
    assert refused(after, ChooseKokeshi(doll="hana", direction="left")) == "leap_has_no_direction"
    _, events = play(after, ChooseKokeshi(doll="hana"))
    assert events[1] == KokeshiMoved(seat=ANN, doll="hana", track=0, row=2)
    animals = [e for e in events if isinstance(e, AnimalAdvanced)]
    assert animals == [AnimalAdvanced(seat=ANN, animal="fox", step=1)], "the crane was passed"


def test_a_leap_past_the_top_tops_out() -> None:
    state = table(ann=workshop({(2, 1): LEAP}, dolls={"hana": (0, 4)}))
    after, _ = play(state, MoveKokeshi(doll="yuki"))
    _, events = play(after, ChooseKokeshi(doll="hana"))
    assert events[1] == KokeshiToppedOut(seat=ANN, doll="hana", happiness=3)


def test_an_animal_tile_moves_that_animal_and_stops_at_the_end_of_its_track() -> None:
    last = len(ANIMAL_POINTS) - 1
    state = table(ann=workshop({(0, 1): CRANE}, animals={"crane": last}))
    _, events = play(state, MoveKokeshi(doll="hana"))
    assert not [e for e in events if isinstance(e, AnimalAdvanced)]


def test_a_gain_tile_effect_places_on_the_track_its_arrow_points_to() -> None:
    state = table(ann=workshop({(2, 1): LEFT_OR_RIGHT}))
    after, _ = play(state, MoveKokeshi(doll="yuki"))
    after, events = play(after, ChooseHalf(half=1), UP_HANA)
    assert events[1] == TileGained(seat=ANN, tile=UP_HANA, track=3, quality=False)
    assert {c.track for c in GAME.legal(after, ANN) if isinstance(c, PlaceTile)} == {3}


def test_an_arrow_pointing_off_the_board_gains_nothing() -> None:
    state = table(ann=workshop({(0, 1): LEFT_OR_RIGHT}))
    after, _ = play(state, MoveKokeshi(doll="hana"))
    _, events = play(after, ChooseHalf(half=0))
    assert not [e for e in events if isinstance(e, TileGained)]
    assert events[-1] == TurnBegan(seat=BEA, round=1)


def test_cascades_finish_the_first_doll_before_the_next() -> None:
    # Hana lands on a Quality tile whose effect moves Yuki (onto a crane tile); only then
    # does Hana take her extra step, onto the fox tile.
    q_yuki_or_sora = "kk-red-q4"  # up:yuki / up:sora
    state = table(ann=workshop({(0, 1): q_yuki_or_sora, (0, 2): FOX, (2, 1): CRANE}))
    after, _ = play(state, MoveKokeshi(doll="hana"))
    _, events = play(after, ChooseHalf(half=0))
    moves = [(e.doll, e.row) for e in events if isinstance(e, KokeshiMoved)]
    animals = [e.animal for e in events if isinstance(e, AnimalAdvanced)]
    assert moves == [("yuki", 1), ("hana", 2)]
    assert animals == ["crane", "fox"]


def test_a_tile_resolves_once_a_turn() -> None:
    # Hana lands on a shift tile and steps right onto another, then back left: the first
    # shift tile has resolved this turn already, so she rests on it and the turn ends.
    state = table(ann=workshop({(0, 1): SHIFT, (1, 1): "kk-blue-04"}))
    after, _ = play(state, MoveKokeshi(doll="hana"))
    after, _ = play(after, ChooseKokeshi(doll="hana", direction="right"))
    _, events = play(after, ChooseKokeshi(doll="hana", direction="left"))
    assert events[1] == KokeshiMoved(seat=ANN, doll="hana", track=0, row=1)
    assert not [e for e in events if isinstance(e, TileTriggered)]
    assert events[-1] == TurnBegan(seat=BEA, round=1)


def test_several_gained_tiles_are_placed_in_any_order_and_a_full_track_ignores_them() -> None:
    full = {(0, r): (BLUE_REST if r % 2 else GREEN_REST) for r in range(1, 6)}
    state = table(ann=workshop(full))
    # Two tiles wait: one for the full track 1, one for track 2.
    state = GAME.evolve(state, TileGained(seat=ANN, tile=UP_HANA, track=0, quality=False))
    state = GAME.evolve(state, TileGained(seat=ANN, tile=UP_YUKI, track=1, quality=False))
    events, after = GAME.settle(state, _finish(state))
    assert events[0] == TileIgnored(seat=ANN, tile=UP_HANA, track=0)
    assert [p.tile for p in after.to_place] == [UP_YUKI]


def _finish(state: Table) -> list[Event]:
    turn = Turn(state, evolve)
    finish_placing(turn, ANN, Rng(0, 0))
    return turn.events


def test_two_gained_tiles_may_be_placed_in_either_order() -> None:
    state = table()
    state = GAME.evolve(state, TileGained(seat=ANN, tile=UP_HANA, track=0, quality=False))
    state = GAME.evolve(state, TileGained(seat=ANN, tile=UP_YUKI, track=1, quality=False))
    tiles = {c.tile for c in GAME.legal(state, ANN) if isinstance(c, PlaceTile)}
    assert tiles == {UP_HANA, UP_YUKI}
    after, events = play(state, PlaceTile(tile=UP_YUKI, track=1, row=3))
    assert [p.tile for p in after.to_place] == [UP_HANA]
    assert not [e for e in events if isinstance(e, TurnBegan)]


# --- the end and the scoring -----------------------------------------------------------------


def test_the_game_ends_after_the_last_round() -> None:
    state = table(player=BEA, round=14, ann=workshop(), bea=workshop({(2, 1): REST_2}))
    _, events = play(state, MoveKokeshi(doll="yuki"))
    assert isinstance(events[-1], GameEnded)
    # One round earlier, seat 1 begins the next.
    state = msgspec.structs.replace(state, round=13)
    _, events = play(state, MoveKokeshi(doll="yuki"))
    assert events[-1] == TurnBegan(seat=ANN, round=14)


def test_the_game_ends_after_the_round_in_which_a_workshop_fills() -> None:
    spaces = [(t, r) for t in range(5) for r in range(1, 6)]
    full = dict(zip(spaces, NORMAL_TILES, strict=False))
    state = table(player=BEA, round=3, ann=workshop(full), bea=workshop({(2, 1): "kk-red-12"}))
    _, events = play(state, MoveKokeshi(doll="yuki"))
    assert isinstance(events[-1], GameEnded)


def test_each_animal_track_scores_the_points_above_the_marker() -> None:
    shops = [workshop(animals={"crane": 3, "fox": 1}), workshop(animals={"crane": 3, "fox": 2})]
    sheet = score_sheet(shops, ANN, KokeshiOptions())
    assert sheet.animals == ANIMAL_POINTS[3] + ANIMAL_POINTS[1]


def test_each_animal_track_you_lead_scores_three_more() -> None:
    shops = [
        workshop(animals={"crane": 4, "fox": 2, "tanuki": 1}),
        workshop(animals={"crane": 1, "fox": 2, "tanuki": 3}),
    ]
    assert score_sheet(shops, ANN, KokeshiOptions()).leads == 3, "a shared fox leads nobody"
    assert score_sheet(shops, BEA, KokeshiOptions()).leads == 3
    shared = KokeshiOptions(lead_ties="shared")
    assert score_sheet(shops, ANN, shared).leads == 6


def test_recognition_tiles_score_their_points() -> None:
    shops = [workshop({(0, 1): REST_2, (1, 1): "kk-red-12", (2, 1): UP_HANA}), workshop()]
    assert score_sheet(shops, ANN, KokeshiOptions()).recognition == 5


def test_each_doll_scores_the_points_beside_its_row() -> None:
    shops = [workshop(dolls={"hana": (0, 5), "yuki": (2, 2)}), workshop()]
    assert score_sheet(shops, ANN, KokeshiOptions()).dolls == ROW_POINTS[5] + ROW_POINTS[2]


def test_each_pair_of_adjacent_same_coloured_tiles_costs_three() -> None:
    # Red on (1,1), (1,2) and (2,1): two pairs; the blue beside them and a diagonal red, none.
    shops = [
        workshop(
            {(0, 1): UP_HANA, (0, 2): UP_YUKI, (1, 1): SHIFT, (1, 2): BLUE_REST, (2, 3): LEAP}
        ),
        workshop(),
    ]
    assert score_sheet(shops, ANN, KokeshiOptions()).adjacency == -6


def test_happiness_from_topping_out_counts_at_the_end() -> None:
    shop = workshop()
    shop.happiness = 6
    sheet = score_sheet([shop, workshop()], ANN, KokeshiOptions())
    assert sheet.happiness == 6 and sheet.total == 6


def test_a_game_lasts_one_to_thirty_rounds() -> None:
    check_options(KokeshiOptions(rounds=30), 2)
    with pytest.raises(Rejected) as err:
        check_options(KokeshiOptions(rounds=0), 2)
    assert err.value.code == "bad_rounds"
