"""Panda Panda's turn: draw or discard, the A that makes everyone pass, the rounds, the
fold."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from msgspec.structs import replace

from domain.games.pandapanda.cards import LETTER_OF, LETTERS, PASSING_LETTER, Letter
from domain.games.pandapanda.commands import (
    Command,
    Discard,
    DrawFromDeck,
    NextRound,
    PassCard,
    SkipTurn,
    TakeDiscard,
)
from domain.games.pandapanda.events import (
    CardDiscarded,
    CardsPassed,
    DeckReshuffled,
    DrewFromDeck,
    Event,
    PassChosen,
    PassingStarted,
    RoundDealt,
    RoundWon,
    SeatLeft,
    TookDiscard,
    TurnPassed,
    TurnSkipped,
)
from domain.games.pandapanda.rounds import deal, declared_victory, first_starter, next_starter
from domain.games.pandapanda.state import Secrets, State, in_play, left_of
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import top_cards, under_the_tops

T = TypeVar("T")

Turn = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""


# --- who acts, and what they may do -----------------------------------------------------


def to_act(state: State) -> frozenset[Seat]:
    match state.phase:
        case "turn":
            return frozenset({state.turn})
        case "passing":
            return frozenset(state.passing)
        case "round_over":
            return frozenset({next_starter(state)})
        case _:
            return frozenset()


def legal(state: State, seat: Seat) -> list[Command]:
    if not 0 <= seat < state.seats or state.out[seat]:
        return []
    hand = state.secret.hands[seat]
    if state.phase == "turn" and seat == state.turn:
        return turn_moves(state, hand) or [SkipTurn()]
    if state.phase == "passing" and seat in state.passing:
        return [PassCard(letter=letter) for letter in letters_in(hand)]
    if state.phase == "round_over" and seat == next_starter(state):
        return [NextRound()]
    return []


def turn_moves(state: State, hand: Sequence[str]) -> list[Command]:
    moves: list[Command] = []
    if can_draw_from_deck(state):
        moves.append(DrawFromDeck())
    moves += [TakeDiscard(pile=pile) for pile in range(state.seats) if can_take(state, pile)]
    moves += [Discard(letter=letter) for letter in letters_in(hand)]
    return moves


def letters_in(hand: Sequence[str]) -> list[Letter]:
    held = {LETTER_OF[card] for card in hand}
    return [letter for letter in LETTERS if letter in held]


def can_draw_from_deck(state: State) -> bool:
    """The deck has a card, or can be rebuilt from the discard piles under their tops."""
    return bool(state.secret.deck) or any(len(pile) > 1 for pile in state.discards)


def can_take(state: State, pile: Seat) -> bool:
    """Rule: the top card of any discard pile may be taken, unless it is an A."""
    cards = state.discards[pile]
    return bool(cards) and LETTER_OF[cards[-1]] != PASSING_LETTER


# --- decide ----------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    match command:
        case DrawFromDeck():
            return draw_from_deck(state, seat, rng)
        case TakeDiscard(pile=pile):
            return take_discard(state, seat, pile)
        case Discard(letter=letter):
            return discard(state, seat, letter)
        case PassCard(letter=letter):
            return pass_card(state, seat, letter)
        case SkipTurn():
            return skip_turn(state, seat)
        case NextRound():
            return next_round(state, seat, rng)
        case _:
            raise Rejected("unknown_command", f"{command!r} is not a Panda Panda move.")


def on_turn(state: State, seat: Seat) -> None:
    """Guard: draws and discards happen on your own turn, not while cards are being passed."""
    if state.phase == "passing":
        raise Rejected(
            "passing_under_way", "An A was discarded: everyone must first pass a card left."
        )
    if state.phase != "turn":
        raise Rejected("round_not_under_way", "No round is being played right now.")
    if seat != state.turn:
        raise Rejected("not_your_turn", f"It is seat {state.turn + 1}'s turn, not yours.")


def draw_from_deck(state: State, seat: Seat, rng: Rng) -> Turn:
    on_turn(state, seat)
    if not can_draw_from_deck(state):
        raise Rejected(
            "deck_empty", "The deck is empty and no discard pile has cards under its top one."
        )
    turn = Turn(state, evolve)
    if not state.secret.deck:
        # ASSUMPTION: an empty deck is rebuilt from every pile but its top card.
        deck = rng.shuffled(under_the_tops(state.discards))
        turn.record(DeckReshuffled(deck=tuple(deck), deck_size=len(deck)))
    turn.record(DrewFromDeck(seat=seat, card=top_cards(turn.state.secret.deck, 1)[0]))
    end_turn(turn, seat)
    return turn


def take_discard(state: State, seat: Seat, pile: Seat) -> Turn:
    on_turn(state, seat)
    if not 0 <= pile < state.seats:
        raise Rejected("no_such_pile", f"There is no discard pile for seat {pile + 1}.")
    if not state.discards[pile]:
        raise Rejected("pile_empty", f"Seat {pile + 1}'s discard pile is empty.")
    if not can_take(state, pile):
        raise Rejected("cannot_take_an_a", "An A can never be taken from a discard pile.")
    turn = Turn(state, evolve)
    turn.record(TookDiscard(seat=seat, pile=pile, card=state.discards[pile][-1]))
    end_turn(turn, seat)
    return turn


def discard(state: State, seat: Seat, letter: Letter) -> Turn:
    on_turn(state, seat)
    turn = Turn(state, evolve)
    turn.record(CardDiscarded(seat=seat, card=card_of(state, seat, letter)))
    if letter == PASSING_LETTER:
        # Rule: discarding an A makes everyone pass a card to the left.
        after = turn.state
        owing = tuple(other for other in in_play(after) if after.secret.hands[other])
        if owing:
            turn.record(PassingStarted(seats=owing))
            return turn
    end_turn(turn, seat)
    return turn


def card_of(state: State, seat: Seat, letter: Letter) -> str:
    """The copy of `letter` a command moves: the lowest-numbered one in the hand."""
    copies = sorted(card for card in state.secret.hands[seat] if LETTER_OF[card] == letter)
    if not copies:
        raise Rejected("letter_not_in_hand", f"You hold no {letter}.")
    return copies[0]


def pass_card(state: State, seat: Seat, letter: Letter) -> Turn:
    if state.phase != "passing":
        raise Rejected("no_pass_now", "Cards are only passed right after an A is discarded.")
    if seat not in state.passing:
        if 0 <= seat < state.seats and state.secret.chosen[seat] is not None:
            raise Rejected("already_chosen", "You have already chosen the card you pass.")
        raise Rejected("not_your_turn", "You hold no card to pass this time.")
    turn = Turn(state, evolve)
    turn.record(PassChosen(seat=seat, card=card_of(state, seat, letter)))
    if state.passing == [seat]:
        reveal_passes(turn)
    return turn


def reveal_passes(turn: Turn) -> None:
    """Rule: once everyone has chosen, each chosen card goes to its owner's left neighbour."""
    state = turn.state
    chosen = state.secret.chosen
    if any(card is not None for card in chosen):
        receivers = tuple(
            left_of(state, giver) if chosen[giver] is not None else None
            for giver in range(state.seats)
        )
        turn.record(CardsPassed(cards=tuple(chosen), receivers=receivers))
    end_turn(turn, state.turn)


