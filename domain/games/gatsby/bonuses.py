"""Bonuses and Special Action tiles (seed 002, "Bonuses" and "Special Actions").

Some spaces grant a bonus when you land on or cover them. Advance Ascension and drawing a
special tile happen at once; the others wait for the player's choice (or `SkipBonus`).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from domain.games.gatsby.board import (
    ACTION_SPACES,
    ALL_SPACES,
    CABARET_COLS,
    FINANCE_BONUSES,
    FINANCE_TOP,
    ActionSpace,
    Bonus,
    Space,
    Step,
)
from domain.games.gatsby.commands import (
    Command,
    PlaceInCabaret,
    PlaceInRacetrack,
    Restrict,
    SwapCharacters,
    SwapInfluence,
)
from domain.games.gatsby.ending import Turn
from domain.games.gatsby.events import (
    ActionRestricted,
    AscensionAdvanced,
    BonusGained,
    BonusLost,
    CharactersSwapped,
    InfluenceSwapped,
    SpecialKept,
    SpecialsDrawn,
    SpecialTaken,
    SpecialUsed,
)
from domain.games.gatsby.locations import cabaret_cells, open_lines
from domain.games.gatsby.spots import Spot, cabaret_spot, race_spot
from domain.games.gatsby.state import State
from domain.games.gatsby.tiles import DRAW_AND_CHOOSE, SPECIAL_TILES, TileId
from domain.kernel import Rejected, Seat
from domain.table import top_cards

SPECIAL_STEPS: dict[str, tuple[tuple[Step, ...], Bonus | None]] = {
    "cabaret_three": (("cabaret", "cabaret", "cabaret"), None),
    "influence_swap": ((), "influence_swap"),
    "finance_and_race": (("finance", "racetrack"), None),
    "draw_and_choose": ((), None),
}
"""What each kind of Special Action tile does, as steps and a bonus."""


# --- gaining ---------------------------------------------------------------------------------


def gain(turn: Turn, seat: Seat, bonus: Bonus) -> None:
    """Advance Ascension and a special tile are taken at once; the rest wait for a choice."""
    if bonus == "advance_ascension":
        height = min(FINANCE_TOP, turn.state.players[seat].height + 1)
        turn.record(AscensionAdvanced(seat=seat, height=height, by_step=False))
        if height in FINANCE_BONUSES:
            gain(turn, seat, FINANCE_BONUSES[height])
    elif bonus == "draw_special":
        if turn.state.special_pile:
            tile = turn.state.special_pile[-1]
            replaced = turn.state.players[seat].special
            turn.record(SpecialTaken(seat=seat, tile=tile, replaced=replaced))
    else:
        turn.record(BonusGained(seat=seat, bonus=bonus))


def can_take(state: State, seat: Seat, bonus: Bonus) -> bool:
    return any(True for _ in options(state, seat, bonus))


def lose(turn: Turn, seat: Seat) -> None:
    turn.record(BonusLost(seat=seat, bonus=turn.state.pending[0]))


def must_be_pending(state: State, bonus: Bonus) -> None:
    if state.phase != "action" or not state.pending or state.pending[0] != bonus:
        raise Rejected("no_such_bonus", f"You have no {bonus.replace('_', ' ')} bonus to take now.")


def skip_bonus(turn: Turn, seat: Seat) -> None:
    if turn.state.phase != "action" or not turn.state.pending:
        raise Rejected("no_bonus_pending", "You have no bonus waiting to be taken.")
    lose(turn, seat)


# --- the bonuses that wait for a choice ------------------------------------------------------


def character_spaces(state: State) -> list[Space]:
    return [space for space in ALL_SPACES if state.characters[space] is not None]


def swap_characters(turn: Turn, seat: Seat, spaces: tuple[Space, Space]) -> None:
    """Bonus: swap two characters still on the board, each keeping its face."""
    state = turn.state
    must_be_pending(state, "swap_characters")
    first, second = spaces
    if not first < second:
        raise Rejected("spaces_not_sorted", "Name two different spaces, in sorted order.")
    for space in spaces:
        if space not in character_spaces(state):
            raise Rejected("no_character_there", f"No character waits on {space}.")
    turn.record(CharactersSwapped(seat=seat, spaces=spaces))


def token_spots(state: State, owner: Seat) -> list[Spot]:
    """Where `owner`'s tokens lie: Cabaret spaces and open race lines."""
    spots = [
        cabaret_spot(cell // CABARET_COLS, cell % CABARET_COLS)
        for cell, seat in enumerate(state.cabaret)
        if seat == owner
    ]
    for line, tokens in enumerate(state.race):
        spots += [race_spot(line, i) for i, seat in enumerate(tokens) if seat == owner]
    return spots


def swap_influence(turn: Turn, seat: Seat, mine: Spot, theirs: Spot) -> None:
    """Bonus or special: one of your Influence tokens and one of the opponent's trade places."""
    state = turn.state
    must_be_pending(state, "influence_swap")
    if mine not in token_spots(state, seat):
        raise Rejected("not_your_token", f"{mine} does not hold one of your tokens.")
    if theirs not in token_spots(state, 1 - seat):
        raise Rejected("not_their_token", f"{theirs} does not hold one of your opponent's tokens.")
    turn.record(InfluenceSwapped(seat=seat, mine=mine, theirs=theirs))


def restrict(turn: Turn, seat: Seat, space: ActionSpace) -> None:
    """Bonus: restrict the opponent's next action."""
    must_be_pending(turn.state, "restrict")
    turn.record(ActionRestricted(seat=seat, opponent=1 - seat, space=space))


def options(state: State, seat: Seat, bonus: Bonus) -> Iterator[Command]:
    """Every way to take a waiting bonus."""
    if bonus == "extra_placement":
        if state.players[seat].reserve >= 1:
            for cell in cabaret_cells(state):
                yield PlaceInCabaret(row=cell // CABARET_COLS, col=cell % CABARET_COLS)
            for line in open_lines(state):
                yield PlaceInRacetrack(line=line)
    elif bonus == "swap_characters":
        for pair in combinations(sorted(character_spaces(state)), 2):
            yield SwapCharacters(spaces=pair)
    elif bonus == "influence_swap":
        theirs = token_spots(state, 1 - seat)
        for mine in token_spots(state, seat):
            for other in theirs:
                yield SwapInfluence(mine=mine, theirs=other)
    elif bonus == "restrict":
        for space in ACTION_SPACES:
            yield Restrict(space=space)


# --- Special Action tiles --------------------------------------------------------------------


def use_special(turn: Turn, seat: Seat) -> None:
    """Rule: a special is a one-time action (here: before choosing the turn's action)."""
    state = turn.state
    tile = state.players[seat].special
    if state.phase != "turn":
        raise Rejected("special_before_action", "Play your special tile before choosing an action.")
    if tile is None:
        raise Rejected("no_special", "You have no Special Action tile on your board.")
    if state.special_used:
        raise Rejected("one_special_a_turn", "You have already played a special tile this turn.")
    kind = SPECIAL_TILES[tile]
    steps, bonus = SPECIAL_STEPS[kind]
    turn.record(SpecialUsed(seat=seat, tile=tile, steps=steps, bonus=bonus))
    if kind == "draw_and_choose" and turn.state.special_pile:
        drawn = top_cards(turn.state.special_pile, DRAW_AND_CHOOSE)
        turn.record(SpecialsDrawn(seat=seat, count=len(drawn), tiles=drawn))


def keep_special(turn: Turn, seat: Seat, tile: TileId) -> None:
    """Of the tiles drawn, one goes on your board; the others are discarded face up."""
    state = turn.state
    if state.phase != "keep_special":
        raise Rejected("nothing_drawn", "You have drawn no Special Action tiles to choose from.")
    if tile not in state.drawn:
        raise Rejected("tile_not_drawn", f"{tile} is not among the tiles you drew.")
    rest = tuple(t for t in state.drawn if t != tile)
    turn.record(SpecialKept(seat=seat, tile=tile, discarded=rest))
