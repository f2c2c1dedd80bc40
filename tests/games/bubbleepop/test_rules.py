"""Bubblee Pop: the conformance kit, then the rulebook's tricky cases as stories."""

from __future__ import annotations

import random
from collections import Counter

from domain.games.bubbleepop import GAME
from domain.games.bubbleepop.board import sky_touching
from domain.games.bubbleepop.bubblees import PER_COLOUR, Colour, bubblee_id, colour_of
from domain.games.bubbleepop.commands import (
    Command,
    DropBubblees,
    SkipPower,
    SwapSky,
    UseBlue,
    UseGreen,
    UseOrange,
    UsePurple,
    UseRed,
    UseWhite,
    UseYellow,
)
from domain.games.bubbleepop.events import (
    BagEmptied,
    BubbleeLanded,
    Event,
    LinesScored,
    PlanetOverfilled,
    SkyRefilled,
    TurnBegan,
)
from domain.games.bubbleepop.state import Options, State
from domain.kernel import Rng
from tests.conformance.kit import run_conformance
from tests.support import stories

RNG = Rng(3, 1)
COLOURS: dict[str, Colour] = {
    "r": "red",
    "p": "purple",
    "y": "yellow",
    "b": "blue",
    "g": "green",
    "k": "black",
    "o": "orange",
    "w": "white",
}


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


def table(
    ann: tuple[str, ...] = ("k", "", "k", "", "k"),
    bea: tuple[str, ...] = ("k", "", "k", "", "k"),
    sky: str = "rpybg/ybgrp",
    ann_scored: str = "",
    bea_scored: str = "",
    bag: int = 30,
    player: int = 0,
    powers: tuple[str, ...] = (),
    dropped: bool = False,
    options: Options | None = None,
) -> State:
    """A rigged table. Planet columns bottom-up, sky "near Ann / near Bea" ('.' = empty),
    one letter per Bubblee: r p y b g k(black) o w. Every Bubblee gets the next free id of
    its colour; the bag holds `bag` further Bubblees, the box the blacks still unused."""
    used: Counter[str] = Counter()

    def new(letter: str) -> str:
        colour = COLOURS[letter]
        used[colour] += 1
        return bubblee_id(colour, used[colour])

    planets = [[[new(x) for x in column] for column in p] for p in (ann, bea)]
    rows = sky.split("/")
    sky_ids = [None if x == "." else new(x) for x in rows[0] + rows[1]]
    scored = [[new(x) for x in ann_scored], [new(x) for x in bea_scored]]
    spare = [
        bubblee_id(c, n)
        for n in range(1, PER_COLOUR + 1)
        for c in ("red", "purple", "yellow", "blue", "green")
        if n > used[c]
    ]
    box = [bubblee_id("black", n) for n in range(used["black"] + 1, PER_COLOUR + 1)]
    return State(
        options=options or Options(),
        sky=sky_ids,
        planets=planets,
        scored=scored,
        bag=sorted(spare[:bag]),
        box=box,
        player=player,
        started=True,
        dropped=dropped,
        powers=[[COLOURS[p] for p in powers]] if powers else [],
    )


def play(state: State, command: Command, seat: int | None = None) -> tuple[State, list[Event]]:
    """The player (or `seat`) sends `command`; the bag's draws come from the shared RNG."""
    return stories.play(GAME, state, state.player if seat is None else seat, command, RNG)


def rejected(state: State, command: Command) -> str:
    return stories.refused(GAME, state, state.player, command, RNG)


def started(options: Options, rng: Rng) -> State:
    """A table just set up."""
    state = GAME.initial(options, 2)
    return GAME.settle(state, GAME.start(state, rng))[1]


def pair(a: str | None, b: str | None) -> tuple[str, str]:
    assert a is not None and b is not None
    x, y = sorted((a, b))
    return x, y


def colours(state: State, seat: int) -> list[str]:
    """A planet as letters, one string per column, bottom-up."""
    letter = {v: k for k, v in COLOURS.items()}
    return ["".join(letter[colour_of(b)] for b in column) for column in state.planets[seat]]


def test_setup_puts_three_blacks_on_each_planet_and_no_twins_touch_in_the_sky() -> None:
    for seed in range(20):
        state = started(Options(), Rng(seed, 1))
        assert colours(state, 0) == colours(state, 1) == ["k", "", "k", "", "k"]
        sky = [colour_of(b) for b in state.sky if b is not None]
        assert sorted(sky) == sorted(["red", "purple", "yellow", "blue", "green"] * 2)
        assert not any(
            sky[a] == sky[b] and sky_touching(a, b) for a in range(10) for b in range(10)
        )
        # 14 of each colour and 3 blacks are in the bag; 7 blacks stay in the box.
        assert len(state.bag) == 73 and len(state.box) == 7