def skip_turn(state: State, seat: Seat) -> Turn:
    on_turn(state, seat)
    if turn_moves(state, state.secret.hands[seat]):
        raise Rejected("must_play", "You can still draw or discard, so you cannot skip.")
    turn = Turn(state, evolve)
    turn.record(TurnSkipped(seat=seat))
    end_turn(turn, seat)
    return turn


def end_turn(turn: Turn, seat: Seat) -> None:
    """The turn goes left; the next player wins at once if their hand still matches."""
    following = left_of(turn.state, seat)
    turn.record(TurnPassed(seat=following))
    turn.record(*declared_victory(turn.state, following))


def start(state: State, rng: Rng) -> Turn:
    """The first round."""
    return begin_round(state, rng, first_starter(state))


def next_round(state: State, seat: Seat, rng: Rng) -> Turn:
    if state.phase != "round_over":
        raise Rejected("round_not_over", "The next round is dealt once a round has been won.")
    starter = next_starter(state)
    if seat != starter:
        raise Rejected("not_your_turn", f"Seat {starter + 1} begins the next round.")
    return begin_round(state, rng, starter)


def begin_round(state: State, rng: Rng, starter: Seat) -> Turn:
    """The deal; the starter wins at once if dealt a winning hand."""
    turn = Turn(state, evolve)
    turn.record(deal(state, rng, starter))
    turn.record(*declared_victory(turn.state, starter))
    return turn


def concede(state: State, seat: Seat, rng: Rng) -> Turn | None:
    """A player who leaves puts their hand under the deck; play goes on if two remain."""
    if state.phase == "over" or len(in_play(state)) <= 2:
        return None
    hand = state.secret.hands[seat]
    size = len(state.secret.deck) + len(hand)
    turn = Turn(state, evolve)
    turn.record(SeatLeft(seat=seat, returned=tuple(rng.shuffled(hand)), deck_size=size))
    if state.phase == "passing" and not turn.state.passing:
        reveal_passes(turn)
    elif state.phase == "turn" and state.turn == seat:
        end_turn(turn, seat)
    return turn


