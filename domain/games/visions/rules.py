"""A Visions turn: place a card in one of two dreams (or a nightmare), then draw back
up to 3 from the River.

Rule sentences cite the seed (002, "Gamehelpvisions", 2026-03-01) and rules-batch2.md §8.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import msgspec

from domain.games.visions.cards import (
    CARDS,
    DREAMS,
    HAND_SIZE,
    POINTS_PER_STEP,
    RIVER_SIZE,
    TRACK_END,
    CardId,
)
from domain.games.visions.commands import Command, EndTurn, PlayCard, PlayNightmare, TakeCard
from domain.games.visions.events import (
    CardPlayed,
    CardsDealt,
    CardStolen,
    CardTaken,
    EchoTriggered,
    Event,
    GameEnded,
    NightmarePlayed,
    RefillBegan,
    RefillEnded,
    ReflectionMoved,
    RiverFilled,
    TurnBegan,
)
from domain.games.visions.state import Slot, State
from domain.kernel import Outcome, Recorder, Rejected, Rng, Seat, ranks_from_keys
from domain.table import clockwise

Turn = Recorder[State, Event]

# --- reading the table -----------------------------------------------------------------------


def matches(dream: tuple[Slot, ...], card: CardId) -> bool:
    """Rule (Game Play): a card may start an empty dream, or be added when it matches the
    previous card in colour or symbol; any card may follow a nightmare."""
    if not dream or dream[-1].nightmare:
        return True
    last, new = CARDS[dream[-1].card], CARDS[card]
    return last.colour == new.colour or last.symbol == new.symbol


def placements(state: State, seat: Seat) -> list[PlayCard]:
    dreams = state.dreams[seat]
    return [
        PlayCard(card=card, dream=d + 1)
        for card in state.hands[seat]
        for d in range(DREAMS)
        if matches(dreams[d], card)
    ]


def may_dream_a_nightmare(state: State, seat: Seat) -> bool:
    """Rule (Nightmare): if you cannot place a card, you can play one face down."""
    return bool(state.hands[seat]) and (
        state.options.nightmare_by_choice or not placements(state, seat)
    )


def victims(state: State, seat: Seat) -> list[Seat | None]:
    """The players a nightmare can steal from: those holding cards (None if nobody)."""
    holders: list[Seat | None] = [s for s in range(state.seats) if s != seat and state.hands[s]]
    return holders or [None]


def reflection(state: State, seat: Seat, dream: int, card: CardId) -> int:
    """Rule (Reflection): a colour or symbol matched in the OTHER dream moves you up the
    track by 1; both by 2. Compared with the card at the same position (default) or with
    the whole other dream."""
    other = [s for s in state.dreams[seat][1 - dream] if not s.nightmare]
    new = CARDS[card]
    if state.options.reflection == "same_position":
        position = len(state.dreams[seat][dream])
        slot = state.dreams[seat][1 - dream][position : position + 1]
        other = [s for s in slot if not s.nightmare]
    colour = any(CARDS[s.card].colour == new.colour for s in other)
    symbol = any(CARDS[s.card].symbol == new.symbol for s in other)
    return int(colour) + int(symbol)


def is_echo(dream: tuple[Slot, ...], card: CardId) -> bool:
    """Rule (Echo): the card matches another card of the same dream exactly, anywhere."""
    return any(not s.nightmare and CARDS[s.card] == CARDS[card] for s in dream)


def dream_score(dream: tuple[Slot, ...]) -> int:
    """Rule (Scoring): the highest count of one colour times the highest count of one
    symbol; nightmares count for nothing."""
    cards = [CARDS[s.card] for s in dream if not s.nightmare]
    if not cards:
        return 0
    colours = Counter(c.colour for c in cards)
    symbols = Counter(c.symbol for c in cards)
    return max(colours.values()) * max(symbols.values())


def score(state: State, seat: Seat) -> int:
    """Both dreams, plus a point per step on the Reflection Track."""
    return sum(dream_score(d) for d in state.dreams[seat]) + POINTS_PER_STEP * state.track[seat]


# --- setup -----------------------------------------------------------------------------------


def start(state: State, rng: Rng) -> Turn:
    """Each player is dealt 3 cards; 5 go face up to the River; seat 1 starts."""
    turn = Turn(state, evolve)
    for seat in range(state.seats):
        cards = tuple(sorted(rng.sample(turn.state.deck, HAND_SIZE)))
        turn.record(CardsDealt(seat=seat, count=len(cards), cards=cards))
    fill_river(turn, RIVER_SIZE, rng)
    turn.record(TurnBegan(seat=0))
    return turn


def fill_river(turn: Turn, count: int, rng: Rng) -> None:
    count = min(count, len(turn.state.deck))
    if count:
        turn.record(RiverFilled(cards=tuple(sorted(rng.sample(turn.state.deck, count)))))


# --- decide ----------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> Turn:
    if state.phase == "over":
        raise Rejected("game_over", "The game is over.")
    if state.phase == "setup":
        raise Rejected("not_started", "The cards are not dealt yet.")
    if seat not in to_act(state):
        raise Rejected("not_your_turn", f"It is seat {min(to_act(state)) + 1}'s move.")
    match command:
        case PlayCard(card=card, dream=dream):
            return play_card(state, seat, card, dream, rng)
        case PlayNightmare(card=card, dream=dream, target=target):
            return play_nightmare(state, seat, card, dream, target, rng)
        case EndTurn():
            return end_turn(state, seat, rng)
        case TakeCard(card=card):
            return take_card(state, seat, card, rng)
        case _:
            raise Rejected("unknown_command", f"{type(command).__name__} is not a Visions move.")


def _placing(state: State, seat: Seat, card: CardId, dream: int) -> None:
    if state.phase not in ("play", "echo"):
        raise Rejected("draw_from_the_river", "Draw back up to 3 cards from the River first.")
    if card not in state.hands[seat]:
        raise Rejected("card_not_in_hand", f"{card} is not in your hand.")
    if dream not in range(1, DREAMS + 1):
        raise Rejected("no_such_dream", f"You have two dreams, 1 and 2; not {dream}.")


def play_card(state: State, seat: Seat, card: CardId, dream: int, rng: Rng) -> Turn:
    """Rule (Game Play): start or add to a dream; then Reflection, then Echo."""
    _placing(state, seat, card, dream)
    if not matches(state.dreams[seat][dream - 1], card):
        raise Rejected(
            "does_not_match",
            f"The last card of dream {dream} shares neither colour nor symbol with {card}.",
        )
    turn = Turn(state, evolve)
    steps = reflection(state, seat, dream - 1, card)
    echo = is_echo(state.dreams[seat][dream - 1], card)
    turn.record(CardPlayed(seat=seat, card=card, dream=dream))
    if steps:
        steps = min(steps, TRACK_END - state.track[seat])
        turn.record(ReflectionMoved(seat=seat, steps=steps))
        if turn.state.track[seat] >= TRACK_END:
            end_game(turn, woke=seat)
            return turn
        if state.options.reflection_feeds_river:
            fill_river(turn, steps, rng)
    if echo and turn.state.hands[seat]:
        turn.record(EchoTriggered(seat=seat))
        return turn
    begin_refill(turn, (seat,), rng)
    return turn


def play_nightmare(
    state: State, seat: Seat, card: CardId, dream: int, target: Seat | None, rng: Rng
) -> Turn:
    """Rule (Nightmare): play a card face down; steal a card from your opponent instead
    of refilling from the River; they refill from the River."""
    _placing(state, seat, card, dream)
    if not may_dream_a_nightmare(state, seat):
        raise Rejected(
            "you_can_place_a_card",
            "A nightmare is only for when no card of your hand can be placed.",
        )
    if target not in victims(state, seat):
        raise Rejected(
            "cannot_steal_there",
            "Steal from another player who holds a card (none only when nobody does).",
        )
    turn = Turn(state, evolve)
    turn.record(NightmarePlayed(seat=seat, dream=dream, card=card))
    if target is None:
        begin_refill(turn, (seat,), rng)
        return turn
    stolen = rng.choice(sorted(state.hands[target]))
    turn.record(CardStolen(seat=seat, target=target, card=stolen))
    begin_refill(turn, (target,), rng)
    return turn


def end_turn(state: State, seat: Seat, rng: Rng) -> Turn:
    """Rule (Echo): you *can* play another card; or stop and refill."""
    if state.phase != "echo":
        raise Rejected("no_echo", "Only after an Echo may you stop without playing a card.")
    turn = Turn(state, evolve)
    begin_refill(turn, (seat,), rng)
    return turn


def take_card(state: State, seat: Seat, card: CardId, rng: Rng) -> Turn:
    """Rule (Game Play): draw back up to 3 cards from the River; an empty River is
    refilled to 5 from the deck."""
    if state.phase != "refill":
        raise Rejected("play_a_card_first", "Place a card before drawing from the River.")
    if card not in state.river:
        raise Rejected("not_in_the_river", f"{card} is not in the River.")
    turn = Turn(state, evolve)
    turn.record(CardTaken(seat=seat, card=card))
    carry_on_refill(turn, rng)
    return turn


def begin_refill(turn: Turn, seats: tuple[Seat, ...], rng: Rng) -> None:
    turn.record(RefillBegan(seats=seats))
    carry_on_refill(turn, rng)


def carry_on_refill(turn: Turn, rng: Rng) -> None:
    """Draw until every refilling seat holds 3 or nothing is left; then the next turn."""
    while turn.state.refilling:
        seat = turn.state.refilling[0]
        if not turn.state.river and turn.state.deck:
            fill_river(turn, RIVER_SIZE, rng)
        if len(turn.state.hands[seat]) < HAND_SIZE and turn.state.river:
            return
        turn.record(RefillEnded(seat=seat))
    next_turn(turn)


def next_turn(turn: Turn) -> None:
    """The next player holding a card plays; with the deck run out and every card
    placed, the game ends."""
    state = turn.state
    for seat in clockwise(state.player, state.seats):
        if state.hands[seat]:
            turn.record(TurnBegan(seat=seat))
            return
    end_game(turn, woke=None)


def end_game(turn: Turn, woke: Seat | None) -> None:
    scores = tuple(score(turn.state, s) for s in range(turn.state.seats))
    turn.record(GameEnded(scores=scores, woke=woke))


def outcome(state: State) -> Outcome | None:
    """Rule (Game End): reaching the end of the track wins at once; otherwise the
    highest points win, equal points share."""
    if state.phase != "over":
        return None
    keys = [(int(state.woke == s), state.scores[s]) for s in range(state.seats)]
    return Outcome(scores=state.scores, ranks=ranks_from_keys(keys))


# --- legal -----------------------------------------------------------------------------------


def to_act(state: State) -> frozenset[Seat]:
    if state.phase in ("play", "echo"):
        return frozenset({state.player})
    if state.phase == "refill" and state.refilling:
        return frozenset({state.refilling[0]})
    return frozenset()


def legal(state: State, seat: Seat) -> Iterator[Command]:
    if seat not in to_act(state):
        return
    if state.phase == "refill":
        for card in sorted(set(state.river)):
            yield TakeCard(card=card)
        return
    yield from placements(state, seat)
    if may_dream_a_nightmare(state, seat):
        for card in state.hands[seat]:
            for dream in range(1, DREAMS + 1):
                for target in victims(state, seat):
                    yield PlayNightmare(card=card, dream=dream, target=target)
    if state.phase == "echo":
        yield EndTurn()


# --- evolve ----------------------------------------------------------------------------------

replace = msgspec.structs.replace


def _hand(state: State, seat: Seat, hand: tuple[CardId, ...]) -> tuple[tuple[CardId, ...], ...]:
    return tuple(hand if s == seat else h for s, h in enumerate(state.hands))


def _placed(state: State, seat: Seat, dream: int, slot: Slot) -> State:
    dreams = list(state.dreams[seat])
    dreams[dream - 1] = (*dreams[dream - 1], slot)
    all_dreams = tuple(tuple(dreams) if s == seat else d for s, d in enumerate(state.dreams))
    hand = tuple(c for c in state.hands[seat] if c != slot.card)
    return replace(state, dreams=all_dreams, hands=_hand(state, seat, hand))


def evolve(state: State, event: Event) -> State:
    match event:
        case CardsDealt(seat=seat, cards=cards):
            deck = tuple(c for c in state.deck if c not in cards)
            return replace(state, deck=deck, hands=_hand(state, seat, (*state.hands[seat], *cards)))
        case RiverFilled(cards=cards):
            deck = tuple(c for c in state.deck if c not in cards)
            return replace(state, deck=deck, river=(*state.river, *cards))
        case TurnBegan(seat=seat):
            return replace(state, phase="play", player=seat)
        case CardPlayed(seat=seat, card=card, dream=dream):
            stolen = tuple(s for s in state.stolen if s[2] != card)
            open_hands = tuple(c for c in state.open_hands if c != card)
            placed = _placed(state, seat, dream, Slot(card))
            return replace(placed, stolen=stolen, open_hands=open_hands)
        case ReflectionMoved(seat=seat, steps=steps):
            track = tuple(t + steps if s == seat else t for s, t in enumerate(state.track))
            return replace(state, track=track)
        case EchoTriggered():
            return replace(state, phase="echo")
        case NightmarePlayed(seat=seat, dream=dream, card=card):
            assert card is not None
            state = replace(state, open_hands=tuple(c for c in state.open_hands if c != card))
            return _placed(state, seat, dream, Slot(card, nightmare=True))
        case CardStolen(seat=seat, target=target, card=card):
            assert card is not None
            hands = _hand(state, target, tuple(c for c in state.hands[target] if c != card))
            hands = tuple((*h, card) if s == seat else h for s, h in enumerate(hands))
            stolen = (*(s for s in state.stolen if s[2] != card), (seat, target, card))
            open_hands = tuple(c for c in state.open_hands if c != card)
            return replace(state, hands=hands, stolen=stolen, open_hands=open_hands)
        case RefillBegan(seats=seats):
            return replace(state, phase="refill", refilling=seats)
        case CardTaken(seat=seat, card=card):
            river = tuple(c for c in state.river if c != card)
            hands = _hand(state, seat, (*state.hands[seat], card))
            open_hands = tuple(sorted((*state.open_hands, card)))
            return replace(state, river=river, hands=hands, open_hands=open_hands)
        case RefillEnded():
            return replace(state, refilling=state.refilling[1:])
        case GameEnded(scores=scores, woke=woke):
            return replace(state, phase="over", scores=scores, woke=woke, refilling=())
        case _:
            raise TypeError(f"not a Visions event: {event!r}")