def test_at_least_one_falling_bubblee_comes_from_your_side_of_the_sky() -> None:
    state = table()
    far = pair(state.sky[5], state.sky[6])
    assert rejected(state, DropBubblees(bubblees=far)) == "none_from_your_side"
    # A vertical pair (one from each row) is fine; the near one lands first.
    state, events = play(state, DropBubblees(bubblees=pair(state.sky[1], state.sky[6])))
    landed = [e for e in events if isinstance(e, BubbleeLanded)]
    assert [colour_of(e.bubblee) for e in landed] == ["purple", "blue"]
    assert colours(state, 0)[1] == "pb"


def test_the_sky_swap_is_optional_comes_once_and_before_the_fall() -> None:
    state = table()
    swap = SwapSky(bubblees=pair(state.sky[0], state.sky[1]))
    state, _ = play(state, swap)
    assert [colour_of(b) for b in state.sky[:2] if b] == ["purple", "red"]
    assert rejected(state, swap) == "already_swapped"
    assert not any(isinstance(c, SwapSky) for c in GAME.legal(state, 0))
    # Swapping two Bubblees that do not touch is refused.
    assert rejected(table(), SwapSky(bubblees=pair(table().sky[0], table().sky[2]))) == (
        "not_adjacent"
    )


def test_a_line_of_three_leaves_with_the_same_colours_touching_it() -> None:
    # Ann's bottom row: _ r r k; a red sits on the second r, another red beside that one.
    state = table(ann=("", "r", "rr", "kr", ""), sky="rpybg/ybgrp")
    # A red (with a yellow on top) falls into column 0 and completes the row.
    state, events = play(state, DropBubblees(bubblees=pair(state.sky[0], state.sky[5])))
    [scored] = [e for e in events if isinstance(e, LinesScored)]
    # The row and the red touching it leave (4 points, one red power); the red touching
    # only that one stays: the whole red group is not taken.
    assert len(scored.bubblees) == 4 and scored.powers == ("red",)
    assert len(state.scored[0]) == 4
    # What lay above slid down: the yellow is now on the bottom row of column 0.
    assert colours(state, 0) == ["y", "", "", "kr", ""]


def test_black_bubblees_never_match() -> None:
    state = table(ann=("", "k", "k", "", ""), sky="kpybg/ybgrp")
    state, events = play(state, DropBubblees(bubblees=pair(state.sky[0], state.sky[1])))
    assert not any(isinstance(e, LinesScored) for e in events)
    assert colours(state, 0)[:3] == ["k", "kp", "k"]


def test_bubblees_slide_down_and_the_chain_powers_wait_for_the_first() -> None:
    # Ann's bottom row: g g y y _, a green on the first yellow.
    state = table(ann=("g", "g", "yg", "y", ""), sky="rpbgy/ybgrp")
    # A yellow (with a purple on top) falls into column 4: the yellow row goes, the
    # green slides down beside the other two and that row goes next.
    state, events = play(state, DropBubblees(bubblees=pair(state.sky[4], state.sky[9])))
    scored = [e for e in events if isinstance(e, LinesScored)]
    assert [s.powers for s in scored] == [("yellow",), ("green",)]
    assert colours(state, 0) == ["", "", "", "", "p"] and len(state.scored[0]) == 6
    assert state.powers == [["yellow"], ["green"]]
    # The green power must wait for the yellow one.
    assert {type(c) for c in GAME.legal(state, 0)} <= {UseYellow, SkipPower}
    assert rejected(state, SkipPower(colour="green")) == "power_not_available"


def test_simultaneous_matches_let_the_player_choose_the_power_order() -> None:
    # A pair of red and blue falls into columns 0 and 1, finishing a red column and a
    # blue column at once.
    state = table(ann=("rr", "bb", "", "", ""), bea=("kr", "", "k", "", "k"), sky="rbypg/ybgrp")
    state, _ = play(state, DropBubblees(bubblees=pair(state.sky[0], state.sky[1])))
    assert state.powers == [["red", "blue"]]
    kinds = {type(c) for c in GAME.legal(state, 0)}
    assert UseRed in kinds and UseBlue in kinds
    state, _ = play(state, SkipPower(colour="blue"))
    assert state.powers == [["red"]]


def test_blue_brings_a_bubblee_from_the_opponents_side_and_three_slots_refill() -> None:
    state = table(sky="rpybg/ybgrp", powers=("b",), dropped=True)
    state.sky[0] = state.sky[1] = None  # the pair that fell
    target = state.sky[7]  # green, on Bea's side, over column 2
    assert target is not None
    # A Bubblee from Ann's own side is not a blue target.
    assert rejected(state, UseBlue(bubblee=str(state.sky[2]))) == "not_in_opponents_sky"
    state, events = play(state, UseBlue(bubblee=target))
    assert state.planets[0][2][-1] == target
    [refill] = [e for e in events if isinstance(e, SkyRefilled)]
    assert sorted(slot for slot, _ in refill.fills) == [0, 1, 7]
    assert isinstance(events[-2], TurnBegan) and state.player == 1


