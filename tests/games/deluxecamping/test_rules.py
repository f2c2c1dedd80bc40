"""Deluxe Camping: the conformance kit, then the page's sentences as short stories."""

from __future__ import annotations

from domain.games.deluxecamping import GAME
from domain.games.deluxecamping.areas import scores
from domain.games.deluxecamping.board import EDGES, MYSTERY_SQUARES, bungalow, trailer
from domain.games.deluxecamping.commands import (
    AddFence,
    Command,
    MovePiece,
    PlaceBungalow,
    PlaceTrailer,
    SkipFence,
    StopMoving,
)
from domain.games.deluxecamping.events import (
    AreaScored,
    Event,
    FenceRaised,
    FenceSkipped,
    GameEnded,
    MovingStopped,
    PieceMoved,
    PiecePlaced,
    TokensLaid,
    TokensRevealed,
    TurnBegan,
)
from domain.games.deluxecamping.rules import legal
from domain.games.deluxecamping.state import DeluxeCampingOptions, Phase, Table
from domain.games.deluxecamping.view import view
from tests.conformance.kit import run_conformance
from tests.support import stories
from tests.support.stories import Rigged


def test_conformance() -> None:
    # Ten seeds the sweep over every game (tests/conformance, seeds 0-119) does not play.
    run_conformance(GAME, seeds=range(1000, 1010))


ANN, BEA = 0, 1
B_ANN, B_BEA = bungalow(ANN), bungalow(BEA)
ICE1, ICE2, GUY = "dc-icecream1", "dc-icecream2", "dc-guy"
# The tokens as these stories lay them: ice creams on b2 and g3, the guy on c7.
LAID = {"b2": ICE1, "g3": ICE2, "c7": GUY}

# The ground cut in two halves, columns a-d and e-h, but for the side d8-e8.
HALVES = ["d1-e1", "d2-e2", "d3-e3", "d6-e6", "d7-e7"]


def t(seat: int, n: int) -> str:
    return trailer(seat, n)


def table(
    pieces: dict[str, str],
    *,
    fences: list[str] | None = None,
    tokens: dict[str, str] | None = None,
    phase: Phase = "move",
    player: int = ANN,
    movements: int = 2,
    revealed: bool = True,
    fence_optional: bool = False,
) -> Table:
    """A two-player ground in play, Ann to move."""
    return Table(
        seats=2,
        options=DeluxeCampingOptions(fence_optional=fence_optional),
        phase=phase,
        player=player,
        pieces=dict(pieces),
        tokens=dict(LAID if tokens is None else tokens),
        revealed=revealed,
        fences=sorted(fences or []),
        movements_left=movements if phase == "move" else 0,
    )


def play(state: Table, command: Command, seat: int = ANN) -> tuple[Table, list[Event]]:
    return stories.play(GAME, state, seat, command, Rigged())


def refused(state: Table, command: Command, seat: int = ANN) -> str:
    return stories.refused(GAME, state, seat, command)


def full_camp() -> dict[str, str]:
    """Ann camps in the left half, Bea in the right one, all trailers placed."""
    ann = {
        "a1": B_ANN,
        **{sq: t(ANN, n) for n, sq in enumerate(["a3", "a5", "a7", "b8", "c1", "c3"], 1)},
    }
    bea = {
        "h8": B_BEA,
        **{sq: t(BEA, n) for n, sq in enumerate(["h1", "h3", "h5", "g7", "f1", "f8"], 1)},
    }
    return {**ann, **bea}


# --- setup -----------------------------------------------------------------------------------


