"""A Deluxe Camping game: place the camp, then each turn up to two movements and a fence,
until every section of the ground holds only one player's pieces.

Sources: the seed page (seed 002 line 547, "Gamehelpdeluxecamping", 2026-06-15) and
rules-batch2.md section 11.
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from domain.games.deluxecamping.areas import areas, closes_off_nobody, everyone_apart, scores
from domain.games.deluxecamping.board import (
    BY_THE_POOL,
    EDGES,
    GUY,
    MOVEMENTS,
    MYSTERY_SQUARES,
    NEIGHBOURS,
    SQUARES,
    TOKENS,
    TRAILERS,
    Edge,
    PieceId,
    Square,
    bungalow,
    edge,
    owner_of,
    trailer,
)
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
from domain.games.deluxecamping.state import DeluxeCampingOptions, Table
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_scores

Turn = Recorder[Table, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

# --- reading the table -----------------------------------------------------------------------


def square_of(state: Table, piece: PieceId) -> Square | None:
    for square, there in state.pieces.items():
        if there == piece:
            return square
    for square, there in state.tokens.items():
        if there == piece and state.revealed:
            return square
    return None


def empty(state: Table, square: Square) -> bool:
    """Nothing stands there: no piece, no token (face down or not); the pool is no square."""
    return square in NEIGHBOURS and square not in state.pieces and square not in state.tokens


def bungalow_allowed(state: Table, square: Square) -> bool:
    """Rule: a bungalow may not be placed next to the pool or next to another bungalow."""
    if not empty(state, square) or square in BY_THE_POOL:
        return False
    return not any(
        n in state.pieces and state.pieces[n].endswith("-bungalow") for n in NEIGHBOURS[square]
    )


def trailers_placed(state: Table, seat: Seat) -> int:
    return sum(1 for p in state.pieces.values() if owner_of(p) == seat and "trailer" in p)


def steps(state: Table, square: Square) -> list[Square]:
    """Assumption: one movement is one step to an empty neighbour, across no fence."""
    fenced = set(state.fences)
    return [n for n in NEIGHBOURS[square] if empty(state, n) and edge(square, n) not in fenced]


def movable(state: Table, seat: Seat) -> list[PieceId]:
    """Rule: movements go to your trailers or the pain-in-the-neck guy; bungalows stay."""
    mine = sorted(p for p in state.pieces.values() if owner_of(p) == seat and "trailer" in p)
    return [*mine, GUY] if state.revealed else mine


def auto_fences(state: Table, seat: Seat, square: Square) -> list[Edge]:
    """Rule: a trailer next to another player's piece gets a fence between the two."""
    fenced = set(state.fences)
    return [
        edge(square, n)
        for n in NEIGHBOURS[square]
        if n in state.pieces and owner_of(state.pieces[n]) != seat and edge(square, n) not in fenced
    ]


def fence_sides(state: Table) -> list[Edge]:
    """Every side where the turn's fence may go. While some section holds two players'
    pieces there is always one: a side on a loop of that section cuts nothing off, and in
    a section without loops every side between the two players' pieces leaves a camper on
    either part."""
    fenced = set(state.fences)
    return [e for e in EDGES if e not in fenced and not closes_off_nobody(state, e)]


# --- setup -----------------------------------------------------------------------------------


def initial(options: DeluxeCampingOptions, seats: int) -> Table:
    """The empty ground."""
    return Table(seats=seats, options=options)


def start(state: Table, rng: Rng) -> Turn:
    """The mystery tokens go face down on the marked squares; seat 1 places first."""
    turn = Turn(state, evolve)
    left, laid = list(TOKENS), []
    for _ in MYSTERY_SQUARES:  # one random token for each marked square, in order
        laid.append(rng.choice(left))
        left.remove(laid[-1])
    turn.record(TokensLaid(squares=MYSTERY_SQUARES, tokens=tuple(laid)))
    return turn


# --- decide ----------------------------------------------------------------------------------


def decide(state: Table, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "Every section holds one player's pieces: the game is over.")
    if state.phase == "setup":
        raise Rejected("not_started", "The mystery tokens are not laid yet.")
    if seat != state.player:
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn.")
    match command:
        case PlaceBungalow(square=square):
            return place_bungalow(state, seat, square)
        case PlaceTrailer(square=square):
            return place_trailer(state, seat, square)
        case MovePiece(piece=piece, to=to):
            return move_piece(state, seat, piece, to)
        case StopMoving():
            return stop_moving(state, seat)
        case AddFence(edge=side):
            return add_fence(state, seat, side)
        case SkipFence():
            return skip_fence(state, seat)
        case _:
            raise Rejected(
                "unknown_command", f"{type(command).__name__} is not a Deluxe Camping move."
            )


