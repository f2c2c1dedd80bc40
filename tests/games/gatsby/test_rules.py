"""Gatsby: the conformance kit, then the page's sentences as short stories."""

from __future__ import annotations

import msgspec

from domain.games.gatsby import GAME
from domain.games.gatsby.board import CABARET_COLS, CABARET_ROWS, SPACES, ActionSpace, Bonus, Step
from domain.games.gatsby.commands import (
    ChooseAction,
    Command,
    KeepSpecial,
    PlaceInCabaret,
    PlaceInRacetrack,
    Restrict,
    SkipBonus,
    SwapCharacters,
    SwapInfluence,
    UseSpecial,
)
from domain.games.gatsby.ending import score_sheet
from domain.games.gatsby.events import (
    ActionChosen,
    ActionRestricted,
    AscensionAdvanced,
    BonusGained,
    BonusLost,
    CabaretInfluencePlaced,
    CharacterRallied,
    CharacterRevealed,
    CharactersLaid,
    CharactersSwapped,
    Event,
    GameEnded,
    InfluenceSwapped,
    RaceFinished,
    RaceInfluencePlaced,
    ScoreSheet,
    SpecialDone,
    SpecialKept,
    SpecialsDrawn,
    SpecialTaken,
    SpecialUsed,
    StepSkipped,
    TurnBegan,
)
from domain.games.gatsby.state import Options, Phase, Player, State
from domain.games.gatsby.tiles import stars_of
from domain.games.gatsby.view import view
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA = 0, 1

LAYOUT = {
    "cabaret-1": "gb-flapper-1",
    "cabaret-2": "gb-tycoon-1",
    "cabaret-3": "gb-bootlegger-1",
    "finance-1": "gb-starlet-1",
    "finance-2": "gb-aviator-1",
    "finance-3": "gb-flapper-2",
    "finance-4": "gb-tycoon-3",
    "racetrack-1": "gb-bootlegger-3",
    "racetrack-2": "gb-starlet-2",
    "racetrack-3": "gb-aviator-2",
    "racetrack-4": "gb-tycoon-2",
    "racetrack-5": "gb-bootlegger-2",
}
SPARES = ["gb-aviator-3", "gb-flapper-3", "gb-starlet-3"]


def table(
    *,
    characters: dict[str, str | None] | None = None,
    face_down: tuple[str, ...] = (),
    cabaret: dict[tuple[int, int], int] | None = None,
    race: list[list[int]] | None = None,
    ann: Player | None = None,
    bea: Player | None = None,
    phase: Phase = "action",
    steps: tuple[Step, ...] = (),
    pending: tuple[Bonus, ...] = (),
    last_action: ActionSpace | None = None,
    special_pile: tuple[str, ...] = (),
    options: Options | None = None,
) -> State:
    """Ann to play; every character face up unless named in `face_down`."""
    laid: dict[str, str | None] = {**LAYOUT, **(characters or {})}
    grid: list[int | None] = [None] * (CABARET_ROWS * CABARET_COLS)
    for (row, col), seat in (cabaret or {}).items():
        grid[row * CABARET_COLS + col] = seat
    return State(
        options=options or Options(),
        players=[ann or Player(), bea or Player()],
        characters=laid,
        face_up=sorted(c for c in laid.values() if c is not None and c not in face_down),
        spares=list(SPARES),
        special_pile=list(special_pile),
        cabaret_tiles=["gb-cabaret-a", "gb-cabaret-b", "gb-cabaret-c", "gb-cabaret-d"],
        cabaret=grid,
        race=race or [[] for _ in range(5)],
        phase=phase,
        player=ANN,
        steps=list(steps),
        pending=list(pending),
        last_action=last_action,
    )


def play(state: State, command: Command, seat: int = ANN) -> tuple[State, list[Event]]:
    return stories.play(GAME, state, seat, command, Rng(5, 5))


def refused(state: State, command: Command, seat: int = ANN) -> str:
    return stories.refused(GAME, state, seat, command)


def rallied(events: list[Event]) -> list[tuple[int, str]]:
    return [(e.seat, e.space) for e in events if isinstance(e, CharacterRallied)]


# --- setup ---------------------------------------------------------------------------------


