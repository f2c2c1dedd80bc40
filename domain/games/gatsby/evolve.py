"""How each Gatsby event changes the table: a flat fold that never rejects or rolls."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.games.gatsby.board import ALL_SPACES, CABARET_COLS
from domain.games.gatsby.events import (
    ActionChosen,
    ActionRestricted,
    AscensionAdvanced,
    BonusGained,
    BonusLost,
    CabaretInfluencePlaced,
    CabaretLaid,
    CharacterRallied,
    CharacterRevealed,
    CharactersLaid,
    CharactersSwapped,
    Event,
    FirstPlayerChosen,
    FirstTokenAwaited,
    GameEnded,
    InfluenceSwapped,
    RaceFinished,
    RaceInfluencePlaced,
    SpecialDone,
    SpecialKept,
    SpecialsDrawn,
    SpecialsShuffled,
    SpecialTaken,
    SpecialUsed,
    StepSkipped,
    TurnBegan,
)
from domain.games.gatsby.spots import parse_spot
from domain.games.gatsby.state import Player, State
from domain.kernel import Seat

replace = msgspec.structs.replace


def _player(state: State, seat: Seat, change: Callable[[Player], Player]) -> list[Player]:
    return [change(p) if s == seat else p for s, p in enumerate(state.players)]


def evolve(state: State, event: Event) -> State:
    match event:
        case CabaretLaid(tiles=tiles):
            return replace(state, cabaret_tiles=list(tiles))
        case CharactersLaid(placed=placed, spares=spares):
            laid = dict(zip(ALL_SPACES, placed or (), strict=True))
            return replace(state, characters=laid, spares=list(spares or ()))
        case CharacterRevealed(character=character):
            return replace(state, face_up=sorted({*state.face_up, character}))
        case CharactersSwapped(seat=seat, spaces=(first, second)):
            characters = dict(state.characters)
            characters[first], characters[second] = characters[second], characters[first]
            # A player's swap answers the bonus waiting; the setup swap answers none.
            pending = state.pending if seat is None else state.pending[1:]
            return replace(state, characters=characters, pending=pending)
        case SpecialsShuffled(tiles=tiles):
            return replace(state, special_pile=list(tiles or ()))
        case FirstPlayerChosen(seat=seat):
            return replace(state, first=seat, player=seat)
        case SpecialsDrawn(seat=seat, count=count, tiles=tiles):
            pile = state.special_pile[: len(state.special_pile) - count]
            return replace(
                state, special_pile=pile, drawn=list(tiles or ()), phase="keep_special", player=seat
            )
        case SpecialKept(seat=seat, tile=tile, discarded=discarded):
            players = _player(state, seat, lambda p: replace(p, special=tile))
            return replace(
                state,
                players=players,
                drawn=[],
                special_discard=[*state.special_discard, *discarded],
                phase="action" if state.in_special else state.phase,
            )
        case SpecialTaken(seat=seat, tile=tile, replaced=replaced):
            players = _player(
                state,
                seat,
                lambda p: replace(
                    p, special=tile, specials_discarded=p.specials_discarded + int(bool(replaced))
                ),
            )
            discard = [*state.special_discard, replaced] if replaced else state.special_discard
            pile = [t for t in state.special_pile if t != tile]
            return replace(state, players=players, special_pile=pile, special_discard=discard)
        case FirstTokenAwaited(seat=seat):
            return replace(state, phase="first_token", player=seat)
        case TurnBegan(seat=seat):
            return replace(
                state,
                phase="turn",
                player=seat,
                steps=[],
                pending=[],
                in_special=False,
                special_used=False,
            )
        case ActionChosen(seat=seat, space=space, steps=steps):
            mine = state.blocked_for == seat
            return replace(
                state,
                phase="action",
                last_action=space,
                blocked=None if mine else state.blocked,
                blocked_for=None if mine else state.blocked_for,
                steps=list(steps),
            )
        case SpecialUsed(seat=seat, tile=tile, steps=steps, bonus=bonus):
            players = _player(
                state,
                seat,
                lambda p: replace(p, special=None, specials_discarded=p.specials_discarded + 1),
            )
            return replace(
                state,
                players=players,
                special_discard=[*state.special_discard, tile],
                phase="action",
                in_special=True,
                special_used=True,
                steps=list(steps),
                pending=[bonus] if bonus else [],
            )
        case SpecialDone():
            return replace(state, phase="turn", in_special=False)
        case StepSkipped():
            return replace(state, steps=state.steps[1:])
        case CabaretInfluencePlaced(seat=seat, row=row, col=col):
            cell = row * CABARET_COLS + col
            cabaret = [seat if i == cell else s for i, s in enumerate(state.cabaret)]
            players = _player(state, seat, lambda p: replace(p, reserve=p.reserve - 1))
            return replace(state, cabaret=cabaret, players=players, **_step_done(state))
        case RaceInfluencePlaced(seat=seat, line=line):
            race = [[*r, seat] if i == line else r for i, r in enumerate(state.race)]
            players = _player(state, seat, lambda p: replace(p, reserve=p.reserve - 1))
            return replace(state, race=race, players=players, **_step_done(state))
        case AscensionAdvanced(seat=seat, height=height, by_step=by_step):
            players = _player(state, seat, lambda p: replace(p, height=height))
            left = state.steps[1:] if by_step else state.steps
            return replace(state, players=players, steps=left)
        case BonusGained(bonus=bonus):
            return replace(state, pending=[bonus, *state.pending])
        case BonusLost():
            return replace(state, pending=state.pending[1:])
        case InfluenceSwapped(mine=mine, theirs=theirs):
            return _swap_influence(replace(state, pending=state.pending[1:]), mine, theirs)
        case ActionRestricted(opponent=opponent, space=space):
            return replace(state, blocked=space, blocked_for=opponent, pending=state.pending[1:])
        case RaceFinished(line=line, returned=returned):
            players = [
                replace(p, reserve=p.reserve + returned[s]) for s, p in enumerate(state.players)
            ]
            race = [[] if i == line else r for i, r in enumerate(state.race)]
            closed = [True if i == line else c for i, c in enumerate(state.race_closed)]
            return replace(state, players=players, race=race, race_closed=closed)
        case CharacterRallied(seat=seat, space=space, character=character):
            players = _player(
                state, seat, lambda p: replace(p, characters=[*p.characters, character])
            )
            return replace(
                state,
                players=players,
                characters={**state.characters, space: None},
                face_up=sorted({*state.face_up, character}),
            )
        case GameEnded(reason=reason, winner=winner, sheets=sheets):
            return replace(state, phase="over", reason=reason, winner=winner, sheets=list(sheets))
        case _:
            raise TypeError(f"not a Gatsby event: {event!r}")


def _step_done(state: State) -> dict[str, object]:
    """A placement done: the pending extra placement it answered, else the step."""
    if state.pending and state.pending[0] == "extra_placement":
        return {"pending": state.pending[1:]}
    return {"steps": state.steps[1:]}


def _swap_influence(state: State, mine: str, theirs: str) -> State:
    """The two tokens change places (each spot now holds the other colour)."""
    cabaret = list(state.cabaret)
    race = [list(r) for r in state.race]

    def get(spot: str) -> Seat:
        where, a, b = parse_spot(spot)
        seat = cabaret[a * CABARET_COLS + b] if where == "cabaret" else race[a][b]
        assert seat is not None, "decide swaps two tokens"
        return seat

    def put(spot: str, seat: Seat) -> None:
        where, a, b = parse_spot(spot)
        if where == "cabaret":
            cabaret[a * CABARET_COLS + b] = seat
        else:
            race[a][b] = seat

    first, second = get(mine), get(theirs)
    put(mine, second)
    put(theirs, first)
    return replace(state, cabaret=cabaret, race=race)
