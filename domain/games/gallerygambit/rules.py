"""A Gallery Gambit turn: take a card (a face-up one, or gamble on the deck), then hang
one card from your hand on a wall. The game ends when every gallery is full.

The page (seed 002, "Gamehelpgallerygambit") gives only the scoring (scoring.py); the
rest is house-made (README).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

import msgspec

from domain.games.gallerygambit.cards import CARDS, HAND_SIZE, MARKET_SIZE, WALLS, CardId
from domain.games.gallerygambit.commands import Command, HangCard, TakeCard
from domain.games.gallerygambit.events import (
    CardHung,
    CardTaken,
    Event,
    GameEnded,
    HandDealt,
    MarketFilled,
    PlayerConceded,
    TurnBegan,
)
from domain.games.gallerygambit.scoring import score_sheet
from domain.games.gallerygambit.state import Table
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import next_seat

Turn = Recorder[Table, Event]
T = TypeVar("T")

# --- reading the table -----------------------------------------------------------------------


def is_active(state: Table, seat: Seat) -> bool:
    return seat not in state.conceded


def free_walls(state: Table, seat: Seat) -> list[int]:
    return [w for w, size in enumerate(WALLS) if len(state.walls[seat][w]) < size]


def gallery_full(state: Table, seat: Seat) -> bool:
    return not free_walls(state, seat)


def hung_value(state: Table, seat: Seat) -> int:
    """The sum of the numbers of the paintings in the seat's gallery (the tie-break)."""
    return sum(CARDS[c].number for wall in state.walls[seat] for c in wall)


def something_to_take(state: Table) -> bool:
    return bool(state.market or state.deck)


# --- setup -----------------------------------------------------------------------------------


def start(state: Table, rng: Rng) -> Turn:
    """House: deal 2 cards to each hand, lay 4 face up; seat 1 begins."""
    turn = Turn(state, evolve)
    for seat in range(state.seats):
        dealt = rng.sample(turn.state.deck, HAND_SIZE)
        turn.record(HandDealt(seat=seat, cards=tuple(sorted(dealt))))
    refill_market(turn, rng)
    turn.record(TurnBegan(seat=0, take=something_to_take(turn.state)))
    return turn


def refill_market(turn: Turn, rng: Rng) -> None:
    while len(turn.state.market) < MARKET_SIZE and turn.state.deck:
        turn.record(MarketFilled(card=rng.choice(turn.state.deck)))


# --- decide ----------------------------------------------------------------------------------


def decide(state: Table, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "Every gallery is full; the game is over.")
    if state.phase == "setup":
        raise Rejected("not_started", "The cards are not dealt yet.")
    if seat != state.player or not is_active(state, seat):
        raise Rejected("not_your_turn", f"It is seat {state.player + 1}'s turn.")
    match command:
        case TakeCard(card=card):
            return take_card(state, seat, card, rng)
        case HangCard(card=card, wall=wall):
            return hang_card(state, seat, card, wall)
        case _:
            raise Rejected(
                "unknown_command", f"{type(command).__name__} is no Gallery Gambit move."
            )


def take_card(state: Table, seat: Seat, card: CardId | None, rng: Rng) -> Turn:
    """House: take one face-up card, or gamble on the deck's top card, into your hand."""
    if state.phase != "take":
        raise Rejected("already_taken", "You have taken your card this turn; hang one now.")
    turn = Turn(state, evolve)
    if card is None:
        if not state.deck:
            raise Rejected("deck_empty", "The deck is empty; take a face-up card.")
        turn.record(CardTaken(seat=seat, card=rng.choice(state.deck), from_deck=True))
        return turn
    if card not in state.market:
        raise Rejected("card_not_on_offer", f"{card} is not among the face-up cards.")
    turn.record(CardTaken(seat=seat, card=card, from_deck=False))
    refill_market(turn, rng)
    return turn


def hang_card(state: Table, seat: Seat, card: CardId, wall: int) -> Turn:
    """House: hang one card from your hand on a wall with a free space; the turn ends."""
    if state.phase != "hang":
        raise Rejected("take_first", "Take a card first, then hang one.")
    if card not in state.hands[seat]:
        raise Rejected("card_not_in_hand", f"{card} is not in your hand.")
    if not 0 <= wall < len(WALLS):
        raise Rejected("no_such_wall", f"Your gallery has walls 0 to {len(WALLS) - 1}.")
    if wall not in free_walls(state, seat):
        raise Rejected("wall_full", f"Wall {wall + 1} already holds {WALLS[wall]} paintings.")
    turn = Turn(state, evolve)
    turn.record(CardHung(seat=seat, card=card, wall=wall))
    after_turn(turn, seat)
    return turn


