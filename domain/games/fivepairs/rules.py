"""The Five Pairs rules: the deal, the turn (pair, or draw two and discard one), the end
of a turn (draw back up to two, who plays next) and the end of a round.

`decide` checks a command and records events, folding them as it goes (the kernel's
`Recorder`) so that the end of the turn is worked out on the table as it then stands.
`evolve` folds one event.
"""

from __future__ import annotations

from typing import Literal, TypeVar

import msgspec

from domain.kernel import Recorder, Rejected, Rng, Seat
from domain.table import top_cards

from .cards import (
    COMMON_AREA_START,
    DECK,
    DRAW_COUNT,
    EXTRA_TURN_NUMBER,
    HAND_SIZE,
    ROUND_PAIRS,
    TOKEN_PAIRS,
    CardId,
    colour_of,
    label,
    number_of,
)
from .commands import Command, DealRound, Discard, DrawTwo, MakePair
from .events import (
    CardDiscarded,
    CardsDrawn,
    Event,
    PairMade,
    PlayerConceded,
    RoundDealt,
    RoundScored,
    TokenFlipped,
    TokenTaken,
    TurnBegan,
)
from .scoring import game_ends, pair_points, score_round
from .state import Options, State
from .table import active, dealer, left_of, next_starter

T = TypeVar("T")

Turn = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""

# --- setup ---------------------------------------------------------------------------------


def initial(options: Options, seats: int) -> State:
    return State(
        seats=seats,
        options=options,
        hands=[[] for _ in range(seats)],
        pairs=[[] for _ in range(seats)],
        round_points=[0] * seats,
        totals=[0] * seats,
    )


def start(state: State, rng: Rng) -> Turn:
    """ASSUMPTION: the first round's starting player is drawn at random."""
    turn = Turn(state, evolve)
    turn.record(deal(state, 1, rng.below(state.seats), rng))
    return turn


def deal(state: State, round_number: int, starter: Seat, rng: Rng) -> RoundDealt:
    """Shuffle the whole deck, deal two cards to each player and five to the common area."""
    cards = rng.shuffled(DECK)
    hands: list[tuple[CardId, ...]] = []
    for seat in range(state.seats):
        if seat in state.conceded:
            hands.append(())
        else:
            hands.append(tuple(cards[:HAND_SIZE]))
            del cards[:HAND_SIZE]
    common = tuple(cards[:COMMON_AREA_START])
    del cards[:COMMON_AREA_START]
    return RoundDealt(
        round=round_number,
        starter=starter,
        hands=tuple(hands),
        common=common,
        deck=tuple(cards),
        deck_size=len(cards),
    )


# --- who acts, and what they may do --------------------------------------------------------


def to_act(state: State) -> frozenset[Seat]:
    if state.phase in ("play", "discard"):
        return frozenset({state.turn})
    if state.phase == "round_over":
        return frozenset({dealer(state)})
    return frozenset()


def legal(state: State, seat: Seat) -> list[Command]:
    if seat not in to_act(state):
        return []
    if state.phase == "round_over":
        return [DealRound()]
    if state.phase == "discard":
        return [Discard(card=c) for c in discardable(state, seat)]
    moves: list[Command] = [
        MakePair(hand_card=h, common_card=c)
        for h in state.hands[seat]
        for c in state.common
        if matches(h, c)
    ]
    if state.deck:
        moves.append(DrawTwo())
    return moves


def matches(hand_card: CardId, common_card: CardId) -> bool:
    """Rule (seed 002, Game Play): a pair matches by number or by colour."""
    return number_of(hand_card) == number_of(common_card) or colour_of(hand_card) == colour_of(
        common_card
    )


def can_pair(state: State, seat: Seat) -> bool:
    return any(matches(h, c) for h in state.hands[seat] for c in state.common)


def discardable(state: State, seat: Seat) -> list[CardId]:
    """The cards that may go to the common area after drawing (see option `discard_from`)."""
    if state.options.discard_from == "drawn":
        return list(state.drawn)
    return list(state.hands[seat])


