"""A Gatsby turn: move the Action token, do its steps in order, take the bonuses, then
check the rallies and the instant wins.

Rule sentences cite seed 002 line 1337 ("Gamehelpgatsby", 2025-06-12); the locations are in
`locations.py`, the bonuses and special tiles in `bonuses.py`, the end in `ending.py`.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.games.gatsby import bonuses, ending
from domain.games.gatsby.board import (
    ACTION_SPACES,
    CABARET_BONUSES,
    CABARET_COLS,
    CABARET_ROWS,
    EDGE_SPACES,
    FINANCE_BONUSES,
    FINANCE_TOP,
    RACE_BONUSES,
    RACE_LINES,
    SPACES,
    SWAP_IF_BOTTOM_STRONGER,
    ActionSpace,
)
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
from domain.games.gatsby.ending import Turn
from domain.games.gatsby.events import (
    ActionChosen,
    AscensionAdvanced,
    CabaretInfluencePlaced,
    CabaretLaid,
    CharacterRallied,
    CharacterRevealed,
    CharactersLaid,
    CharactersSwapped,
    FirstPlayerChosen,
    FirstTokenAwaited,
    RaceFinished,
    RaceInfluencePlaced,
    SpecialDone,
    SpecialsDrawn,
    SpecialsShuffled,
    StepSkipped,
    TurnBegan,
)
from domain.games.gatsby.evolve import evolve
from domain.games.gatsby.locations import (
    cabaret_cells,
    cell_of,
    majority,
    next_height,
    open_lines,
)
from domain.games.gatsby.state import State
from domain.games.gatsby.tiles import CABARET_TILES, CHARACTERS, DRAW_AND_CHOOSE, stars_of
from domain.kernel import Outcome, Rejected, Rng, Seat, ranks_from_keys
from domain.table import top_cards

# --- setup -----------------------------------------------------------------------------------


def check_options(options: object, seats: int) -> None:
    if seats != 2:
        raise Rejected("two_players_only", "Gatsby is played by exactly two players.")


def start(state: State, rng: Rng) -> Turn:
    """Rule (Setup): Cabaret tiles face up; characters shuffled onto the 12 spaces, the edge
    ones revealed, Finance and Racetrack swapped if the bottom has more stars; the special
    tiles face down; the Action token flipped; the second player draws 2 and keeps 1."""
    turn = Turn(state, evolve)
    turn.record(CabaretLaid(tiles=tuple(rng.shuffled(sorted(CABARET_TILES)))))
    shuffled = rng.shuffled(sorted(CHARACTERS))
    placed = len(turn.state.characters)
    turn.record(CharactersLaid(placed=tuple(shuffled[:placed]), spares=tuple(shuffled[placed:])))
    for edges in EDGE_SPACES.values():
        for space in edges:
            character = turn.state.characters[space]
            assert character is not None
            turn.record(CharacterRevealed(space=space, character=character))
    for bottom, top in SWAP_IF_BOTTOM_STRONGER.values():
        low, high = turn.state.characters[bottom], turn.state.characters[top]
        assert low is not None and high is not None
        if stars_of(low) > stars_of(high):
            pair = (bottom, top) if bottom < top else (top, bottom)
            turn.record(CharactersSwapped(seat=None, spaces=pair))
    turn.record(SpecialsShuffled(tiles=tuple(rng.shuffled(turn.state.special_pile))))
    first = rng.below(2)
    turn.record(FirstPlayerChosen(seat=first))
    second = 1 - first
    drawn = top_cards(turn.state.special_pile, DRAW_AND_CHOOSE)
    turn.record(SpecialsDrawn(seat=second, count=len(drawn), tiles=drawn))
    return turn


# --- decide ----------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "The game of Gatsby is over.")
    if state.phase == "setup":
        raise Rejected("not_started", "The board is not set up yet; the game has not started.")
    if seat != state.player:
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn.")
    turn = Turn(state, evolve)
    match command:
        case KeepSpecial(tile=tile):
            bonuses.keep_special(turn, seat, tile)
            if not turn.state.in_special:
                turn.record(FirstTokenAwaited(seat=seat))
                return turn
        case ChooseAction(space=space):
            choose_action(turn, seat, space)
        case UseSpecial():
            bonuses.use_special(turn, seat)
        case PlaceInCabaret(row=row, col=col):
            place_in_cabaret(turn, seat, row, col)
            if state.phase == "first_token":
                turn.record(TurnBegan(seat=state.first))
                return turn
        case PlaceInRacetrack(line=line):
            place_in_racetrack(turn, seat, line)
        case SwapCharacters(spaces=spaces):
            bonuses.swap_characters(turn, seat, spaces)
        case SwapInfluence(mine=mine, theirs=theirs):
            bonuses.swap_influence(turn, seat, mine, theirs)
        case Restrict(space=space):
            bonuses.restrict(turn, seat, space)
        case SkipBonus():
            bonuses.skip_bonus(turn, seat)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a Gatsby move.")
    proceed(turn, seat)
    return turn


def available_actions(state: State, seat: Seat) -> list[ActionSpace]:
    """Rule: a different action space each turn (never the last action), nor one the
    opponent's bonus closed to you."""
    closed = {state.last_action}
    if state.blocked_for == seat:
        closed.add(state.blocked)
    return [space for space in ACTION_SPACES if space not in closed]