def test_setup_lays_twelve_characters_reveals_the_edges_and_the_second_player_prepares() -> None:
    state = GAME.initial(Options(), 2)
    events, state = GAME.settle(state, GAME.start(state, Rng(11, 0)))
    laid = next(e for e in events if isinstance(e, CharactersLaid))
    assert len(laid.placed or ()) == 12 and len(laid.spares or ()) == 3
    # 3 in the Cabaret, 4 in the Finance Center, 5 in the Racetrack.
    assert [len(SPACES[loc]) for loc in ("cabaret", "finance", "racetrack")] == [3, 4, 5]
    revealed = [e.space for e in events if isinstance(e, CharacterRevealed)]
    assert sorted(revealed) == sorted(
        ["cabaret-1", "cabaret-3", "finance-1", "finance-4", "racetrack-1", "racetrack-5"]
    )
    # Face-down characters and the spares are secret from both players.
    for seat in (ANN, BEA):
        assert view(state, seat).characters["cabaret-2"] is None
        assert state.characters["cabaret-2"] in GAME.hidden(state, seat)
        assert set(state.spares) <= GAME.hidden(state, seat)
        assert GAME.redact(laid, seat) == CharactersLaid(placed=None, spares=None)
    # The second player draws 2 Special Action tiles; the first cannot see them.
    second = 1 - state.first
    assert state.phase == "keep_special" and state.player == second
    assert len(state.drawn) == 2 and set(state.drawn) <= GAME.hidden(state, state.first)
    drawn = next(e for e in events if isinstance(e, SpecialsDrawn))
    assert GAME.redact(drawn, state.first) == SpecialsDrawn(seat=second, count=2, tiles=None)
    # They keep one, then place 1 Influence token anywhere in the Cabaret.
    keep = state.drawn[0]
    state, events = play(state, KeepSpecial(tile=keep), second)
    assert state.players[second].special == keep and state.phase == "first_token"
    state, events = play(state, PlaceInCabaret(row=8, col=4), second)
    assert events == [
        CabaretInfluencePlaced(seat=second, row=8, col=4),
        TurnBegan(seat=state.first),
    ]


def test_at_setup_a_stronger_bottom_character_swaps_with_the_top_one() -> None:
    swaps = 0
    for seed in range(30):
        state = GAME.initial(Options(), 2)
        events, state = GAME.settle(state, GAME.start(state, Rng(seed, 0)))
        swaps += sum(1 for e in events if isinstance(e, CharactersSwapped))
        for bottom, top in (("finance-1", "finance-4"), ("racetrack-5", "racetrack-1")):
            low, high = state.characters[bottom], state.characters[top]
            assert low is not None and high is not None and stars_of(low) <= stars_of(high)
    assert swaps > 0


# --- the turn ------------------------------------------------------------------------------


def test_the_action_token_cannot_go_back_to_the_last_action() -> None:
    state = table(phase="turn", last_action="race_two")
    assert refused(state, ChooseAction(space="race_two")) == "action_just_used"
    assert ChooseAction(space="cabaret_two") in list(GAME.legal(state, ANN))


def test_an_action_space_is_done_step_by_step_in_the_order_shown() -> None:
    state = table(phase="turn", cabaret={(8, 0): BEA}, characters={"finance-1": None})
    state, events = play(state, ChooseAction(space="cabaret_and_finance"))
    assert events == [
        ActionChosen(seat=ANN, space="cabaret_and_finance", steps=("cabaret", "finance"))
    ]
    # First the Cabaret token, then the Finance step moves by itself; Bea's turn follows.
    state, events = play(state, PlaceInCabaret(row=8, col=1))
    assert events == [
        CabaretInfluencePlaced(seat=ANN, row=8, col=1),
        AscensionAdvanced(seat=ANN, height=1, by_step=True),
        TurnBegan(seat=BEA),
    ]


def test_a_step_that_cannot_be_done_is_skipped() -> None:
    state = table(phase="turn", ann=Player(reserve=0), cabaret={(8, 0): BEA})
    _, events = play(state, ChooseAction(space="cabaret_two"))
    assert events[1:] == [
        StepSkipped(seat=ANN, step="cabaret"),
        StepSkipped(seat=ANN, step="cabaret"),
        TurnBegan(seat=BEA),
    ]


# --- Cabaret -------------------------------------------------------------------------------


def test_cabaret_tokens_must_touch_another_token_of_any_colour() -> None:
    state = table(steps=("cabaret",), cabaret={(5, 0): BEA})
    assert refused(state, PlaceInCabaret(row=8, col=4)) == "must_touch_a_token"
    assert refused(state, PlaceInCabaret(row=5, col=0)) == "space_taken"
    assert refused(state, PlaceInCabaret(row=9, col=0)) == "off_the_board"
    after, _ = play(state, PlaceInCabaret(row=5, col=1))
    assert after.cabaret[5 * CABARET_COLS + 1] == ANN and after.players[ANN].reserve == 19


