"""Easy Peasy's turn: play up or down, or draw two and flip; the colour bonus; the rounds;
the fold."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from msgspec.structs import replace

from domain.games.easypeasy.cards import COLOUR_OF, DRAW_SIZE, PILES, VALUE_OF, Arrow, Pile
from domain.games.easypeasy.commands import (
    Command,
    DrawCards,
    EndTurn,
    FlipArrow,
    NextRound,
    PlayCard,
    RevealCard,
)
from domain.games.easypeasy.events import (
    ArrowFlipped,
    BonusEarned,
    CardPlayed,
    CardRevealed,
    CardsDrawn,
    DeckReshuffled,
    Event,
    RoundDealt,
    RoundScored,
    SeatLeft,
    TurnPassed,
)
from domain.games.easypeasy.rounds import deal, first_starter, next_starter, round_ended, score
from domain.games.easypeasy.state import (
    Secrets,
    Stack,
    State,
    in_play,
    left_of,
    pile_index,
    playable_row_cards,
    row_cards,
)
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import top_cards, under_the_tops

T = TypeVar("T")
PLAYING = ("turn", "draw_play", "bonus")

Turn = Recorder[State, Event]
"""A decision as it unfolds: the events recorded so far and the table they lead to."""


# --- who acts, and what they may do -----------------------------------------------------


def to_act(state: State) -> frozenset[Seat]:
    if state.phase in PLAYING:
        return frozenset({state.turn})
    if state.phase == "round_over":
        return frozenset({next_starter(state)})
    return frozenset()


def legal(state: State, seat: Seat) -> list[Command]:
    if not 0 <= seat < state.seats or state.out[seat]:
        return []
    if state.phase == "round_over":
        return [NextRound()] if seat == next_starter(state) else []
    if state.phase not in PLAYING or seat != state.turn:
        return []
    if state.phase == "bonus" and state.bonus_pile is not None:
        return [*bonus_moves(state, seat, state.bonus_pile), EndTurn()]
    plays: list[Command] = list(plays_for(state, seat, PILES))
    return [*plays, DrawCards()] if state.phase == "turn" else plays


def playable(state: State, seat: Seat) -> list[str]:
    """Your hand, and the cards lying face up on top of your row."""
    return sorted([*state.secret.hands[seat], *playable_row_cards(state.rows[seat])])


def fits(state: State, card: str, pile: Pile) -> bool:
    """Rule: UP asks for a card at least the pile's top; DOWN for at most it."""
    top = VALUE_OF[state.piles[pile_index(pile)][-1]]
    return VALUE_OF[card] >= top if state.arrow == "up" else VALUE_OF[card] <= top


def plays_for(state: State, seat: Seat, piles: Iterable[Pile]) -> list[PlayCard]:
    cards = playable(state, seat)
    return [PlayCard(card=c, pile=p) for p in piles for c in cards if fits(state, c, p)]


def bonus_moves(state: State, seat: Seat, pile: Pile) -> list[Command]:
    """Rule: after a colour match, another card on the same pile, or the other bonus."""
    moves: list[Command] = list(plays_for(state, seat, (pile,)))
    if state.bonus == "flip":
        return [*moves, FlipArrow()]
    row = state.rows[seat]
    return moves + [RevealCard(stack=i) for i, s in enumerate(row) if face_down(s)]


def face_down(stack: Stack) -> bool:
    return stack.under is not None and not stack.revealed


# --- decide ----------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    match command:
        case PlayCard(card=card, pile=pile):
            return play_card(state, seat, card, pile)
        case DrawCards():
            return draw_cards(state, seat, rng)
        case RevealCard(stack=stack):
            return reveal_card(state, seat, stack)
        case FlipArrow():
            return flip_arrow(state, seat)
        case EndTurn():
            return decline_bonus(state, seat)
        case NextRound():
            return next_round(state, seat, rng)
        case _:
            raise Rejected("unknown_command", f"{command!r} is not an Easy Peasy move.")


def on_turn(state: State, seat: Seat) -> None:
    if state.phase not in PLAYING:
        raise Rejected("round_not_under_way", "No round is being played right now.")
    if seat != state.turn:
        raise Rejected("not_your_turn", f"It is seat {state.turn + 1}'s turn, not yours.")


def on_bonus(state: State, seat: Seat) -> None:
    on_turn(state, seat)
    if state.phase != "bonus":
        raise Rejected("no_bonus", "Only a card matching the colour it covers earns a bonus.")