def an_empty_square(state: Table, square: Square) -> None:
    if square not in NEIGHBOURS:
        raise Rejected("no_such_square", f"{square!r} is not a square of the ground (a1-h8).")
    if not empty(state, square):
        raise Rejected("square_taken", f"Something already stands on {square}.")


def place_bungalow(state: Table, seat: Seat, square: Square) -> Turn:
    """Rule: players in turn first place their bungalow."""
    if state.phase != "bungalows":
        raise Rejected("not_placing_bungalows", "Bungalows are placed first, once each.")
    an_empty_square(state, square)
    if not bungalow_allowed(state, square):
        raise Rejected(
            "bungalow_too_close",
            f"A bungalow may not stand next to the pool or another bungalow ({square}).",
        )
    turn = Turn(state, evolve)
    turn.record(PiecePlaced(seat=seat, piece=bungalow(seat), square=square))
    return turn


def place_trailer(state: Table, seat: Seat, square: Square) -> Turn:
    """Rule: then, in turn, their six trailers; next to another player's piece, a fence."""
    if state.phase != "trailers":
        raise Rejected("not_placing_trailers", "Trailers are placed after every bungalow.")
    an_empty_square(state, square)
    turn = Turn(state, evolve)
    piece = trailer(seat, trailers_placed(state, seat) + 1)
    turn.record(PiecePlaced(seat=seat, piece=piece, square=square))
    for side in auto_fences(state, seat, square):
        turn.record(FenceRaised(edge=side, seat=seat, automatic=True))
    if turn.state.phase == "move":  # every trailer is placed
        turn.record(TokensRevealed(squares=MYSTERY_SQUARES, tokens=tokens_laid(state)))
        if not game_over(turn):
            turn.record(TurnBegan(seat=0))
    return turn


def tokens_laid(state: Table) -> tuple[PieceId, ...]:
    return tuple(state.tokens[s] for s in MYSTERY_SQUARES)


def move_piece(state: Table, seat: Seat, piece: PieceId, to: Square) -> Turn:
    """Rule: two movements a turn, shared between your trailers and the guy."""
    if state.phase != "move":
        raise Rejected("not_moving_now", "Movements come first in a turn, after the setup.")
    if piece not in movable(state, seat):
        if piece.endswith("-bungalow"):
            raise Rejected("bungalows_stay", "Bungalows do not move.")
        raise Rejected("not_your_piece", f"You may move your trailers or the guy, not {piece}.")
    start_square = square_of(state, piece)
    assert start_square is not None
    if to not in NEIGHBOURS[start_square]:
        raise Rejected("not_a_neighbour", f"{to} is not next to {start_square}.")
    if edge(start_square, to) in state.fences:
        raise Rejected("fence_in_the_way", f"A fence stands between {start_square} and {to}.")
    if not empty(state, to):
        raise Rejected("square_taken", f"Something already stands on {to}.")
    turn = Turn(state, evolve)
    turn.record(PieceMoved(seat=seat, piece=piece, start=start_square, to=to))
    if piece != GUY:
        # Rule: moved next to an opponent's bungalow or trailer, a fence goes up.
        for side in auto_fences(turn.state, seat, to):
            turn.record(FenceRaised(edge=side, seat=seat, automatic=True))
    if game_over(turn):
        return turn
    return turn


def stop_moving(state: Table, seat: Seat) -> Turn:
    """ASSUMPTION: the two movements are at most two; a player may use fewer."""
    if state.phase != "move":
        raise Rejected("not_moving_now", "There is no movement to stop now.")
    turn = Turn(state, evolve)
    turn.record(MovingStopped(seat=seat))
    return turn


def add_fence(state: Table, seat: Seat, side: Edge) -> Turn:
    """Rule: add a fence anywhere, but not one that closes off an area with no camper."""
    if state.phase != "fence":
        raise Rejected("not_fencing_now", "The fence comes after the movements.")
    if side not in EDGES:
        raise Rejected(
            "no_such_edge", f"{side!r} is no side between two squares; name it like c3-c4."
        )
    if side in state.fences:
        raise Rejected("fence_there", f"A fence already stands on {side}.")
    if closes_off_nobody(state, side):
        raise Rejected("closes_off_nobody", f"A fence on {side} would close off an empty area.")
    turn = Turn(state, evolve)
    turn.record(FenceRaised(edge=side, seat=seat, automatic=False))
    if not game_over(turn):
        next_turn(turn, seat)
    return turn