def test_the_mystery_tokens_lie_face_down_and_nobody_sees_which_is_which() -> None:
    state = GAME.initial(DeluxeCampingOptions(), 2)
    events, after = GAME.settle(state, GAME.start(state, Rigged(GUY, ICE1, ICE2)))
    assert events == [TokensLaid(squares=MYSTERY_SQUARES, tokens=(GUY, ICE1, ICE2))]
    assert GAME.redact(events[0], ANN) == TokensLaid(squares=MYSTERY_SQUARES, tokens=None)
    assert GAME.redact(events[0], None) == TokensLaid(squares=MYSTERY_SQUARES, tokens=None)
    assert GAME.hidden(after, ANN) == frozenset({GUY, ICE1, ICE2})
    assert [tok.token for tok in view(after, ANN).tokens] == [None, None, None]
    assert after.phase == "bungalows" and after.player == ANN


def test_players_first_place_their_bungalows_in_turn_then_their_six_trailers() -> None:
    state = table({}, phase="bungalows", revealed=False)
    state, events = play(state, PlaceBungalow(square="a1"))
    assert events == [PiecePlaced(seat=ANN, piece=B_ANN, square="a1")]
    assert state.player == BEA and state.phase == "bungalows"
    state, _ = play(state, PlaceBungalow(square="h8"), seat=BEA)
    # Every bungalow is down: Ann places her first trailer, then Bea, in turn.
    assert state.phase == "trailers" and state.player == ANN
    assert refused(state, PlaceBungalow(square="a8")) == "not_placing_bungalows"
    state, events = play(state, PlaceTrailer(square="a3"))
    assert events == [PiecePlaced(seat=ANN, piece=t(ANN, 1), square="a3")]
    assert state.player == BEA
    state, events = play(state, PlaceTrailer(square="h6"), seat=BEA)
    assert events == [PiecePlaced(seat=BEA, piece=t(BEA, 1), square="h6")]
    assert state.player == ANN and state.phase == "trailers"


def test_a_bungalow_may_not_stand_next_to_the_pool_or_another_players_bungalow() -> None:
    state = table({"a1": B_ANN}, phase="bungalows", player=BEA, revealed=False)
    # c4 touches the pool (d4); a2 and b1 touch Ann's bungalow.
    for square in ("c4", "a2", "b1"):
        assert refused(state, PlaceBungalow(square=square), seat=BEA) == "bungalow_too_close"
    # Diagonally next to it is not next to it.
    assert PlaceBungalow(square="b2") not in legal(state, BEA)  # a mystery token lies there
    assert PlaceBungalow(square="a3") in legal(state, BEA)
    assert refused(state, PlaceBungalow(square="d4"), seat=BEA) == "no_such_square"


def test_nothing_is_placed_on_a_mystery_token() -> None:
    state = table({"a1": B_ANN, "h8": B_BEA}, phase="trailers", revealed=False)
    assert refused(state, PlaceTrailer(square="b2")) == "square_taken"
    assert refused(state, PlaceTrailer(square="a1")) == "square_taken"


def test_a_trailer_placed_next_to_another_players_piece_gets_a_fence_between_them() -> None:
    state = table({"a1": B_ANN, "c1": B_BEA}, phase="trailers", revealed=False)
    # Ann's trailer on b1 touches her own bungalow (a1) and Bea's (c1).
    after, events = play(state, PlaceTrailer(square="b1"))
    assert events == [
        PiecePlaced(seat=ANN, piece=t(ANN, 1), square="b1"),
        FenceRaised(edge="b1-c1", seat=ANN, automatic=True),
    ]
    assert after.fences == ["b1-c1"]


def test_the_tokens_are_revealed_once_every_trailer_is_placed_and_seat_1_plays() -> None:
    camp = full_camp()
    del camp["f8"]  # Bea's sixth trailer is still to place
    state = table(camp, phase="trailers", player=BEA, revealed=False)
    after, events = play(state, PlaceTrailer(square="f8"), seat=BEA)
    assert events == [
        PiecePlaced(seat=BEA, piece=t(BEA, 6), square="f8"),
        TokensRevealed(squares=MYSTERY_SQUARES, tokens=(ICE1, ICE2, GUY)),
        TurnBegan(seat=ANN),
    ]
    assert GAME.hidden(after, BEA) == frozenset()
    assert [tok.token for tok in view(after, BEA).tokens] == [ICE1, GUY, ICE2]
    assert after.phase == "move" and after.movements_left == 2