def test_a_path_of_your_tokens_from_edge_to_edge_rallies_the_section() -> None:
    mine = {(3, 0): ANN, (3, 1): ANN, (4, 2): ANN, (3, 2): ANN, (3, 3): ANN}
    state = table(steps=("cabaret",), cabaret=mine)
    _, events = play(state, PlaceInCabaret(row=3, col=4))
    # At the end of the turn Ann checks: the middle section's character is hers.
    assert rallied(events) == [(ANN, "cabaret-2")]


def test_a_path_broken_by_an_opponent_token_rallies_nothing() -> None:
    tokens = {(3, 0): ANN, (3, 1): ANN, (3, 2): BEA, (3, 3): ANN}
    state = table(steps=("cabaret",), cabaret=tokens)
    _, events = play(state, PlaceInCabaret(row=3, col=4))
    assert rallied(events) == []


def test_occupying_all_four_matching_circles_rallies_the_section() -> None:
    # The top section lies under Cabaret tile a: circles (0,0), (0,4), (2,1), (2,3).
    tokens = {(0, 0): ANN, (0, 4): ANN, (2, 1): ANN, (2, 2): BEA}
    state = table(steps=("cabaret",), cabaret=tokens)
    _, events = play(state, PlaceInCabaret(row=2, col=3))
    assert rallied(events) == [(ANN, "cabaret-1")]


# --- Finance Center ------------------------------------------------------------------------


def test_behind_your_opponent_you_climb_two_and_reaching_a_character_rallies_it() -> None:
    state = table(phase="turn", ann=Player(height=1), bea=Player(height=5))
    state, events = play(state, ChooseAction(space="finance_and_race"))
    assert events[-1] == AscensionAdvanced(seat=ANN, height=3, by_step=True)
    # The race step, then the end of the turn: finance-1 (space 3) is Ann's.
    _, events = play(state, PlaceInRacetrack(line=4))
    assert rallied(events) == [(ANN, "finance-1")]


def test_tied_or_ahead_you_climb_one_and_passing_a_character_rallies_it_too() -> None:
    state = table(phase="turn", ann=Player(height=4), bea=Player(height=4))
    state, events = play(state, ChooseAction(space="finance_and_race"))
    assert events[-1] == AscensionAdvanced(seat=ANN, height=5, by_step=True)
    # At the end of the turn: finance-1 (space 3) was passed, finance-2 (space 5) reached.
    _, events = play(state, PlaceInRacetrack(line=0))
    assert rallied(events) == [(ANN, "finance-1"), (ANN, "finance-2")]


# --- Racetrack -----------------------------------------------------------------------------


def test_a_full_race_line_goes_to_the_majority_its_tokens_go_home_and_it_closes() -> None:
    race = [[], [], [ANN, BEA], [], []]
    state = table(steps=("racetrack",), race=race, ann=Player(reserve=10), bea=Player(reserve=10))
    after, events = play(state, PlaceInRacetrack(line=2))
    assert events[:3] == [
        RaceInfluencePlaced(seat=ANN, line=2, index=2),
        RaceFinished(line=2, winner=ANN, returned=(2, 1)),
        CharacterRallied(seat=ANN, space="racetrack-3", character="gb-aviator-2"),
    ]
    assert after.players[ANN].reserve == 11 and after.players[BEA].reserve == 11
    assert after.race_closed[2] and after.race[2] == []
    again = msgspec.structs.replace(after, phase="action", player=ANN, steps=["racetrack"])
    assert refused(again, PlaceInRacetrack(line=2)) == "line_closed"


def test_tokens_fill_a_line_from_left_to_right_and_the_opponent_may_take_it() -> None:
    state = table(steps=("racetrack",), race=[[], [], [], [BEA, BEA], []])
    _, events = play(state, PlaceInRacetrack(line=3))
    assert events[0] == RaceInfluencePlaced(seat=ANN, line=3, index=2)
    assert events[1] == RaceFinished(line=3, winner=BEA, returned=(1, 2))
    assert rallied(events) == [(BEA, "racetrack-4")]


# --- victory and the end -------------------------------------------------------------------