def play_card(state: State, seat: Seat, card: str, pile: Pile) -> Turn:
    on_turn(state, seat)
    if state.phase == "bonus" and pile != state.bonus_pile:
        raise Rejected("bonus_same_pile", f"The bonus card goes on the {state.bonus_pile} pile.")
    stack = source_of(state, seat, card)
    if not fits(state, card, pile):
        word, code = (
            ("at least", "card_too_low") if state.arrow == "up" else ("at most", "card_too_high")
        )
        top = VALUE_OF[state.piles[pile_index(pile)][-1]]
        raise Rejected(code, f"The arrow shows {state.arrow.upper()}: play {word} {top} there.")
    turn = Turn(state, evolve)
    turn.record(CardPlayed(seat=seat, card=card, pile=pile, stack=stack))
    if stack is not None and state.reveal_uncovered:
        uncovered = state.rows[seat][stack]
        if uncovered.cover == card and face_down(uncovered) and uncovered.under is not None:
            turn.record(CardRevealed(seat=seat, stack=stack, card=uncovered.under))
    if round_ended(turn.state, seat):
        turn.record(score(turn.state, seat))
        return turn
    if COLOUR_OF[card] == COLOUR_OF[state.piles[pile_index(pile)][-1]]:
        earned = BonusEarned(seat=seat, pile=pile)
        # A bonus with nothing to do with it is not offered: look at the table it would make.
        if bonus_moves(evolve(turn.state, earned), seat, pile):
            turn.record(earned)
            return turn
    end_turn(turn, seat)
    return turn


def source_of(state: State, seat: Seat, card: str) -> int | None:
    """Where a playable card lies: None for the hand, else its row stack."""
    if card in state.secret.hands[seat]:
        return None
    from_row = playable_row_cards(state.rows[seat])
    if card in from_row:
        return from_row[card]
    if any(s.under == card and s.revealed for s in state.rows[seat]):
        raise Rejected("card_covered", "That row card is still covered by a face-up card.")
    raise Rejected("card_not_playable", "That card is neither in your hand nor on top of your row.")


def draw_cards(state: State, seat: Seat, rng: Rng) -> Turn:
    on_turn(state, seat)
    if state.phase != "turn":
        raise Rejected("already_acted", "You have already chosen your action this turn.")
    turn = Turn(state, evolve)
    deck = state.secret.deck
    if len(deck) < DRAW_SIZE:
        # ASSUMPTION: a short deck is topped up from both piles but their top cards.
        refill = rng.shuffled(under_the_tops(state.piles))
        if refill:
            turn.record(DeckReshuffled(deck=tuple(refill + deck), deck_size=len(refill + deck)))
    drawn = top_cards(turn.state.secret.deck, DRAW_SIZE)
    arrow: Arrow = "down" if state.arrow == "up" else "up"
    turn.record(
        CardsDrawn(seat=seat, cards=drawn, count=len(drawn)),
        ArrowFlipped(seat=seat, arrow=arrow),
    )
    if not plays_for(turn.state, seat, PILES):
        # ASSUMPTION: with still no card to play after drawing, the turn ends.
        end_turn(turn, seat)
    return turn


def reveal_card(state: State, seat: Seat, stack: int) -> Turn:
    on_bonus(state, seat)
    if state.bonus != "reveal":
        raise Rejected("bonus_is_flip", "In this game the bonus flips the Up&Down card instead.")
    row = state.rows[seat]
    if not 0 <= stack < len(row):
        # Stacks count from 0 in commands, from 1 in what a person reads.
        raise Rejected("no_such_stack", f"Your row has no stack {stack + 1}.")
    under = row[stack].under
    if under is None or row[stack].revealed:
        raise Rejected("nothing_face_down", f"Stack {stack + 1} of your row has no face-down card.")
    turn = Turn(state, evolve)
    turn.record(CardRevealed(seat=seat, stack=stack, card=under))
    end_turn(turn, seat)
    return turn


def flip_arrow(state: State, seat: Seat) -> Turn:
    on_bonus(state, seat)
    if state.bonus != "flip":
        raise Rejected("bonus_is_reveal", "In this game the bonus reveals a face-down card.")
    arrow: Arrow = "down" if state.arrow == "up" else "up"
    turn = Turn(state, evolve)
    turn.record(ArrowFlipped(seat=seat, arrow=arrow))
    end_turn(turn, seat)
    return turn


def decline_bonus(state: State, seat: Seat) -> Turn:
    on_bonus(state, seat)
    turn = Turn(state, evolve)
    end_turn(turn, seat)
    return turn


def end_turn(turn: Turn, seat: Seat) -> None:
    turn.record(TurnPassed(seat=left_of(turn.state, seat)))


def start(state: State, rng: Rng) -> Turn:
    """The first round."""
    turn = Turn(state, evolve)
    turn.record(deal(state, rng, first_starter(state)))
    return turn


