"""The Easy Peasy table: piles, rows and scores, with hands and deck grouped apart."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.games.easypeasy.cards import Arrow, Pile
from domain.kernel import Rejected, Seat, between
from domain.table import next_seat

Phase = Literal["dealing", "turn", "draw_play", "bonus", "round_over", "over"]
"""`turn`: choose an action; `draw_play`: play after drawing; `bonus`: after a colour match."""

Bonus = Literal["reveal", "flip"]


MAX_ROUNDS = 10


class Options(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    rounds: Annotated[int, between(1, MAX_ROUNDS)] = 3
    bonus: Bonus = "reveal"
    """The bonus besides a second card: reveal a face-down row card (current BGA help) or
    flip the Up&Down card (the seed page's revision)."""
    reveal_uncovered: bool = False
    """Turn a face-down row card up as soon as the card covering it is played."""


def check_options(options: Options, seats: int) -> None:
    if not 1 <= options.rounds <= MAX_ROUNDS:
        raise Rejected("bad_options", f"Play between 1 and {MAX_ROUNDS} rounds.")


class Stack(msgspec.Struct, frozen=True):
    """One stack of a row: `under` was dealt face down, `cover` face up over it."""

    cover: str | None
    under: str | None
    revealed: bool


class Secrets(msgspec.Struct):
    hands: list[list[str]]
    deck: list[str]  # top card last
    set_aside: list[str]  # the cards of players who left


class State(msgspec.Struct):
    seats: int
    rounds: int
    bonus: Bonus
    reveal_uncovered: bool
    phase: Phase
    round: int
    starter: Seat
    turn: Seat
    arrow: Arrow
    piles: list[list[str]]  # left then right, top card last
    rows: list[list[Stack]]  # face-down `under` cards are hidden until revealed
    bonus_pile: Pile | None
    out: list[bool]
    points: list[int]  # scored in the last round
    totals: list[int]
    secret: Secrets


def initial(options: Options, seats: int) -> State:
    return State(
        seats=seats,
        rounds=options.rounds,
        bonus=options.bonus,
        reveal_uncovered=options.reveal_uncovered,
        phase="dealing",
        round=0,
        starter=0,
        turn=0,
        arrow="up",
        piles=[[], []],
        rows=[[] for _ in range(seats)],
        bonus_pile=None,
        out=[False] * seats,
        points=[0] * seats,
        totals=[0] * seats,
        secret=Secrets(hands=[[] for _ in range(seats)], deck=[], set_aside=[]),
    )


def pile_index(pile: Pile) -> int:
    return 0 if pile == "left" else 1


def in_play(state: State) -> list[Seat]:
    return [seat for seat in range(state.seats) if not state.out[seat]]


def left_of(state: State, seat: Seat) -> Seat:
    """The next seat still in, clockwise."""
    return next_seat(seat, state.seats, lambda other: not state.out[other])


def playable_row_cards(row: list[Stack]) -> dict[str, int]:
    """The row cards that can be played, by stack: a cover, or a revealed card left bare."""
    out: dict[str, int] = {}
    for index, stack in enumerate(row):
        if stack.cover is not None:
            out[stack.cover] = index
        elif stack.under is not None and stack.revealed:
            out[stack.under] = index
    return out


def row_cards(row: list[Stack]) -> list[str]:
    """Every card still in a row, face up or down."""
    return [card for stack in row for card in (stack.cover, stack.under) if card is not None]