def test_three_characters_of_one_suit_win_at_once() -> None:
    ann = Player(height=4, characters=["gb-flapper-1", "gb-flapper-3"])
    state = table(
        characters={"cabaret-1": None, "finance-1": None, "finance-2": "gb-flapper-2"},
        phase="turn",
        ann=ann,
        bea=Player(height=4),
    )
    state, _ = play(state, ChooseAction(space="finance_and_race"))
    after, events = play(state, PlaceInRacetrack(line=0))
    assert isinstance(events[-1], GameEnded)
    assert events[-1].reason == "three_of_a_suit" and events[-1].winner == ANN
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (ANN,)


def test_one_character_of_each_of_the_five_suits_wins_at_once() -> None:
    ann = Player(characters=["gb-flapper-1", "gb-tycoon-1", "gb-starlet-3", "gb-bootlegger-1"])
    state = table(
        characters={"cabaret-1": None, "cabaret-2": None, "cabaret-3": None},
        steps=("racetrack",),
        race=[[], [], [ANN, ANN], [], []],
        ann=ann,
    )
    _, events = play(state, PlaceInRacetrack(line=2))
    assert isinstance(events[-1], GameEnded)
    assert events[-1].reason == "five_suits" and events[-1].winner == ANN


def test_an_instant_win_handed_to_the_opponent_ends_the_game_for_them() -> None:
    bea = Player(characters=["gb-tycoon-1", "gb-tycoon-3"])
    state = table(
        characters={"cabaret-2": None, "finance-4": None},
        steps=("racetrack",),
        race=[[], [], [], [BEA, BEA], []],
        bea=bea,
    )
    _, events = play(state, PlaceInRacetrack(line=3))
    assert isinstance(events[-1], GameEnded) and events[-1].winner == BEA


def only(*spaces: str) -> dict[str, str | None]:
    """Every character rallied but those on `spaces`."""
    return {space: (LAYOUT[space] if space in spaces else None) for space in LAYOUT}


def test_otherwise_the_game_ends_when_the_last_character_is_rallied() -> None:
    ann = Player(characters=["gb-tycoon-3", "gb-starlet-1"], special="gb-special-01")
    bea = Player(characters=["gb-tycoon-1"], specials_discarded=1)
    state = table(
        characters=only("racetrack-5"),
        steps=("racetrack",),
        race=[[], [], [], [], [ANN, BEA]],
        ann=ann,
        bea=bea,
    )
    after, events = play(state, PlaceInRacetrack(line=4))
    assert isinstance(events[-1], GameEnded)
    assert events[-1].reason == "last_character" and events[-1].winner is None
    outcome = GAME.outcome(after)
    # Ann: 3 + 1 + 2 stars and her unused special; Bea: 1 star and a discarded special.
    assert outcome is not None and outcome.scores == (7, 2) and outcome.winners == (ANN,)


def test_with_the_location_option_an_emptied_location_ends_the_game() -> None:
    left = {**only("racetrack-5", "cabaret-1"), "cabaret-1": "gb-flapper-1"}
    kwargs = dict(characters=left, steps=("racetrack",), race=[[], [], [], [], [ANN, ANN]])
    state = table(options=Options(end="location_emptied"), **kwargs)  # type: ignore[arg-type]
    _, events = play(state, PlaceInRacetrack(line=4))
    assert isinstance(events[-1], GameEnded) and events[-1].reason == "location_emptied"
    # By the page, the Cabaret's character is still to rally: the game goes on.
    state = table(cabaret={(0, 0): BEA}, **kwargs)  # type: ignore[arg-type]
    _, events = play(state, PlaceInRacetrack(line=4))
    assert events[-1] == TurnBegan(seat=BEA)


def test_when_no_character_left_can_be_rallied_prestige_decides() -> None:
    # The top section is walled by both colours: no path, and the circles are split.
    walls = {(r, 1): BEA for r in range(3)} | {(r, 3): ANN for r in range(3)}
    state = table(
        characters=only("cabaret-1", "racetrack-5"),
        cabaret=walls,
        steps=("racetrack",),
        race=[[], [], [], [], [ANN, ANN]],
    )
    _, events = play(state, PlaceInRacetrack(line=4))
    assert isinstance(events[-1], GameEnded) and events[-1].reason == "stalled"


def test_prestige_counts_stars_unused_and_discarded_special_tiles() -> None:
    player = Player(characters=["gb-aviator-3", "gb-flapper-2"], special="gb-special-05")
    player = msgspec.structs.replace(player, specials_discarded=2)
    assert score_sheet(player) == ScoreSheet(prestige=5, specials=3, total=8, characters=2)