def choose_action(turn: Turn, seat: Seat, space: ActionSpace) -> None:
    state = turn.state
    if state.phase != "turn":
        raise Rejected("action_under_way", "Your action is already chosen; finish its steps.")
    if space == state.last_action:
        raise Rejected("action_just_used", "The Action token must move: that action was just used.")
    if space not in available_actions(state, seat):
        raise Rejected("action_restricted", "Your opponent's bonus closed that action this turn.")
    turn.record(ActionChosen(seat=seat, space=space, steps=ACTION_SPACES[space]))


# --- the steps, in order -------------------------------------------------------------------


def expects(state: State, step: str) -> bool:
    """The turn waits for a placement of this kind: the next step, or an extra placement."""
    if state.phase == "first_token":
        return step == "cabaret"
    if state.phase != "action":
        return False
    if state.pending:
        return state.pending[0] == "extra_placement"
    return bool(state.steps) and state.steps[0] == step


def place_in_cabaret(turn: Turn, seat: Seat, row: int, col: int) -> None:
    """Rule: tokens are always placed orthogonally adjacent to another token (any colour)."""
    state = turn.state
    if not expects(state, "cabaret"):
        raise Rejected("not_a_cabaret_step", "Your turn does not place a token in the Cabaret now.")
    if not (0 <= row < CABARET_ROWS and 0 <= col < CABARET_COLS):
        raise Rejected("off_the_board", f"The Cabaret has {CABARET_ROWS} x {CABARET_COLS} spaces.")
    cell = cell_of(row, col)
    if state.cabaret[cell] is not None:
        raise Rejected("space_taken", f"Row {row + 1}, column {col + 1} already holds a token.")
    if cell not in cabaret_cells(state):
        raise Rejected("must_touch_a_token", "A Cabaret token must touch another token.")
    if state.players[seat].reserve < 1:
        raise Rejected("no_influence_left", "You have no Influence token left.")
    turn.record(CabaretInfluencePlaced(seat=seat, row=row, col=col))
    if state.phase != "first_token" and (row, col) in CABARET_BONUSES:
        bonuses.gain(turn, seat, CABARET_BONUSES[(row, col)])


