"""The 3-13 rules: the deal, the turn (draw, maybe go out, discard), the end of a round.

`decide` checks a command and records its events on a `Turn` (the kernel's Recorder);
`evolve` folds one event. Turn order is worked out in `evolve` (by `table.next_turn`);
when a round is over `evolve` leaves the table in the short-lived "scoring" phase and
`decide` adds the `RoundScored` event.
"""

from __future__ import annotations

import msgspec

from domain.kernel import Recorder, Rejected, Rng, Seat
from domain.table import top_cards, under_the_tops

from .cards import DECK, CardId, hand_size_of, label, wild_rank_of
from .commands import Command, DealRound, Discard, DrawFromDeck, GoOut, TakeDiscard
from .events import (
    CardDiscarded,
    CardDrawn,
    DiscardTaken,
    Event,
    PlayerConceded,
    RoundDealt,
    RoundScored,
    StockReshuffled,
    WentOut,
)
from .melds import best_melding, going_out_discards, hand_melds_fully
from .scoring import score_round
from .state import Options, State
from .table import active, dealer, next_starter, next_turn

Turn = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

# --- setup ---------------------------------------------------------------------------------


def initial(options: Options, seats: int) -> State:
    return State(
        seats=seats,
        options=options,
        hands=[[] for _ in range(seats)],
        known=[[] for _ in range(seats)],
        totals=[0] * seats,
    )


def start(state: State, rng: Rng) -> Turn:
    """Rule (seed 002, Setup): the first round's starting player is chosen at random."""
    turn = Turn(state, evolve)
    turn.record(deal(state, state.options.first_round, rng.below(state.seats), rng))
    return turn


def deal(state: State, round_number: int, starter: Seat, rng: Rng) -> RoundDealt:
    """Shuffle all 108 cards, deal round + 2 to each player, turn one card face up."""
    cards = rng.shuffled(DECK)
    size = hand_size_of(round_number)
    hands: list[tuple[CardId, ...]] = []
    for seat in range(state.seats):
        if seat in state.conceded:
            hands.append(())
        else:
            hands.append(tuple(cards[:size]))
            del cards[:size]
    top = cards.pop()
    return RoundDealt(
        round=round_number,
        starter=starter,
        hands=tuple(hands),
        discard=top,
        stock=tuple(cards),
        stock_size=len(cards),
    )


# --- who acts, and what they may do --------------------------------------------------------


def to_act(state: State) -> frozenset[Seat]:
    if state.phase in ("draw", "discard"):
        return frozenset({state.turn})
    if state.phase == "round_over":
        return frozenset({dealer(state)})
    return frozenset()


def legal(state: State, seat: Seat) -> list[Command]:
    if seat not in to_act(state):
        return []
    if state.phase == "round_over":
        return [DealRound()]
    if state.phase == "draw":
        out: list[Command] = []
        if can_draw_from_deck(state):
            out.append(DrawFromDeck())
        if state.discard:
            out.append(TakeDiscard())
        return out
    hand = state.hands[seat]
    moves: list[Command] = [Discard(card=c) for c in hand]
    if state.went_out is None:
        wild_rank = wild_rank_of(state.round)
        fits = going_out_discards(hand, wild_rank, state.options.wild_melds)
        moves += [GoOut(discard=c) for c in fits]
    return moves


def can_draw_from_deck(state: State) -> bool:
    """The draw pile has a card, or can be rebuilt from the discard pile below its top."""
    if state.stock:
        return True
    return state.options.empty_stock == "reshuffle" and len(state.discard) > 1


# --- decide ----------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    _in_play(state)
    if seat not in to_act(state):
        raise Rejected("not_your_turn", f"It is not seat {seat + 1}'s turn.")
    if state.phase == "round_over" and not isinstance(command, DealRound):
        raise Rejected(
            "round_over", f"Round {state.round} is over; the dealer deals the next round."
        )
    match command:
        case DealRound():
            return deal_round(state, rng)
        case DrawFromDeck():
            return draw_from_deck(state, seat, rng)
        case TakeDiscard():
            return take_discard(state, seat)
        case Discard(card=card):
            return discard(state, seat, card)
        case GoOut(discard=card):
            return go_out(state, seat, card)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a 3-13 move.")