# --- decide ----------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "game_over":
        raise Rejected("game_over", "Someone has passed 200 points; the game is over.")
    if state.phase == "dealing":
        raise Rejected("not_dealt", "No round is in play at the moment.")
    if seat not in to_act(state):
        raise Rejected("not_your_turn", f"It is not seat {seat + 1}'s turn.")
    if state.phase == "round_over" and not isinstance(command, DealRound):
        raise Rejected(
            "round_over", f"Round {state.round} is over; the dealer deals the next round."
        )
    match command:
        case DealRound():
            return deal_round(state, rng)
        case MakePair(hand_card=hand_card, common_card=common_card):
            return make_pair(state, seat, hand_card, common_card)
        case DrawTwo():
            return draw_two(state, seat)
        case Discard(card=card):
            return discard(state, seat, card)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a Five Pairs move.")


def deal_round(state: State, rng: Rng) -> Turn:
    if state.phase != "round_over":
        raise Rejected("round_in_play", f"Round {state.round} is still being played.")
    turn = Turn(state, evolve)
    turn.record(deal(state, state.round + 1, next_starter(state), rng))
    return turn


def make_pair(state: State, seat: Seat, hand_card: CardId, common_card: CardId) -> Turn:
    """Rule (seed 002): pair a hand card with a common card of the same number or colour.

    The first fourth pair takes the token; a fifth pair ends the round (flipping the token
    if its holder made it); a pair of 3s earns another turn.
    """
    _must_play(state)
    if hand_card not in state.hands[seat]:
        raise Rejected("card_not_in_hand", f"{hand_card!r} is not a card in your hand.")
    if common_card not in state.common:
        raise Rejected("card_not_in_common_area", f"{common_card!r} is not in the common area.")
    if not matches(hand_card, common_card):
        raise Rejected(
            "cards_do_not_match",
            f"The {label(hand_card)} and the {label(common_card)} share neither number nor colour.",
        )
    points, double = pair_points(hand_card, common_card)
    turn = Turn(state, evolve)
    turn.record(
        PairMade(
            seat=seat, hand_card=hand_card, common_card=common_card, points=points, double=double
        )
    )
    made = len(turn.state.pairs[seat])
    if made == TOKEN_PAIRS and turn.state.token_holder is None:
        turn.record(TokenTaken(seat=seat))
    if made >= ROUND_PAIRS:
        if turn.state.token_holder == seat:
            turn.record(TokenFlipped(seat=seat))
        turn.record(score_round(turn.state, "fifth_pair"))
        return turn
    threes = number_of(hand_card) == number_of(common_card) == EXTRA_TURN_NUMBER
    _end_turn(turn, seat, extra=threes)
    return turn


def draw_two(state: State, seat: Seat) -> Turn:
    """Rule (seed 002): a player who cannot or will not pair draws two cards."""
    _must_play(state)
    if not state.deck:
        raise Rejected("deck_empty", "The deck is empty: you can only make a pair.")
    cards = top_cards(state.deck, DRAW_COUNT)
    turn = Turn(state, evolve)
    turn.record(CardsDrawn(seat=seat, cards=cards, count=len(cards), refill=False))
    return turn


def discard(state: State, seat: Seat, card: CardId) -> Turn:
    """Rule (seed 002): ... then discards one card to the common area."""
    if state.phase != "discard":
        raise Rejected("draw_first", "Discard only after drawing two cards.")
    if card not in discardable(state, seat):
        where = "you just drew" if state.options.discard_from == "drawn" else "in your hand"
        raise Rejected("card_not_discardable", f"{card!r} is not one of the cards {where}.")
    turn = Turn(state, evolve)
    turn.record(CardDiscarded(seat=seat, card=card))
    _end_turn(turn, seat, extra=False)
    return turn


def _must_play(state: State) -> None:
    if state.phase != "play":
        raise Rejected("must_discard", "You have drawn: put one card in the common area.")