def test_a_prestige_tie_goes_to_most_characters_and_then_is_shared() -> None:
    sheets = [
        ScoreSheet(prestige=5, specials=0, total=5, characters=3),
        ScoreSheet(prestige=5, specials=0, total=5, characters=2),
    ]
    over = msgspec.structs.replace(table(), phase="over", sheets=sheets)
    outcome = GAME.outcome(over)
    assert outcome is not None and outcome.ranks == (1, 2)
    sheets[1] = sheets[0]
    outcome = GAME.outcome(msgspec.structs.replace(over, sheets=sheets))
    assert outcome is not None and outcome.ranks == (1, 1)


# --- Special Action tiles ------------------------------------------------------------------


def test_a_special_tile_is_a_one_time_action_played_before_the_action_token_moves() -> None:
    state = table(phase="turn", ann=Player(special="gb-special-01"), cabaret={(8, 0): BEA})
    state, events = play(state, UseSpecial())
    assert events == [
        SpecialUsed(
            seat=ANN, tile="gb-special-01", steps=("cabaret", "cabaret", "cabaret"), bonus=None
        )
    ]
    for col in (1, 2):
        state, _ = play(state, PlaceInCabaret(row=8, col=col))
    state, events = play(state, PlaceInCabaret(row=8, col=3))
    assert events[-1] == SpecialDone(seat=ANN) and state.phase == "turn"
    # Three tokens placed; the tile is discarded (it will score 1) and gone.
    assert state.players[ANN].reserve == 17 and state.players[ANN].specials_discarded == 1
    assert refused(state, UseSpecial()) == "no_special"
    assert refused(state, PlaceInCabaret(row=7, col=0)) == "not_a_cabaret_step"


def test_draw_and_choose_draws_two_tiles_seen_by_you_only_and_keeps_one() -> None:
    pile = ("gb-special-08", "gb-special-03", "gb-special-05")
    state = table(phase="turn", ann=Player(special="gb-special-10"), special_pile=pile)
    state, events = play(state, UseSpecial())
    assert events[-1] == SpecialsDrawn(seat=ANN, count=2, tiles=("gb-special-05", "gb-special-03"))
    assert {"gb-special-05", "gb-special-03"} <= GAME.hidden(state, BEA)
    assert view(state, BEA).drawn == [None, None]
    state, events = play(state, KeepSpecial(tile="gb-special-03"))
    assert events[0] == SpecialKept(seat=ANN, tile="gb-special-03", discarded=("gb-special-05",))
    assert state.players[ANN].special == "gb-special-03" and state.phase == "turn"
    # One special a turn.
    assert refused(state, UseSpecial()) == "one_special_a_turn"


def test_the_influence_swap_special_trades_one_token_with_the_opponent() -> None:
    tokens = {(4, 0): ANN, (4, 1): BEA}
    state = table(phase="turn", ann=Player(special="gb-special-04"), cabaret=tokens)
    state, _ = play(state, UseSpecial())
    assert state.pending == ["influence_swap"]
    assert refused(state, SwapInfluence(mine="cabaret-4-1", theirs="cabaret-4-0")) == (
        "not_your_token"
    )
    state, events = play(state, SwapInfluence(mine="cabaret-4-0", theirs="cabaret-4-1"))
    assert events[0] == InfluenceSwapped(seat=ANN, mine="cabaret-4-0", theirs="cabaret-4-1")
    assert state.cabaret[4 * CABARET_COLS] == BEA and state.cabaret[4 * CABARET_COLS + 1] == ANN


def test_the_finance_and_race_special_advances_and_places() -> None:
    state = table(phase="turn", ann=Player(special="gb-special-07"))
    state, events = play(state, UseSpecial())
    assert events[-1] == AscensionAdvanced(seat=ANN, height=1, by_step=True)
    state, events = play(state, PlaceInRacetrack(line=0))
    assert events[-1] == SpecialDone(seat=ANN)


def test_a_new_special_tile_replaces_the_one_on_your_board() -> None:
    # Row 8, column 4 of the Cabaret draws a special tile.
    state = table(
        steps=("cabaret",),
        cabaret={(7, 2): BEA},
        ann=Player(special="gb-special-01"),
        special_pile=("gb-special-02", "gb-special-07"),
    )
    after, events = play(state, PlaceInCabaret(row=7, col=3))
    assert events[1] == SpecialTaken(seat=ANN, tile="gb-special-07", replaced="gb-special-01")
    assert after.players[ANN].special == "gb-special-07"
    assert after.players[ANN].specials_discarded == 1 and "gb-special-01" in after.special_discard


