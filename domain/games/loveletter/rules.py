"""The referee: setup, decide (guards in the rulebook's order, then events), legal, to_act,
the outcome and leaving the table."""

from __future__ import annotations

from domain.games.loveletter.cards import CARDS, CardId, guessable_values, name_of, title_of
from domain.games.loveletter.choosing import (
    check_choice,
    looks,
    must_play_countess,
    playable,
    target_sets,
)
from domain.games.loveletter.commands import (
    Command,
    DiscardHand,
    KeepHand,
    PlayCard,
    StartNextRound,
)
from domain.games.loveletter.effects import EFFECTS, Script, discard_and_draw, knock_out
from domain.games.loveletter.events import CardPlayed, HandKept, SeatLeft
from domain.games.loveletter.evolve import evolve
from domain.games.loveletter.round_end import deal_round, end_round, finish_turn
from domain.games.loveletter.state import (
    TOKENS_TO_WIN,
    Options,
    State,
    in_round,
    next_at_table,
)
from domain.kernel import Outcome, Rejected, Rng, Seat, ranks_from_keys


def initial(options: Options, seats: int) -> State:
    return State(
        seats=seats,
        premium=seats >= 5,
        tokens_to_win=TOKENS_TO_WIN[seats],
        options=options,
        phase="setup",
        round=0,
        turn=None,
        hands=[[] for _ in range(seats)],
        deck=[],
        set_aside=None,
        known=[[] for _ in range(seats)],
        face_up=[],
        discards=[[] for _ in range(seats)],
        out=[False] * seats,
        protected=[False] * seats,
        tokens=[0] * seats,
        gone=[False] * seats,
        marked=None,
        jester=None,
        chooser=None,
        starter=None,
        showdown=False,
        winners=[],
    )


def start(state: State, rng: Rng) -> Script:
    """The first round; its first player is drawn at random (recorded in the event)."""
    s = Script(state, evolve)
    deal_round(s, rng.below(state.seats), rng)
    return s


def starter(state: State) -> Seat | None:
    """Who starts the next round: the last round's winner (or the next player still at
    the table, if that one has left)."""
    if state.phase != "between_rounds" or state.starter is None:
        return None
    return next_at_table(state, state.starter)


def to_act(state: State) -> frozenset[Seat]:
    match state.phase:
        case "turn" if state.turn is not None:
            return frozenset({state.turn})
        case "bishop" if state.chooser is not None:
            return frozenset({state.chooser})
        case "between_rounds":
            first = starter(state)
            return frozenset() if first is None else frozenset({first})
        case _:
            return frozenset()


# --- decide ---------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Script:
    if state.phase == "over":
        raise Rejected("game_over", "The game is over: a suitor has won the Princess's heart.")
    if state.phase == "setup":
        raise Rejected("not_started", "The cards have not been dealt yet.")
    match command:
        case PlayCard():
            return play_card(state, seat, command)
        case KeepHand() | DiscardHand():
            return answer_bishop(state, seat, command)
        case StartNextRound():
            return start_next_round(state, seat, rng)
        case _:
            raise Rejected(
                "unknown_command", f"{type(command).__name__} is not a Love Letter move."
            )


def play_card(state: State, seat: Seat, command: PlayCard) -> Script:
    """Discard one of your two cards and apply its effect; then the next turn or the
    round's end."""
    _in_turn(state)
    if seat != state.turn:
        raise Rejected(
            "not_your_turn", f"It is {_seat(state.turn).lower()}'s turn, not seat {seat + 1}'s."
        )
    hand = state.hands[seat]
    card = _card_in_hand(hand, command)
    if command.card == "princess":
        raise Rejected(
            "princess_cannot_be_played",
            "You may not discard the Princess of your own will: play your other card.",
        )
    if must_play_countess(hand) and command.card != "countess":
        raise Rejected(
            "countess_must_be_played",
            "With the King or a Prince in hand, you must play the Countess.",
        )
    check_choice(state, seat, command)
    s = Script(state, evolve)
    s.record(CardPlayed(seat=seat, card=card, targets=command.targets, guess=command.guess))
    EFFECTS[command.card](s, seat, command)
    finish_turn(s)
    return s