def test_purple_sends_an_uncovered_bubblee_across_and_yellow_scores_one() -> None:
    state = table(ann=("kp", "", "k", "", "k"), powers=("p", "y"), dropped=True)
    covered = state.planets[0][0][0]
    assert rejected(state, UsePurple(bubblee=covered)) == "not_uncovered"
    purple = state.planets[0][0][-1]
    state, _ = play(state, UsePurple(bubblee=purple))
    assert state.planets[1][0][-1] == purple
    black = state.planets[0][2][-1]
    state, _ = play(state, UseYellow(bubblee=black))
    assert state.scored[0] == [black]


def test_red_swap_making_a_line_on_the_opponents_planet_scores_it_for_them() -> None:
    # Bea's bottom row: g g r g; red swaps the red and the last green: g g g r.
    state = table(bea=("g", "g", "r", "g", ""), powers=("r",), dropped=True)
    state, events = play(
        state, UseRed(bubblees=pair(state.planets[1][2][0], state.planets[1][3][0]))
    )
    [scored] = [e for e in events if isinstance(e, LinesScored)]
    assert scored.planet == 1 and scored.powers == ()
    assert len(state.scored[1]) == 3 and state.scored[0] == []


def test_green_swap_making_a_line_queues_its_power_after_the_others() -> None:
    state = table(ann=("b", "b", "r", "b", ""), powers=("g", "y"), dropped=True)
    state, _ = play(state, UseGreen(bubblees=pair(state.planets[0][2][0], state.planets[0][3][0])))
    # The blue line scored; its power waits behind the yellow one still unused.
    assert len(state.scored[0]) == 3
    assert state.powers == [["yellow"], ["blue"]]


def test_orange_takes_from_the_opponents_scoring_area() -> None:
    state = table(bea_scored="rrr", powers=("o",), dropped=True)
    stolen = state.scored[1][0]
    state, _ = play(state, UseOrange(bubblee=stolen))
    assert stolen in state.scored[0] and len(state.scored[1]) == 2


def test_white_pushes_a_black_in_under_a_column_of_the_opponent() -> None:
    state = table(bea=("rrg", "y", "", "", "k"), powers=("w",), dropped=True)
    full = table(bea=("rrgy", "y", "", "", "k"), powers=("w",), dropped=True)
    assert rejected(full, UseWhite(column=0)) == "column_full"
    state, _ = play(state, UseWhite(column=0))
    assert colours(state, 1)[0] == "krrg"


def test_a_bubblee_left_over_a_full_column_loses_the_game() -> None:
    state = table(ann=("kpyb", "", "k", "", "k"))
    state, events = play(state, DropBubblees(bubblees=pair(state.sky[0], state.sky[1])))
    assert isinstance(events[-1], PlanetOverfilled)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (2, 1)


def test_a_stuck_bubblee_lands_when_a_match_makes_room() -> None:
    # Column 0 is full with a green on top; column 2 also has a green on its top row.
    state = table(ann=("kbyg", "kby", "kpbg", "", ""), sky="rgybp/ybgrp")
    # The red over column 0 cannot land; the green lands on column 1: g g g on the top
    # row leaves, column 0 has room and the red lands after all.
    state, events = play(state, DropBubblees(bubblees=pair(state.sky[0], state.sky[1])))
    assert state.stuck == [] and colours(state, 0)[0] == "kbyr"
    assert not any(isinstance(e, PlanetOverfilled) for e in events)
    state, events = play(state, SkipPower(colour="green"))
    assert not state.over and state.player == 1


def test_the_game_ends_on_points_when_the_bag_cannot_refill_the_sky() -> None:
    state = table(ann_scored="rrr", bea_scored="ggg", bag=1)
    state, events = play(state, DropBubblees(bubblees=pair(state.sky[3], state.sky[4])))
    assert isinstance(events[-1], BagEmptied)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (3, 3) and outcome.ranks == (1, 1)


def test_powers_are_optional() -> None:
    state = table(powers=("y",), dropped=True)
    state, events = play(state, SkipPower(colour="yellow"))
    assert state.player == 1 and state.scored[0] == []


def test_careful_players_keep_every_bubblee_accounted_for() -> None:
    """Bots that avoid overfilling play long games; no Bubblee is lost or doubled."""
    for seed in range(12):
        bot = random.Random(seed)
        state = started(Options(orange=seed % 2 == 0, white=seed % 3 == 0), Rng(seed, 0))
        everyone = _all(state)
        for turn in range(1, 500):
            if state.over:
                break
            options = list(GAME.legal(state, state.player))
            safe = [c for c in options if not isinstance(c, DropBubblees) or _lands(state, c)]
            command = bot.choice(safe or options)
            state, _ = play(state, command)
            assert sorted(_all(state)) == sorted(everyone), f"seed {seed} move {turn}"
        assert state.over


def _lands(state: State, command: DropBubblees) -> bool:
    columns = [len(c) for c in state.planets[state.player]]
    for b in command.bubblees:
        column = state.sky.index(b) % 5
        columns[column] += 1
        if columns[column] > 4:
            return False
    return True


def _all(state: State) -> list[str]:
    out = [b for b in state.sky if b is not None] + state.bag + state.box
    for planet in state.planets:
        for column in planet:
            out += column
    for scored in state.scored:
        out += scored
    return out