# --- bonuses -------------------------------------------------------------------------------


def test_the_extra_placement_bonus_places_one_more_token_anywhere() -> None:
    state = table(steps=("cabaret",), cabaret={(1, 1): BEA})
    state, events = play(state, PlaceInCabaret(row=1, col=2))
    assert events[-1] == BonusGained(seat=ANN, bonus="extra_placement")
    assert PlaceInRacetrack(line=0) in list(GAME.legal(state, ANN))
    after, events = play(state, PlaceInRacetrack(line=0))
    assert events[0] == RaceInfluencePlaced(seat=ANN, line=0, index=0)
    assert events[-1] == TurnBegan(seat=BEA) and after.players[ANN].reserve == 18


def test_the_swap_characters_bonus_swaps_two_characters_each_keeping_its_face() -> None:
    state = table(
        steps=("racetrack",), race=[[ANN, BEA], [], [], [], []], face_down=("gb-tycoon-1",)
    )
    state, events = play(state, PlaceInRacetrack(line=0))
    assert events[-1] == BonusGained(seat=ANN, bonus="swap_characters")
    assert refused(state, SwapCharacters(spaces=("finance-1", "cabaret-2"))) == "spaces_not_sorted"
    after, events = play(state, SwapCharacters(spaces=("cabaret-2", "finance-1")))
    assert events[0] == CharactersSwapped(seat=ANN, spaces=("cabaret-2", "finance-1"))
    assert after.characters["finance-1"] == "gb-tycoon-1"
    assert view(after, ANN).characters["finance-1"] is None


def test_the_restrict_bonus_closes_an_action_space_for_the_opponent_next_turn() -> None:
    # Tied at 5, Ann climbs to 6, a restrict bonus.
    state = table(phase="turn", ann=Player(height=5), bea=Player(height=5))
    state, events = play(state, ChooseAction(space="finance_and_race"))
    assert events[-1] == BonusGained(seat=ANN, bonus="restrict")
    state, events = play(state, Restrict(space="race_two"))
    assert events[0] == ActionRestricted(seat=ANN, opponent=BEA, space="race_two")
    state, _ = play(state, PlaceInRacetrack(line=0))
    assert state.player == BEA
    assert refused(state, ChooseAction(space="race_two"), BEA) == "action_restricted"
    assert refused(state, ChooseAction(space="finance_and_race"), BEA) == "action_just_used"
    assert [c.space for c in GAME.legal(state, BEA) if isinstance(c, ChooseAction)] == [
        "cabaret_two",
        "cabaret_and_finance",
    ]


def test_the_advance_ascension_bonus_moves_one_more_space_and_takes_its_bonus() -> None:
    # Line 5, space 2 advances Ann from 7 to 8, where a special tile is drawn.
    state = table(
        steps=("racetrack",),
        race=[[], [], [], [], [BEA]],
        ann=Player(height=7),
        special_pile=("gb-special-02",),
    )
    _, events = play(state, PlaceInRacetrack(line=4))
    assert AscensionAdvanced(seat=ANN, height=8, by_step=False) in events
    assert SpecialTaken(seat=ANN, tile="gb-special-02", replaced=None) in events


def test_the_draw_special_bonus_gives_nothing_once_the_pile_is_empty() -> None:
    state = table(steps=("cabaret",), cabaret={(7, 2): BEA})
    after, events = play(state, PlaceInCabaret(row=7, col=3))
    assert not any(isinstance(e, SpecialTaken) for e in events)
    assert after.players[ANN].special is None


def test_the_second_players_first_cabaret_token_gains_no_bonus() -> None:
    state = msgspec.structs.replace(table(), phase="first_token", player=BEA)
    _, events = stories.play(GAME, state, BEA, PlaceInCabaret(row=1, col=2))
    assert events == [CabaretInfluencePlaced(seat=BEA, row=1, col=2), TurnBegan(seat=ANN)]


def test_a_bonus_may_be_let_go_and_is_lost_with_nothing_to_do_it_with() -> None:
    state = table(pending=("restrict",))
    _, events = play(state, SkipBonus())
    assert events[0] == BonusLost(seat=ANN, bonus="restrict")
    # An Influence swap with no opponent token on the board is lost at once.
    state = table(phase="turn", ann=Player(special="gb-special-04"), cabaret={(0, 0): ANN})
    _, events = play(state, UseSpecial())
    assert events[1] == BonusLost(seat=ANN, bonus="influence_swap")