def skip_fence(state: Table, seat: Seat) -> Turn:
    if state.phase != "fence":
        raise Rejected("not_fencing_now", "The fence comes after the movements.")
    if not state.options.fence_optional:
        raise Rejected("fence_required", "At this table every turn adds a fence.")
    turn = Turn(state, evolve)
    turn.record(FenceSkipped(seat=seat))
    next_turn(turn, seat)
    return turn


def next_turn(turn: Turn, seat: Seat) -> None:
    turn.record(TurnBegan(seat=(seat + 1) % turn.state.seats))


def game_over(turn: Turn) -> bool:
    """Rule: once each section holds one player's pieces only, the areas are scored.
    ASSUMPTION: checked from the reveal on, after every movement and every fence."""
    state = turn.state
    if not everyone_apart(state):
        return False
    for area in areas(state):
        turn.record(
            AreaScored(
                seat=area.seat,
                squares=area.squares,
                by_the_pool=area.by_the_pool,
                ice_creams=area.ice_creams,
                guy=area.guy,
                points=area.points,
            )
        )
    turn.record(GameEnded(scores=scores(state)))
    return True


def outcome(state: Table) -> Outcome | None:
    """The most points wins; equal points share the rank."""
    if state.phase != "over" or state.scores is None:
        return None
    return Outcome(scores=state.scores, ranks=ranks_from_scores(state.scores))


# --- legal -----------------------------------------------------------------------------------


def legal(state: Table, seat: Seat) -> list[Command]:
    return list(moves(state, seat))


def moves(state: Table, seat: Seat) -> Iterator[Command]:
    """Every command `seat` may send now."""
    if state.phase in ("setup", "over") or seat != state.player:
        return
    if state.phase == "bungalows":
        for square in SQUARES:
            if bungalow_allowed(state, square):
                yield PlaceBungalow(square=square)
    elif state.phase == "trailers":
        for square in SQUARES:
            if empty(state, square):
                yield PlaceTrailer(square=square)
    elif state.phase == "move":
        for piece in movable(state, seat):
            at = square_of(state, piece)
            assert at is not None
            for to in steps(state, at):
                yield MovePiece(piece=piece, to=to)
        yield StopMoving()
    elif state.phase == "fence":
        for side in fence_sides(state):
            yield AddFence(edge=side)
        if state.options.fence_optional:
            yield SkipFence()


def to_act(state: Table) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: Table, event: Event) -> Table:
    replace = msgspec.structs.replace
    match event:
        case TokensLaid(squares=squares, tokens=tokens) if tokens is not None:
            laid = dict(zip(squares, tokens, strict=True))
            return replace(state, phase="bungalows", player=0, tokens=laid)
        case PiecePlaced(seat=seat, piece=piece, square=square):
            after = replace(state, pieces={**state.pieces, square: piece})
            return _after_placing(after, seat)
        case FenceRaised(edge=side):
            return replace(state, fences=sorted({*state.fences, side}))
        case TokensRevealed():
            return replace(state, revealed=True)
        case TurnBegan(seat=seat):
            return replace(state, phase="move", player=seat, movements_left=MOVEMENTS)
        case PieceMoved(piece=piece, start=start_square, to=to):
            pieces, on_ground = dict(state.pieces), dict(state.tokens)
            where = pieces if start_square in pieces else on_ground
            del where[start_square]
            where[to] = piece
            left = state.movements_left - 1
            return replace(
                state,
                pieces=pieces,
                tokens=on_ground,
                movements_left=left,
                phase="fence" if left == 0 else "move",
            )
        case MovingStopped():
            return replace(state, phase="fence", movements_left=0)
        case FenceSkipped() | AreaScored():
            return state
        case GameEnded(scores=final):
            return replace(state, phase="over", scores=final)
        case _:
            raise TypeError(f"not a Deluxe Camping event (or a redacted one): {event!r}")


def _after_placing(state: Table, seat: Seat) -> Table:
    """Setup order (ASSUMPTION): every bungalow in seat order, then the trailers one at a
    time in seat order, six rounds; then the first turn."""
    replace = msgspec.structs.replace
    last = state.seats - 1
    if state.phase == "bungalows":
        if seat < last:
            return replace(state, player=seat + 1)
        return replace(state, phase="trailers", player=0)
    if seat < last:
        return replace(state, player=seat + 1)
    if trailers_placed(state, last) < TRAILERS:
        return replace(state, player=0)
    return replace(state, phase="move", player=0, movements_left=MOVEMENTS)