# --- movements -------------------------------------------------------------------------------


def test_two_movements_are_shared_between_your_trailers_and_the_guy() -> None:
    state = table(full_camp())
    # One step for a trailer, one for the guy; then the fence.
    state, events = play(state, MovePiece(piece=t(ANN, 1), to="a4"))
    assert events == [PieceMoved(seat=ANN, piece=t(ANN, 1), start="a3", to="a4")]
    assert state.phase == "move" and state.movements_left == 1
    state, events = play(state, MovePiece(piece=GUY, to="c6"))
    assert events == [PieceMoved(seat=ANN, piece=GUY, start="c7", to="c6")]
    assert state.phase == "fence" and state.tokens["c6"] == GUY
    assert refused(state, MovePiece(piece=t(ANN, 1), to="a3")) == "not_moving_now"


def test_fewer_movements_may_be_used() -> None:
    state, events = play(table(full_camp()), StopMoving())
    assert events == [MovingStopped(seat=ANN)] and state.phase == "fence"


def test_bungalows_do_not_move_and_nobody_moves_anothers_trailer() -> None:
    state = table(full_camp())
    assert refused(state, MovePiece(piece=B_ANN, to="a2")) == "bungalows_stay"
    assert refused(state, MovePiece(piece=t(BEA, 1), to="h2")) == "not_your_piece"


def test_a_movement_is_one_step_across_no_fence_onto_an_empty_square() -> None:
    state = table(full_camp(), fences=["a3-a4"])
    assert refused(state, MovePiece(piece=t(ANN, 1), to="a5")) == "not_a_neighbour"
    assert refused(state, MovePiece(piece=t(ANN, 1), to="a4")) == "fence_in_the_way"
    crowded = table({"a1": B_ANN, "a2": t(ANN, 1), "b3": t(ANN, 2), "h8": B_BEA})
    assert refused(crowded, MovePiece(piece=t(ANN, 1), to="a1")) == "square_taken"
    assert refused(crowded, MovePiece(piece=t(ANN, 2), to="b2")) == "square_taken"  # a token
    assert MovePiece(piece=t(ANN, 6), to="c2") in legal(state, ANN)


def test_a_trailer_moved_next_to_an_opponents_piece_gets_fenced_off_but_the_guy_does_not() -> None:
    camp = {"a1": B_ANN, "b3": t(ANN, 1), "h8": B_BEA, "d2": t(BEA, 1)}
    state = table(camp, tokens={"c7": GUY, "g3": ICE1, "b6": ICE2})
    state, events = play(state, MovePiece(piece=t(ANN, 1), to="c3"))
    assert events == [PieceMoved(seat=ANN, piece=t(ANN, 1), start="b3", to="c3")]
    state, events = play(state, MovePiece(piece=t(ANN, 1), to="c2"))
    assert events[1] == FenceRaised(edge="c2-d2", seat=ANN, automatic=True)
    # The guy may stand next to anyone without a fence.
    state = table(camp, tokens={"c1": GUY, "g3": ICE1, "b6": ICE2})
    state, events = play(state, MovePiece(piece=GUY, to="d1"))
    assert events == [PieceMoved(seat=ANN, piece=GUY, start="c1", to="d1")]


# --- the fence -------------------------------------------------------------------------------


def test_a_fence_may_go_anywhere_on_the_ground() -> None:
    state = table(full_camp(), phase="fence")
    after, events = play(state, AddFence(edge="e2-f2"))
    assert events == [FenceRaised(edge="e2-f2", seat=ANN, automatic=False), TurnBegan(seat=BEA)]
    assert after.fences == ["e2-f2"]
    assert refused(after, AddFence(edge="e2-f2"), seat=BEA) == "not_fencing_now"
    assert refused(state, AddFence(edge="f2-e2")) == "no_such_edge"
    assert refused(table(full_camp(), phase="fence", fences=["e2-f2"]), AddFence(edge="e2-f2")) == (
        "fence_there"
    )