def _end_turn(turn: Turn, seat: Seat, extra: bool) -> None:
    """Rule (seed 002): draw back up to 2 cards; then the next player (or the same one
    again after a pair of 3s) plays.

    ASSUMPTION: with the deck empty a player who cannot pair is passed over, and when no
    one can pair the round ends.
    """
    state = turn.state
    short = HAND_SIZE - len(state.hands[seat])
    if short > 0 and state.deck and seat not in state.conceded:
        cards = top_cards(state.deck, short)
        turn.record(CardsDrawn(seat=seat, cards=cards, count=len(cards), refill=True))
    state = turn.state
    following = seat if extra else left_of(state, seat)
    skipped: list[Seat] = []
    while not state.deck and not can_pair(state, following):
        skipped.append(following)
        if len(skipped) >= len(active(state)):
            turn.record(score_round(state, "stalemate"))
            return
        following = left_of(state, following)
    turn.record(TurnBegan(seat=following, extra=extra and not skipped, skipped=tuple(skipped)))


def concede(state: State, seat: Seat, rng: Rng) -> Turn | None:
    """The seat is passed over from now on; with one player left the game cannot go on."""
    if len(active(state)) <= 2 or seat in state.conceded:
        return None
    turn = Turn(state, evolve)
    turn.record(PlayerConceded(seat=seat))
    if state.phase in ("play", "discard") and state.turn == seat:
        _end_turn(turn, seat, extra=False)
    return turn


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    match event:
        case RoundDealt():
            return _round_dealt(state, event)
        case PairMade(seat=seat, hand_card=hand_card, common_card=common_card, points=points):
            hand = [c for c in state.hands[seat] if c != hand_card]
            pairs = [*state.pairs[seat], (hand_card, common_card)]
            return msgspec.structs.replace(
                state,
                hands=_row(state.hands, seat, hand),
                common=[c for c in state.common if c != common_card],
                pairs=_row(state.pairs, seat, pairs),
                round_points=_row(state.round_points, seat, state.round_points[seat] + points),
            )
        case TokenTaken(seat=seat):
            return msgspec.structs.replace(state, token_holder=seat)
        case TokenFlipped():
            return msgspec.structs.replace(state, token_flipped=True)
        case CardsDrawn(seat=seat, cards=cards, refill=refill):
            assert cards is not None
            hand = [*state.hands[seat], *cards]
            out = msgspec.structs.replace(
                state, hands=_row(state.hands, seat, hand), deck=state.deck[: -len(cards)]
            )
            if not refill:
                out.phase = "discard"
                out.drawn = list(cards)
            return out
        case CardDiscarded(seat=seat, card=card):
            hand = [c for c in state.hands[seat] if c != card]
            return msgspec.structs.replace(
                state,
                hands=_row(state.hands, seat, hand),
                common=[*state.common, card],
                drawn=[],
            )
        case TurnBegan(seat=seat):
            return msgspec.structs.replace(state, phase="play", turn=seat, drawn=[])
        case RoundScored(points=points, totals=totals, token_value=value, token_holder=holder):
            row = list(points)
            if holder is not None:
                row[holder] += value
            phase: Literal["round_over", "game_over"] = (
                "game_over" if game_ends(totals) else "round_over"
            )
            return msgspec.structs.replace(
                state, phase=phase, totals=list(totals), history=[*state.history, row]
            )
        case PlayerConceded(seat=seat):
            return msgspec.structs.replace(state, conceded=[*state.conceded, seat])
        case _:
            raise TypeError(f"not a Five Pairs event: {event!r}")


def _round_dealt(state: State, event: RoundDealt) -> State:
    assert event.deck is not None
    return msgspec.structs.replace(
        state,
        phase="play",
        round=event.round,
        starter=event.starter,
        turn=event.starter,
        hands=[list(h or ()) for h in event.hands],
        deck=list(event.deck),
        common=list(event.common),
        drawn=[],
        pairs=[[] for _ in range(state.seats)],
        round_points=[0] * state.seats,
        token_holder=None,
        token_flipped=False,
    )


def _row(rows: list[T], seat: Seat, value: T) -> list[T]:
    """A copy of per-seat `rows` with the seat's entry replaced (the others shared)."""
    return [value if s == seat else row for s, row in enumerate(rows)]