def _in_play(state: State) -> None:
    if state.phase == "game_over":
        raise Rejected("game_over", "The eleventh round has been scored; the game is over.")
    if state.phase in ("dealing", "scoring"):
        raise Rejected("not_dealt", "No round is in play at the moment.")


def deal_round(state: State, rng: Rng) -> Turn:
    if state.phase != "round_over":
        raise Rejected("round_in_play", f"Round {state.round} is still being played.")
    turn = Turn(state, evolve)
    turn.record(deal(state, state.round + 1, next_starter(state), rng))
    return turn


def draw_from_deck(state: State, seat: Seat, rng: Rng) -> Turn:
    """Rule (seed 002, Turn): draw one card from the draw pile or the discard pile.

    ASSUMPTION (facts file): an empty draw pile is rebuilt from the discard pile, all but
    its top card, shuffled.
    """
    _must_draw(state)
    if not can_draw_from_deck(state):
        raise Rejected("draw_pile_empty", "The draw pile is empty; take the discard instead.")
    turn = Turn(state, evolve)
    if not state.stock:
        rebuilt = tuple(rng.shuffled(under_the_tops([state.discard])))
        turn.record(StockReshuffled(cards=rebuilt, size=len(rebuilt)))
    turn.record(CardDrawn(seat=seat, card=top_cards(turn.state.stock, 1)[0]))
    return turn


def take_discard(state: State, seat: Seat) -> Turn:
    _must_draw(state)
    if not state.discard:
        raise Rejected("discard_pile_empty", "The discard pile is empty; draw from the pile.")
    turn = Turn(state, evolve)
    turn.record(DiscardTaken(seat=seat, card=state.discard[-1]))
    return turn


def _must_draw(state: State) -> None:
    if state.phase != "draw":
        raise Rejected("already_drawn", "You have drawn this turn; now discard or go out.")


def discard(state: State, seat: Seat, card: CardId) -> Turn:
    """Rule (seed 002, Turn): a turn ends with one card face up on the discard pile."""
    _must_have_drawn(state, seat, card)
    return _then_score_if_over(state, CardDiscarded(seat=seat, card=card))


def go_out(state: State, seat: Seat, card: CardId) -> Turn:
    """Rule (seed 002, Going Out): lay down the entire hand in melds and discard one card.

    ASSUMPTION: once someone has gone out, the others' final turns are plain turns; their
    hands are counted with the best arrangement anyway, so a fully melded hand scores 0.
    """
    _must_have_drawn(state, seat, card)
    if state.went_out is not None:
        raise Rejected(
            "someone_went_out",
            f"Seat {state.went_out + 1} has already gone out; this is your final turn, "
            "so discard and your hand will be counted.",
        )
    rest = list(state.hands[seat])
    rest.remove(card)
    wild_rank = wild_rank_of(state.round)
    if not hand_melds_fully(rest, wild_rank, state.options.wild_melds):
        raise Rejected(
            "hand_not_melded",
            f"Without the {label(card)} your hand does not form complete sets and runs.",
        )
    melds = best_melding(rest, wild_rank, state.options.wild_melds).melds
    return _then_score_if_over(state, WentOut(seat=seat, discard=card, melds=melds))


def _must_have_drawn(state: State, seat: Seat, card: CardId) -> None:
    if state.phase != "discard":
        raise Rejected("draw_first", "Draw a card first, from the draw pile or the discard pile.")
    if card not in state.hands[seat]:
        raise Rejected("card_not_in_hand", f"{card!r} is not a card in your hand.")


def _then_score_if_over(state: State, event: Event) -> Turn:
    """The event; then, if it ended the round, the round's score."""
    turn = Turn(state, evolve)
    turn.record(event)
    if turn.state.phase == "scoring":
        turn.record(score_round(turn.state))
    return turn