def test_a_fence_may_not_close_off_an_area_holding_no_camper() -> None:
    # a8 is empty; with a7-a8 fenced, a fence on a8-b8 would leave it alone.
    camp = full_camp()
    del camp["b8"]
    state = table(camp, phase="fence", fences=["a7-a8"])
    assert refused(state, AddFence(edge="a8-b8")) == "closes_off_nobody"
    # With one of Ann's trailers on a8, the same fence is fine.
    state = table({**camp, "a8": t(ANN, 4)}, phase="fence", fences=["a7-a8"])
    assert AddFence(edge="a8-b8") in legal(state, ANN)


def test_the_turns_fence_is_required_unless_the_table_makes_it_optional() -> None:
    state = table(full_camp(), phase="fence")
    assert refused(state, SkipFence()) == "fence_required"
    state = table(full_camp(), phase="fence", fence_optional=True)
    after, events = play(state, SkipFence())
    assert events == [FenceSkipped(seat=ANN), TurnBegan(seat=BEA)]


def test_while_the_game_is_on_some_fence_can_always_be_put() -> None:
    # Every side is fenced but d8-e8 and e8-f8: Ann's d8 and Bea's f8 still share a
    # section. Either side may take the fence: each part keeps a camper.
    camp = {"a1": B_ANN, "d8": t(ANN, 1), "h1": B_BEA, "f8": t(BEA, 1)}
    closed = [e for e in EDGES if e not in ("d8-e8", "e8-f8")]
    state = table(camp, phase="fence", fences=closed)
    assert legal(state, ANN) == [AddFence(edge="d8-e8"), AddFence(edge="e8-f8")]


# --- the end and the scoring -----------------------------------------------------------------


def test_the_game_ends_when_each_section_holds_only_one_players_pieces() -> None:
    state = table(full_camp(), phase="fence", fences=HALVES)
    after, events = play(state, AddFence(edge="d8-e8"))
    # Each half touches the pool: its 30 squares count twice. Ann's half holds the ice
    # cream of b2 and the guy (60 + 5 - 10); Bea's the ice cream of g3 (60 + 5).
    assert events[1:] == [
        AreaScored(seat=ANN, squares=30, by_the_pool=True, ice_creams=1, guy=True, points=55),
        AreaScored(seat=BEA, squares=30, by_the_pool=True, ice_creams=1, guy=False, points=65),
        GameEnded(scores=(55, 65)),
    ]
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.ranks == (2, 1)
    assert GAME.to_act(after) == frozenset()


def test_the_game_can_end_on_a_movement_that_raises_the_last_fence() -> None:
    # The halves are apart but for d8-e8; Bea's trailer stands on e8.
    camp = {"a1": B_ANN, "a3": t(ANN, 1), "d7": t(ANN, 2), "h8": B_BEA, "e8": t(BEA, 1)}
    state = table(camp, fences=HALVES)
    # Ann's trailer steps from d7 to d8, next to Bea's: the fence goes up, the game ends.
    after, events = play(state, MovePiece(piece=t(ANN, 2), to="d8"))
    assert events[1] == FenceRaised(edge="d8-e8", seat=ANN, automatic=True)
    assert isinstance(events[-1], GameEnded) and after.phase == "over"


def test_an_area_away_from_the_pool_counts_each_square_once_and_the_guy_never_below_zero() -> None:
    # Ann is shut in a1-b1 with the guy; Bea has all the rest.
    camp = {"a1": B_ANN, "h8": B_BEA}
    fences = ["a1-a2", "b1-b2", "b1-c1"]
    state = table(camp, fences=fences, tokens={"b1": GUY, "g3": ICE1, "c7": ICE2})
    assert scores(state) == (0, 58 * 2 + 10)


def test_equal_totals_share_the_rank() -> None:
    state = table(full_camp(), phase="over")
    state.scores = (40, 40)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 1)