def has_room(state: Table, seat: Seat) -> bool:
    return is_active(state, seat) and not gallery_full(state, seat)


def after_turn(turn: Turn, seat: Seat) -> None:
    """The next player with room takes the turn; when every gallery is full, score."""
    state = turn.state
    nxt = next_seat(seat, state.seats, lambda s: has_room(state, s))
    if has_room(state, nxt):
        turn.record(TurnBegan(seat=nxt, take=something_to_take(state)))
        return
    turn.record(
        GameEnded(sheets=tuple(score_sheet(w, state.options.first_line) for w in state.walls))
    )


def concede(state: Table, seat: Seat, rng: Rng) -> Turn | None:
    """The seat leaves (its hand leaves the game); with one player left the match ends."""
    others = [s for s in range(state.seats) if s != seat and is_active(state, s)]
    if len(others) < 2 or state.phase in ("over", "setup"):
        return None
    turn = Turn(state, evolve)
    turn.record(PlayerConceded(seat=seat))
    if seat == state.player:
        after_turn(turn, seat)
    return turn


def outcome(state: Table) -> Outcome | None:
    """Highest total wins; house: equal totals go to the higher sum of numbers hung, then
    share the rank; a seat that left ranks below."""
    if state.phase != "over":
        return None
    scores = tuple(sheet.total for sheet in state.sheets)
    keys = [(int(is_active(state, s)), scores[s], hung_value(state, s)) for s in range(state.seats)]
    return Outcome(scores=scores, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def legal(state: Table, seat: Seat) -> Iterator[Command]:
    if state.phase in ("setup", "over") or seat != state.player or not is_active(state, seat):
        return
    if state.phase == "take":
        for card in sorted(state.market):
            yield TakeCard(card=card)
        if state.deck:
            yield TakeCard(card=None)
        return
    for card in state.hands[seat]:
        for wall in free_walls(state, seat):
            yield HangCard(card=card, wall=wall)


def to_act(state: Table) -> frozenset[Seat]:
    if state.phase in ("setup", "over"):
        return frozenset()
    return frozenset({state.player})


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: Table, event: Event) -> Table:
    replace = msgspec.structs.replace
    match event:
        case HandDealt(seat=seat, cards=cards):
            dealt = [c for c in cards if c is not None]
            hands = _with(state.hands, seat, [*state.hands[seat], *dealt])
            return replace(state, hands=hands, deck=[c for c in state.deck if c not in dealt])
        case MarketFilled(card=card):
            return replace(
                state, market=[*state.market, card], deck=[c for c in state.deck if c != card]
            )
        case TurnBegan(seat=seat, take=take):
            return replace(state, player=seat, phase="take" if take else "hang")
        case CardTaken(seat=seat, card=card, from_deck=from_deck):
            assert card is not None, "the state folds unredacted events"
            return replace(
                state,
                seen=state.seen if from_deck else sorted([*state.seen, card]),
                hands=_with(state.hands, seat, [*state.hands[seat], card]),
                market=[c for c in state.market if c != card],
                deck=[c for c in state.deck if c != card],
                phase="hang",
            )
        case CardHung(seat=seat, card=card, wall=wall):
            walls = [list(w) for w in state.walls[seat]]
            walls[wall].append(card)
            return replace(
                state,
                hands=_with(state.hands, seat, [c for c in state.hands[seat] if c != card]),
                walls=_with(state.walls, seat, walls),
                seen=[c for c in state.seen if c != card],
            )
        case PlayerConceded(seat=seat):
            return replace(
                state,
                conceded=sorted({*state.conceded, seat}),
                hands=_with(state.hands, seat, []),
                seen=[c for c in state.seen if c not in state.hands[seat]],
            )
        case GameEnded(sheets=sheets):
            return replace(state, phase="over", sheets=list(sheets))
        case _:
            raise TypeError(f"not a Gallery Gambit event: {event!r}")


def _with(rows: list[T], seat: Seat, row: T) -> list[T]:
    return [row if s == seat else r for s, r in enumerate(rows)]