def concede(state: State, seat: Seat, rng: Rng) -> Turn | None:
    """The seat's turns are skipped from now on; with one player left the game cannot go on."""
    if len(active(state)) <= 2 or seat in state.conceded:
        return None
    return _then_score_if_over(state, PlayerConceded(seat=seat))


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    match event:
        case RoundDealt():
            return _round_dealt(state, event)
        case StockReshuffled(cards=cards):
            assert cards is not None
            return msgspec.structs.replace(
                state,
                stock=list(cards),
                discard=state.discard[-1:],
            )
        case CardDrawn(seat=seat, card=card):
            assert card is not None
            hands = _row(state.hands, seat, [*state.hands[seat], card])
            return msgspec.structs.replace(
                state, hands=hands, stock=state.stock[:-1], phase="discard"
            )
        case DiscardTaken(seat=seat, card=card):
            hands = _row(state.hands, seat, [*state.hands[seat], card])
            known = _row(state.known, seat, [*state.known[seat], card])
            return msgspec.structs.replace(
                state, hands=hands, known=known, discard=state.discard[:-1], phase="discard"
            )
        case CardDiscarded(seat=seat, card=card):
            return _pass_turn(_played(state, seat, card), seat)
        case WentOut(seat=seat, discard=card, melds=melds):
            played = _played(state, seat, card)
            out = msgspec.structs.replace(
                played,
                went_out=seat,
                laid_down=[list(m) for m in melds],
                hands=_row(played.hands, seat, []),
                known=_row(played.known, seat, []),
            )
            return _pass_turn(out, seat)
        case RoundScored(round=number, hands=scored, totals=totals):
            points: list[int | None] = [None] * state.seats
            for hand in scored:
                points[hand.seat] = hand.points
            return msgspec.structs.replace(
                state,
                phase="game_over" if number >= state.options.last_round else "round_over",
                totals=list(totals),
                round_points=[*state.round_points, points],
                result=list(scored),
            )
        case PlayerConceded(seat=seat):
            out = msgspec.structs.replace(state, conceded=[*state.conceded, seat])
            if state.phase in ("draw", "discard") and state.turn == seat:
                return _pass_turn(out, seat)
            return out
        case _:
            raise TypeError(f"not a 3-13 event: {event!r}")


def _round_dealt(state: State, event: RoundDealt) -> State:
    assert event.stock is not None
    return msgspec.structs.replace(
        state,
        phase="draw",
        round=event.round,
        starter=event.starter,
        turn=event.starter,
        hands=[list(h or ()) for h in event.hands],
        known=[[] for _ in range(state.seats)],
        stock=list(event.stock),
        discard=[event.discard],
        went_out=None,
        laid_down=[],
        result=[],
    )


def _row(rows: list[list[CardId]], seat: Seat, cards: list[CardId]) -> list[list[CardId]]:
    """A copy of per-seat `rows` with the seat's row replaced (the others shared)."""
    return [cards if s == seat else row for s, row in enumerate(rows)]


def _played(state: State, seat: Seat, card: CardId) -> State:
    """`card` leaves the seat's hand for the top of the discard pile."""
    hand = list(state.hands[seat])
    hand.remove(card)
    known = [c for c in state.known[seat] if c != card]
    return msgspec.structs.replace(
        state,
        hands=_row(state.hands, seat, hand),
        known=_row(state.known, seat, known),
        discard=[*state.discard, card],
    )


def _pass_turn(state: State, seat: Seat) -> State:
    """The turn goes left; the round is over when it comes back to whoever went out, or
    (variant `empty_stock="end_round"`) when the draw pile is empty."""
    following = next_turn(state, seat)
    stock_out = state.options.empty_stock == "end_round" and not state.stock
    if following is None or stock_out:
        return msgspec.structs.replace(state, phase="scoring")
    return msgspec.structs.replace(state, phase="draw", turn=following)
