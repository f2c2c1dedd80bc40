"""The end of a Gatsby turn and of the game (seed 002, "Turn Overview", "Victory
Conditions", "End Game Scoring"): rallies checked, instant wins, the last character."""

from __future__ import annotations

from collections import Counter

from domain.games.gatsby.board import CABARET_SECTIONS, FINANCE_TOP, SPACES, Location
from domain.games.gatsby.events import (
    CharacterRallied,
    EndReason,
    Event,
    GameEnded,
    ScoreSheet,
    TurnBegan,
)
from domain.games.gatsby.locations import (
    cabaret_cells,
    cabaret_still_open,
    finance_rallies,
    open_lines,
    rallies_cabaret,
)
from domain.games.gatsby.state import Player, State
from domain.games.gatsby.tiles import SUITS, stars_of, suit_of
from domain.kernel import Recorder, Seat

Turn = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

SAME_SUIT_TO_WIN = 3


def score_sheet(player: Player) -> ScoreSheet:
    """Rule: prestige on your characters, +1 for an unused special tile on your board,
    +1 per special tile discarded during the game."""
    prestige = sum(stars_of(c) for c in player.characters)
    specials = int(player.special is not None) + player.specials_discarded
    return ScoreSheet(
        prestige=prestige,
        specials=specials,
        total=prestige + specials,
        characters=len(player.characters),
    )


def instant_win(player: Player) -> EndReason | None:
    """Rule: 3 characters of the same suit, or 1 character of each of the 5 suits."""
    suits = Counter(suit_of(c) for c in player.characters)
    if suits and max(suits.values()) >= SAME_SUIT_TO_WIN:
        return "three_of_a_suit"
    if len(suits) == len(SUITS):
        return "five_suits"
    return None


def finish(turn: Turn, reason: EndReason, winner: Seat | None = None) -> None:
    sheets = tuple(score_sheet(p) for p in turn.state.players)
    turn.record(GameEnded(reason=reason, winner=winner, sheets=sheets))


def location_emptied(state: State, location: Location) -> bool:
    return all(state.characters[space] is None for space in SPACES[location])


def stalled(state: State) -> bool:
    """No character left can ever be rallied, or nobody can do any step at all."""
    tokens = any(p.reserve > 0 for p in state.players)
    for line, space in enumerate(SPACES["racetrack"]):
        if state.characters[space] is not None and tokens and not state.race_closed[line]:
            return False
    if any(state.characters[space] is not None for space in SPACES["finance"]):
        return False
    for section, space in enumerate(SPACES["cabaret"]):
        waiting = state.characters[space] is not None and cabaret_still_open(state, section)
        if waiting and tokens and cabaret_cells(state):
            return False
    return True


def nothing_to_do(state: State) -> bool:
    """Neither player can take any step: no token to place anywhere, both at the top."""
    for player in state.players:
        if player.height < FINANCE_TOP:
            return False
        if player.reserve > 0 and (cabaret_cells(state) or open_lines(state)):
            return False
    return True


def end_of_turn(turn: Turn, seat: Seat) -> None:
    """Rule: at the end of the turn, check the characters rallied; an instant win ends the
    game at once; otherwise it ends when the last character is rallied."""
    state = turn.state
    for section in range(CABARET_SECTIONS):
        space = SPACES["cabaret"][section]
        character = state.characters[space]
        if character is not None and rallies_cabaret(state, seat, section):
            turn.record(CharacterRallied(seat=seat, space=space, character=character))
    for space in finance_rallies(turn.state, seat):
        character = turn.state.characters[space]
        assert character is not None
        turn.record(CharacterRallied(seat=seat, space=space, character=character))
    state = turn.state
    for s in (seat, 1 - seat):
        reason = instant_win(state.players[s])
        if reason is not None:
            finish(turn, reason, s)
            return
    emptied = any(location_emptied(state, location) for location in SPACES)
    if state.options.end == "location_emptied" and emptied:
        finish(turn, "location_emptied")
        return
    if all(character is None for character in state.characters.values()):
        finish(turn, "last_character")
    elif stalled(state) or nothing_to_do(state):
        finish(turn, "stalled")
    else:
        turn.record(TurnBegan(seat=1 - seat))
