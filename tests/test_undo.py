"""Taking back a move (issue 19): rule stories on a card game (3-13), a race board
(Hypnosia) and a dice game (Chicken!). The conformance kit sprinkles undos over every
game; these pin what a player and the table are told."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from domain import kernel
from domain import match as m
from domain.games.chicken.commands import GoForIt
from domain.games.hypnosia.commands import MovePawns, RollDice
from domain.games.threethirteen.commands import DrawFromDeck, TakeDiscard
from domain.kernel import Rejected, get_game

ENC = msgspec.json.Encoder()
PLAYERS = ["ann", "bea", "cid"]


def table(game: str, seats: int = 2, seed: int = 7) -> m.MatchState:
    """A match of `game` just started, Ann in seat 1."""
    state: m.MatchState | None = None
    commands: list[Any] = [m.CreateMatch(game=game, seats=seats)]
    commands += [m.JoinMatch(player=p) for p in PLAYERS[:seats]]
    commands.append(m.StartMatch(player="ann", seed=seed))
    for command in commands:
        state = m.decide_and_fold(state, command).after
    assert state is not None
    return state


def acting(state: m.MatchState) -> str:
    [seat] = get_game(state.game).to_act(state.game_state)
    return PLAYERS[seat]


def play(state: m.MatchState, player: str, move: Any) -> m.Decision:
    return m.decide_and_fold(state, m.PlayMove(player=player, move=msgspec.Raw(ENC.encode(move))))


def refused(state: m.MatchState, command: Any) -> Rejected:
    with pytest.raises(Rejected) as err:
        m.decide(state, command)
    return err.value


def same_table(a: m.MatchState, b: m.MatchState) -> bool:
    """Equal in everything but the version (an undo is an event too)."""
    codec = m.codec(a.game)
    return codec.encode_state(msgspec.structs.replace(a, version=b.version)) == (
        codec.encode_state(b)
    )


def test_taking_the_face_up_discard_may_be_taken_back_and_the_card_goes_back() -> None:
    before = table("threethirteen")
    player = acting(before)
    # The player takes the face-up discard: everyone saw that card, nothing was drawn.
    took = play(before, player, TakeDiscard())
    assert isinstance(took.events[0], m.UndoPoint)
    assert m.may_undo(took.after) == PLAYERS.index(player)
    # They think better of it and take it back.
    back = m.decide_and_fold(took.after, m.UndoMove(player=player))
    [undone] = back.events
    assert undone == m.MoveUndone(
        player=player, seat=PLAYERS.index(player), version=before.version + 1
    )
    assert same_table(back.after, before)
    # The whole stream folds to the same table, and the snapshot keeps it.
    codec = m.codec("threethirteen")
    assert codec.encode_state(codec.decode_state(codec.encode_state(took.after))) == (
        codec.encode_state(took.after)
    )


def test_drawing_the_hidden_top_of_the_deck_cannot_be_taken_back() -> None:
    before = table("threethirteen")
    player = acting(before)
    # The player draws from the deck: they have seen a card nobody else has.
    drew = play(before, player, DrawFromDeck())
    assert not isinstance(drew.events[0], m.UndoPoint)
    err = refused(drew.after, m.UndoMove(player=player))
    assert err.code == "cannot_undo"
    assert "showed something hidden" in err.message


def test_the_table_reads_that_the_move_was_taken_back() -> None:
    before = table("threethirteen")
    player = acting(before)
    seat = PLAYERS.index(player)
    took = play(before, player, TakeDiscard())
    [undone] = m.decide(took.after, m.UndoMove(player=player))
    names = ["Ann", "Bea"]
    other = 1 - seat
    assert m.describe("threethirteen", undone, other, names) == (
        f"{names[seat]} took back their move."
    )
    assert m.describe("threethirteen", undone, seat, names) == "You took back your move."
    # The marker is the fold's own: no reader is shown it, the undo every reader is.
    for reader in (0, 1, None):
        assert m.redact("threethirteen", took.events[0], reader) is None
        assert m.redact("threethirteen", undone, reader) == undone


def test_a_pawn_moved_may_be_taken_back_only_by_its_mover() -> None:
    state = table("hypnosia", seats=2)
    mover = acting(state)
    # Hypnosia: the roll is chance, so it stands...
    rolled = play(state, mover, RollDice())
    assert not isinstance(rolled.events[0], m.UndoPoint)
    assert refused(rolled.after, m.UndoMove(player=mover)).code == "cannot_undo"
    # ... but moving a pawn by the pips rolled, while dice are left to use, may be undone.
    game = get_game("hypnosia")
    seat = PLAYERS.index(mover)
    before = rolled.after
    moves = [c for c in game.legal(before.game_state, seat) if isinstance(c, MovePawns)]
    marked = [d for c in moves if isinstance((d := play(before, mover, c)).events[0], m.UndoPoint)]
    if not marked:
        pytest.skip("this seed rolls no die that leaves a move to make")
    moved = marked[0]
    # Bea may not take back Ann's move; the referee says whose it is.
    other = PLAYERS[1 - seat]
    err = refused(moved.after, m.UndoMove(player=other))
    assert err.code == "cannot_undo"
    assert f"only {mover} may take it back" in err.message
    # The mover may.
    back = m.decide_and_fold(moved.after, m.UndoMove(player=mover))
    assert same_table(back.after, before)
    # And nothing more: the roll before it stands.
    assert refused(back.after, m.UndoMove(player=mover)).code == "cannot_undo"


def test_going_for_it_in_chicken_rolls_the_dice_and_stands() -> None:
    state = table("chicken", seats=2)
    player = acting(state)
    # Ann goes for it: the dice are rolled, chance the table has now seen.
    rolled = play(state, player, GoForIt())
    assert [type(e).__name__ for e in rolled.events] == ["DiceRolled"]
    err = refused(rolled.after, m.UndoMove(player=player))
    assert err.code == "cannot_undo"
    assert "drew chance" in err.message


@pytest.fixture
def no_takebacks() -> Iterator[None]:
    """3-13 declared with undo off, for one test."""
    original = kernel._REGISTRY["threethirteen"]
    kernel._REGISTRY["threethirteen"] = dataclasses.replace(original, undo=False)
    try:
        yield
    finally:
        kernel._REGISTRY["threethirteen"] = original


def test_a_game_that_allows_no_takebacks_says_so(no_takebacks: None) -> None:
    before = table("threethirteen")
    player = acting(before)
    took = play(before, player, TakeDiscard())
    assert not isinstance(took.events[0], m.UndoPoint)
    err = refused(took.after, m.UndoMove(player=player))
    assert err.code == "cannot_undo"
    assert err.message == "3-13 allows no take-backs: every move stands."


def test_a_later_move_that_stands_ends_what_may_be_taken_back() -> None:
    before = table("threethirteen")
    player = acting(before)
    took = play(before, player, TakeDiscard())
    game = get_game("threethirteen")
    seat = PLAYERS.index(player)
    # Discarding ends the turn: it stands, and the take of the discard with it.
    discard = next(iter(game.legal(took.after.game_state, seat)))
    done = play(took.after, player, discard)
    assert done.after.undo == []
    assert refused(done.after, m.UndoMove(player=player)).code == "cannot_undo"
    # Folding the recorded events gives the very same match.
    events = [
        *m.decide(before, m.PlayMove(player=player, move=msgspec.Raw(ENC.encode(TakeDiscard()))))
    ]
    refolded = m.fold(events + done.events, before)
    codec = m.codec("threethirteen")
    assert codec.encode_state(refolded) == codec.encode_state(done.after)