def outcome(state: State) -> Outcome | None:
    """The first to the round target wins; the others rank by rounds won, leavers last."""
    if state.phase != "over":
        return None
    keys = [(0 if state.out[seat] else 1, state.wins[seat]) for seat in range(state.seats)]
    return Outcome(scores=tuple(state.wins), ranks=ranks_from_keys(keys))


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    match event:
        case RoundDealt():
            return dealt(state, event)
        case DrewFromDeck(seat=seat, card=card):
            secret = state.secret
            hands = put(secret.hands, seat, [*secret.hands[seat], str(card)])
            return replace(state, secret=replace(secret, hands=hands, deck=secret.deck[:-1]))
        case TookDiscard(seat=seat, pile=pile, card=card):
            hands = put(state.secret.hands, seat, [*state.secret.hands[seat], card])
            known = [k if i == seat else [*k, card] for i, k in enumerate(state.known)]
            discards = put(state.discards, pile, state.discards[pile][:-1])
            secret = replace(state.secret, hands=hands)
            return replace(state, discards=discards, known=known, secret=secret)
        case CardDiscarded(seat=seat, card=card):
            hand = [c for c in state.secret.hands[seat] if c != card]
            secret = replace(state.secret, hands=put(state.secret.hands, seat, hand))
            discards = put(state.discards, seat, [*state.discards[seat], card])
            return replace(
                state, discards=discards, known=forget(state.known, {card}), secret=secret
            )
        case PassingStarted(seats=seats):
            chosen: list[str | None] = [None] * state.seats
            secret = replace(state.secret, chosen=chosen)
            return replace(state, phase="passing", passing=list(seats), secret=secret)
        case PassChosen(seat=seat, card=card):
            secret = replace(state.secret, chosen=put(state.secret.chosen, seat, card))
            return replace(state, passing=[s for s in state.passing if s != seat], secret=secret)
        case CardsPassed():
            return passed(state, event)
        case DeckReshuffled(deck=deck):
            discards = [pile[-1:] for pile in state.discards]
            secret = replace(state.secret, deck=list(deck or ()))
            return replace(state, discards=discards, secret=secret)
        case TurnSkipped():
            return state
        case TurnPassed(seat=seat):
            return replace(state, phase="turn", turn=seat)
        case RoundWon(seat=seat, hand=hand, wins=wins):
            phase = "over" if wins >= state.rounds_to_win else "round_over"
            known = [k if i == seat else [*k, *hand] for i, k in enumerate(state.known)]
            return replace(state, phase=phase, wins=put(state.wins, seat, wins), known=known)
        case SeatLeft():
            return left(state, event)
        case _:
            raise TypeError(f"not a Panda Panda event: {event!r}")


def dealt(state: State, event: RoundDealt) -> State:
    hands = [list(hand or ()) for hand in event.hands]
    secret = Secrets(hands=hands, deck=list(event.deck or ()), chosen=[None] * state.seats)
    return replace(
        state,
        phase="turn",
        round=event.round,
        starter=event.starter,
        turn=event.starter,
        discards=[[] for _ in range(state.seats)],
        passing=[],
        known=[[] for _ in range(state.seats + 1)],
        secret=secret,
    )


def passed(state: State, event: CardsPassed) -> State:
    hands = [list(hand) for hand in state.secret.hands]
    moved: set[str] = set()
    for giver, card in enumerate(event.cards):
        if card is not None:
            hands[giver].remove(card)
            moved.add(card)
    for card, receiver in zip(event.cards, event.receivers, strict=True):
        if card is not None and receiver is not None:
            hands[receiver].append(card)
    known = forget(state.known, moved)
    for giver, card in enumerate(event.cards):
        if card is not None:
            known[giver] = [*known[giver], card]
    chosen: list[str | None] = [None] * state.seats
    secret = replace(state.secret, hands=hands, chosen=chosen)
    return replace(state, phase="turn", passing=[], known=known, secret=secret)


def left(state: State, event: SeatLeft) -> State:
    returned = list(event.returned or ())
    secret = replace(
        state.secret,
        hands=put(state.secret.hands, event.seat, []),
        deck=returned + state.secret.deck,
        chosen=put(state.secret.chosen, event.seat, None),
    )
    return replace(
        state,
        out=put(state.out, event.seat, True),
        passing=[s for s in state.passing if s != event.seat],
        known=forget(state.known, set(returned)),
        secret=secret,
    )


def put(items: list[T], index: int, value: T) -> list[T]:
    """A copy of `items` with one entry replaced."""
    out = list(items)
    out[index] = value
    return out


def forget(known: list[list[str]], cards: set[str]) -> list[list[str]]:
    return [[c for c in k if c not in cards] if cards & set(k) else k for k in known]