def next_round(state: State, seat: Seat, rng: Rng) -> Turn:
    if state.phase != "round_over":
        raise Rejected("round_not_over", "The next round is dealt once a round has been scored.")
    starter = next_starter(state)
    if seat != starter:
        raise Rejected("not_your_turn", f"Seat {starter + 1} begins the next round.")
    turn = Turn(state, evolve)
    turn.record(deal(state, rng, starter))
    return turn


def concede(state: State, seat: Seat, rng: Rng) -> Turn | None:
    """A player who leaves sets their cards aside; play goes on while two remain."""
    if state.phase == "over" or len(in_play(state)) <= 2:
        return None
    turn = Turn(state, evolve)
    turn.record(SeatLeft(seat=seat))
    if state.phase in PLAYING and state.turn == seat:
        end_turn(turn, seat)
    return turn


def outcome(state: State) -> Outcome | None:
    """After the last round the lowest total wins; players who conceded rank last."""
    if state.phase != "over":
        return None
    keys = [(0 if state.out[s] else 1, -state.totals[s]) for s in range(state.seats)]
    return Outcome(scores=tuple(state.totals), ranks=ranks_from_keys(keys))


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    match event:
        case RoundDealt():
            return dealt(state, event)
        case CardPlayed():
            return played(state, event)
        case DeckReshuffled(deck=deck):
            piles = [pile[-1:] for pile in state.piles]
            return replace(state, piles=piles, secret=replace(state.secret, deck=list(deck or ())))
        case CardsDrawn(seat=seat, cards=cards, count=count):
            secret = state.secret
            hands = put(secret.hands, seat, [*secret.hands[seat], *(cards or ())])
            rest = secret.deck[: len(secret.deck) - count]
            return replace(state, phase="draw_play", secret=replace(secret, hands=hands, deck=rest))
        case ArrowFlipped(arrow=arrow):
            return replace(state, arrow=arrow)
        case BonusEarned(pile=pile):
            return replace(state, phase="bonus", bonus_pile=pile)
        case CardRevealed(seat=seat, stack=stack):
            row = put(state.rows[seat], stack, replace(state.rows[seat][stack], revealed=True))
            return replace(state, rows=put(state.rows, seat, row))
        case TurnPassed(seat=seat):
            return replace(state, phase="turn", turn=seat, bonus_pile=None)
        case RoundScored(points=points, totals=totals):
            phase = "over" if state.round >= state.rounds else "round_over"
            rows = [[replace(s, revealed=s.under is not None) for s in row] for row in state.rows]
            return replace(state, phase=phase, rows=rows, points=list(points), totals=list(totals))
        case SeatLeft(seat=seat):
            return left(state, seat)
        case _:
            raise TypeError(f"not an Easy Peasy event: {event!r}")


def dealt(state: State, event: RoundDealt) -> State:
    rows = [
        [Stack(cover=s.cover, under=s.under, revealed=False) for s in row] for row in event.rows
    ]
    secret = Secrets(
        hands=[list(hand or ()) for hand in event.hands],
        deck=list(event.deck or ()),
        set_aside=[],
    )
    return replace(
        state,
        phase="turn",
        round=event.round,
        starter=event.starter,
        turn=event.starter,
        arrow=event.arrow,
        piles=[[event.piles[0]], [event.piles[1]]],
        rows=rows,
        bonus_pile=None,
        secret=secret,
    )


def played(state: State, event: CardPlayed) -> State:
    seat, card = event.seat, event.card
    piles = put(state.piles, pile_index(event.pile), [*state.piles[pile_index(event.pile)], card])
    if event.stack is None:
        hand = [c for c in state.secret.hands[seat] if c != card]
        secret = replace(state.secret, hands=put(state.secret.hands, seat, hand))
        return replace(state, piles=piles, secret=secret)
    stack = state.rows[seat][event.stack]
    emptied = replace(stack, cover=None) if stack.cover == card else replace(stack, under=None)
    rows = put(state.rows, seat, put(state.rows[seat], event.stack, emptied))
    return replace(state, piles=piles, rows=rows)


def left(state: State, seat: Seat) -> State:
    secret = state.secret
    gone = [*secret.hands[seat], *row_cards(state.rows[seat])]
    secret = replace(
        secret, hands=put(secret.hands, seat, []), set_aside=[*secret.set_aside, *gone]
    )
    return replace(
        state,
        out=put(state.out, seat, True),
        rows=put(state.rows, seat, []),
        secret=secret,
    )


def put(items: list[T], index: int, value: T) -> list[T]:
    """A copy of `items` with one entry replaced."""
    out = list(items)
    out[index] = value
    return out