def place_in_racetrack(turn: Turn, seat: Seat, line: int) -> None:
    """Rule: tokens go left to right; a full line goes to the majority, its tokens go home
    and the line closes."""
    state = turn.state
    if not expects(state, "racetrack"):
        raise Rejected("not_a_race_step", "Your turn does not place a token in the Racetrack now.")
    if line not in open_lines(state):
        raise Rejected("line_closed", f"Race line {line + 1} is not open.")
    if state.players[seat].reserve < 1:
        raise Rejected("no_influence_left", "You have no Influence token left.")
    index = len(state.race[line])
    turn.record(RaceInfluencePlaced(seat=seat, line=line, index=index))
    tokens = turn.state.race[line]
    if len(tokens) == RACE_LINES[line]:
        seats = len(state.players)
        winner = majority(tokens, seats)
        returned = tuple(tokens.count(s) for s in range(seats))
        space = SPACES["racetrack"][line]
        character = turn.state.characters[space]
        turn.record(RaceFinished(line=line, winner=winner, returned=returned))
        if character is not None:
            turn.record(CharacterRallied(seat=winner, space=space, character=character))
    if (line, index) in RACE_BONUSES:
        bonuses.gain(turn, seat, RACE_BONUSES[(line, index)])


def advance_ascension(turn: Turn, seat: Seat) -> None:
    """Rule: advance 2 spaces if behind the opponent, else 1; land on a bonus, take it."""
    height = next_height(turn.state, seat)
    turn.record(AscensionAdvanced(seat=seat, height=height, by_step=True))
    if height in FINANCE_BONUSES:
        bonuses.gain(turn, seat, FINANCE_BONUSES[height])


def step_possible(state: State, seat: Seat, step: str) -> bool:
    player = state.players[seat]
    if step == "finance":
        return player.height < FINANCE_TOP
    if player.reserve < 1:
        return False
    if step == "cabaret":
        return bool(cabaret_cells(state))
    return bool(open_lines(state))


def proceed(turn: Turn, seat: Seat) -> None:
    """Carry the turn on until it needs the player: bonuses first, then the steps in order;
    the Finance step moves by itself; a step that cannot be done is skipped."""
    while turn.state.phase == "action":
        state = turn.state
        if state.pending:
            if bonuses.can_take(state, seat, state.pending[0]):
                return
            bonuses.lose(turn, seat)
            continue
        if state.steps:
            step = state.steps[0]
            if not step_possible(state, seat, step):
                turn.record(StepSkipped(seat=seat, step=step))
            elif step == "finance":
                advance_ascension(turn, seat)
            else:
                return
            continue
        if state.in_special:
            turn.record(SpecialDone(seat=seat))
            return
        ending.end_of_turn(turn, seat)
        return


# --- outcome ---------------------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    """The instant winner wins; else most prestige, then most characters; still tied, shared."""
    if state.phase != "over":
        return None
    scores = tuple(sheet.total for sheet in state.sheets)
    keys = [
        (int(state.winner == s), scores[s], state.sheets[s].characters)
        for s in range(len(state.players))
    ]
    return Outcome(scores=scores, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def legal(state: State, seat: Seat) -> Iterator[Command]:
    if state.phase in ("setup", "over") or seat != state.player:
        return
    if state.phase == "keep_special":
        for tile in state.drawn:
            yield KeepSpecial(tile=tile)
    elif state.phase == "first_token":
        yield from cabaret_placements(state)
    elif state.phase == "turn":
        for space in available_actions(state, seat):
            yield ChooseAction(space=space)
        if state.players[seat].special is not None and not state.special_used:
            yield UseSpecial()
    elif state.phase == "action":
        if state.pending:
            yield from bonuses.options(state, seat, state.pending[0])
            yield SkipBonus()
        elif state.steps and state.steps[0] == "cabaret":
            yield from cabaret_placements(state)
        elif state.steps and state.steps[0] == "racetrack":
            yield from race_placements(state)


def cabaret_placements(state: State) -> Iterator[PlaceInCabaret]:
    for cell in cabaret_cells(state):
        yield PlaceInCabaret(row=cell // CABARET_COLS, col=cell % CABARET_COLS)


def race_placements(state: State) -> Iterator[PlaceInRacetrack]:
    for line in open_lines(state):
        yield PlaceInRacetrack(line=line)


def to_act(state: State) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})