def answer_bishop(state: State, seat: Seat, command: KeepHand | DiscardHand) -> Script:
    """Rule (premium, Bishop): the player whose card was guessed keeps it, or discards it
    (no effect; the Princess still knocks out) and draws a new card."""
    if state.phase != "bishop" or state.chooser is None:
        raise Rejected("no_choice_pending", "Nobody is answering a Bishop's guess now.")
    if seat != state.chooser:
        raise Rejected("not_your_turn", f"Seat {state.chooser + 1} answers the Bishop, not you.")
    s = Script(state, evolve)
    if isinstance(command, KeepHand):
        s.record(HandKept(seat=seat))
    else:
        discard_and_draw(s, seat)
    finish_turn(s)
    return s


def start_next_round(state: State, seat: Seat, rng: Rng) -> Script:
    """Rule (seed 001): rounds go on until the game is won; the round's winner starts."""
    if state.phase != "between_rounds":
        raise Rejected("round_in_progress", "The round is still being played.")
    first = starter(state)
    if seat != first:
        raise Rejected("not_your_turn", f"{_seat(first)} starts the next round, not you.")
    s = Script(state, evolve)
    deal_round(s, seat, rng)
    return s


def _seat(seat: Seat | None) -> str:
    """A seat as people count them, from 1."""
    return "Nobody" if seat is None else f"Seat {seat + 1}"


def _in_turn(state: State) -> None:
    if state.phase == "bishop":
        raise Rejected(
            "bishop_choice_pending",
            f"{_seat(state.chooser)} must first choose to keep or discard the guessed card.",
        )
    if state.phase != "turn":
        raise Rejected("round_over", "The round is over: the next round must be started.")


def _card_in_hand(hand: list[CardId], command: PlayCard) -> CardId:
    for card in hand:
        if name_of(card) == command.card:
            return card
    held = " and ".join(title_of(c) for c in hand) or "nothing"
    raise Rejected("card_not_in_hand", f"You hold {held}, not the {CARDS[command.card].title}.")


# --- legal ----------------------------------------------------------------------------------


def legal(state: State, seat: Seat) -> list[Command]:
    if seat not in to_act(state):
        return []
    if state.phase == "bishop":
        return [KeepHand(), DiscardHand()]
    if state.phase == "between_rounds":
        return [StartNextRound()]
    out: list[Command] = []
    for name in playable(state.hands[seat]):
        card = CARDS[name]
        for targets in target_sets(state, seat, name):
            guesses: list[int | None] = [None]
            if card.names_a_value and targets:
                guesses = list(guessable_values(state.premium))
            seen: list[Seat | None] = [None]
            if card.looks and targets:
                seen = list(looks(seat, targets))
            out += [
                PlayCard(card=name, targets=targets, guess=g, look_at=at)
                for g in guesses
                for at in seen
            ]
    return out


# --- the end --------------------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    """Scores are tokens of affection; a player who left ranks below those who stayed."""
    if state.phase != "over":
        return None
    keys = [(0 if state.gone[p] else 1, state.tokens[p]) for p in range(state.seats)]
    return Outcome(scores=tuple(state.tokens), ranks=ranks_from_keys(keys))


def concede(state: State, seat: Seat, rng: Rng) -> Script | None:
    """The player leaves: out of the round, hand discarded face up, never dealt in again.
    The game cannot go on with fewer than two players."""
    staying = [p for p in range(state.seats) if not state.gone[p] and p != seat]
    if len(staying) < 2 or state.phase in ("setup", "over"):
        return None
    s = Script(state, evolve)
    s.record(SeatLeft(seat=seat))
    if state.phase not in ("turn", "bishop") or state.out[seat]:
        return s
    was_acting = seat in to_act(state)
    knock_out(s, seat, "left")
    if len(in_round(s.state)) <= 1:
        end_round(s)
    elif was_acting:
        finish_turn(s)
    return s
